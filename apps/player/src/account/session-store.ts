/**
 * Where the sign-in session lives: `sessionStorage`, as the SPEC's client keeps it, under one prefix, so that a tab
 * opened later in the same browser can be handed the session by a tab that already has it.
 *
 * `sessionStorage` belongs to one tab: without a hand-over a reader who opens a second tab would be signed out there.
 * A new tab asks over the `BroadcastChannel` `spkg-player-session` (same origin only); an open tab holding a session
 * answers with its items, which the new tab stores. Sign-out still ends the session in every tab
 * (`@spkg/client/auth`'s logout broadcast), and a browser with no tab left open forgets the session, as
 * `sessionStorage` does.
 */
import type { SessionStore } from '@spkg/client/auth'

/** The prefix of every session item in `sessionStorage`. */
export const SESSION_PREFIX = 'spkg-player.session:'

/** The channel of the hand-over. */
export const SESSION_CHANNEL = 'spkg-player-session'

/** A `Storage`-like backend (`sessionStorage`). */
export interface KeyedStorage extends SessionStore {
  readonly length: number
  key(index: number): string | null
}

/** The session store of the player, with the hand-over between tabs. */
export interface SharedSessionStore extends SessionStore {
  /** Every item of the session (unprefixed keys). */
  items(): Record<string, string>
  /** Removes every item of the session. */
  clear(): void
  /**
   * Asks the other tabs for their session when this tab has none; resolves true when one arrived within
   * `timeoutMs`. `hasSession` says whether this tab already holds one (then nothing is asked).
   */
  requestFromOtherTabs(hasSession: () => boolean, timeoutMs?: number): Promise<boolean>
  /** Answers other tabs' requests while `hasSession()` is true. */
  serve(hasSession: () => boolean): void
  close(): void
}

type Message = { type: 'ask'; id: string } | { type: 'share'; id: string; items: Record<string, string> }

/**
 * Creates the store over `storage` (default `sessionStorage`), handing sessions over on `channel` (default a
 * `BroadcastChannel` named {@link SESSION_CHANNEL}; none: no hand-over).
 */
export function createSharedSessionStore(
  options: { storage?: KeyedStorage; channel?: BroadcastChannel | null } = {},
): SharedSessionStore {
  const storage =
    options.storage ?? (globalThis as unknown as { sessionStorage: KeyedStorage }).sessionStorage
  const channel =
    options.channel === undefined
      ? typeof BroadcastChannel === 'function'
        ? new BroadcastChannel(SESSION_CHANNEL)
        : null
      : options.channel
  const waiting = new Map<string, (items: Record<string, string>) => void>()
  let hasSessionHere: (() => boolean) | undefined

  const store: SharedSessionStore = {
    getItem: (key) => storage.getItem(SESSION_PREFIX + key),
    setItem: (key, value) => storage.setItem(SESSION_PREFIX + key, value),
    removeItem: (key) => storage.removeItem(SESSION_PREFIX + key),
    items() {
      const out: Record<string, string> = {}
      for (let i = 0; i < storage.length; i++) {
        const k = storage.key(i)
        if (k?.startsWith(SESSION_PREFIX)) out[k.slice(SESSION_PREFIX.length)] = storage.getItem(k) ?? ''
      }
      return out
    },
    clear() {
      for (const k of Object.keys(store.items())) store.removeItem(k)
    },
    async requestFromOtherTabs(hasSession, timeoutMs = 300) {
      if (!channel || hasSession()) return false
      const id = Math.random().toString(36).slice(2)
      const items = await new Promise<Record<string, string> | undefined>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id)
          resolve(undefined)
        }, timeoutMs)
        waiting.set(id, (received) => {
          clearTimeout(timer)
          waiting.delete(id)
          resolve(received)
        })
        channel.postMessage({ type: 'ask', id } satisfies Message)
      })
      // A session that appeared meanwhile (a sign-in broadcast) wins over the hand-over.
      if (!items || hasSession()) return false
      for (const [k, v] of Object.entries(items)) {
        if (typeof v === 'string') store.setItem(k, v)
      }
      return true
    },
    serve(hasSession) {
      hasSessionHere = hasSession
    },
    close() {
      channel?.close()
    },
  }
  if (channel) {
    channel.onmessage = (e: MessageEvent) => {
      const m = e.data as Message | undefined
      if (m?.type === 'ask' && typeof m.id === 'string' && hasSessionHere?.()) {
        channel.postMessage({ type: 'share', id: m.id, items: store.items() } satisfies Message)
      } else if (m?.type === 'share' && m.items && typeof m.items === 'object') {
        waiting.get(m.id)?.(m.items)
      }
    }
  }
  return store
}
