/**
 * The player's account: one `@spkg/client` for the API at the player's own origin, sign-in through the identity
 * provider (`@spkg/client/auth`, authorisation code with PKCE S256), sign-out in every tab, and the `cloud` storage
 * while signed in. No DOM here: the header, the banner and the progress page render what this reports.
 */
import { type Client, createClient } from '@spkg/client'
import { type Auth, createAuth } from '@spkg/client/auth'
import type { StateDriver } from '@spkg/state'
import { createIndexedDbDriver } from '@spkg/state/drivers/indexeddb'
import { createMemoryDriver } from '@spkg/state/drivers/memory'
import { callbackError, cleanCallbackUrl, isAuthCallback, loopProtectionUrl } from './callback'
import { type AuthConfig, type AuthEnv, resolveAuthConfig } from './config'
import { createSharedSessionStore, type KeyedStorage, type SharedSessionStore } from './session-store'
import { createSyncingCloudDriver, type SyncingCloudDriver } from './syncing-driver'
import { type AccountUser, userFromToken } from './user'

/** Where the account stands. */
export type AccountStatus =
  /** Finding the identity provider, handling a callback, or asking other tabs for their session. */
  | 'starting'
  /** The API names no identity provider (or could not be reached at start): local saves only. */
  | 'unavailable'
  | 'signed-out'
  | 'signed-in'

/** What the header shows. */
export interface AccountState {
  status: AccountStatus
  user?: AccountUser
  /** The last sign-in problem, in plain words. */
  error?: string
}

/** The account of the player (see {@link createAccount}). */
export interface Account {
  readonly client: Client
  /** Resolves once the account knows whether someone is signed in. */
  readonly ready: Promise<void>
  state(): AccountState
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (state: AccountState) => void): () => void
  /** Goes to the identity provider's sign-in; comes back to the route the reader is on. */
  signIn(): Promise<void>
  /** Ends the session here and in every tab of this browser; sends the saves made offline first when it can. */
  signOut(): Promise<void>
  /** The `cloud` storage while signed in, else null. */
  cloudDriver(): StateDriver | null
  /** How many saves wait for the connection. */
  pendingSaves(): Promise<number>
  close(): void
}

/** Where the sign-in settings last resolved are kept (this tab's `sessionStorage`). */
export const CONFIG_KEY = 'spkg-player.auth-config'

function readCachedConfig(
  storage: KeyedStorage,
  given: AuthConfig | null | undefined,
): AuthConfig | undefined {
  if (given !== undefined) return given ?? undefined
  try {
    const c = JSON.parse(storage.getItem(CONFIG_KEY) ?? 'null') as AuthConfig | null
    return c && typeof c.issuer === 'string' && typeof c.clientId === 'string' ? c : undefined
  } catch {
    return undefined
  }
}

/** When this tab last completed a sign-in started because the session ended (epoch ms, `sessionStorage`). */
export const SIGNED_IN_AT_KEY = 'spkg-player.signed-in-at'

/** Set while a sign-in started because the session ended is under way. */
const RESIGN_KEY = 'spkg-player.re-sign-in'

/** A 401 this soon after such a sign-in does not start another one. */
export const RESIGN_WINDOW_MS = 30_000

/** Where the route to come back to after sign-in is kept (this tab's `sessionStorage`). */
export const RETURN_TO_KEY = 'spkg-player.return-to'

/** Options of {@link createAccount}; each has the browser's default. */
export interface AccountOptions {
  /** The API's origin, which is the player's. @default location.origin */
  origin?: string
  env?: AuthEnv
  /** @default sessionStorage */
  storage?: KeyedStorage
  /** The durable storage of the offline queue. @default IndexedDB database `spkg-player-queue` */
  queueStorage?: StateDriver
  /** The page address. @default location */
  location?: Pick<Location, 'href' | 'hash' | 'replace' | 'assign'>
  /** Replaces the address without loading (`history.replaceState`). */
  replaceUrl?: (url: string) => void
  fetch?: typeof fetch
  /** The sign-in session store (tests). @default {@link createSharedSessionStore} over `storage` */
  sessionStore?: SharedSessionStore
  /** Resolved sign-in settings (tests); default: {@link resolveAuthConfig}. */
  authConfig?: AuthConfig | null
}

const loopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]'

/**
 * Creates the account and starts it (callback handling, session hand-over between tabs).
 *
 * @example
 * const account = createAccount({ env: import.meta.env })
 * await account.ready
 * const cloud = account.cloudDriver() // non-null when signed in
 */
export function createAccount(options: AccountOptions = {}): Account {
  const g = globalThis as unknown as {
    location: Location
    history: History
    sessionStorage: KeyedStorage
    BroadcastChannel?: typeof BroadcastChannel
  }
  const location = options.location ?? g.location
  const origin = options.origin ?? g.location.origin
  const pageStorage = options.storage ?? g.sessionStorage
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const replaceUrl = options.replaceUrl ?? ((url: string) => g.history.replaceState(g.history.state, '', url))
  const sessionStore = options.sessionStore ?? createSharedSessionStore({ storage: pageStorage })
  const queueStorage = options.queueStorage ?? defaultQueueStorage()
  let auth: Auth | undefined
  let state: AccountState = { status: 'starting' }
  const listeners = new Set<(s: AccountState) => void>()
  const set = (next: AccountState) => {
    state = next
    for (const l of [...listeners]) l(state)
  }

  const client = createClient({
    baseUrl: origin,
    getToken: () => auth?.getToken(),
    fetch: doFetch,
    storage: queueStorage,
  })
  let driver: SyncingCloudDriver | undefined
  let reSigningIn = false

  const signedIn = () => auth?.tokens() !== undefined
  const current = (error?: string): AccountState => {
    if (!auth) return { status: 'unavailable', ...(error && { error }) }
    const user = userFromToken(auth.tokens()?.accessToken)
    return user ? { status: 'signed-in', user } : { status: 'signed-out', ...(error && { error }) }
  }

  // The SPEC's 401 rule: a reader whose session ended is sent to sign in again (loop protection in
  // @spkg/client/auth), once the saves in flight are queued, so the page is not left with a save half-written; a request
  // of a signed-out reader (an old queued save) never starts a sign-in. (Not `auth.attach`: its immediate redirect
  // would not wait for the queue.)
  client.events.addEventListener('auth-required', () => {
    if (!signedIn() || reSigningIn) return
    reSigningIn = true
    void (async () => {
      await driver?.idle()
      if (!signedIn()) return // signed out meanwhile
      // Refused again right after signing in: no second round trip to the provider (a loop), say so instead.
      if (Date.now() - Number(pageStorage.getItem(SIGNED_IN_AT_KEY) ?? 0) < RESIGN_WINDOW_MS) {
        set({ ...current(), error: 'The server refuses this session: sign out, then sign in again.' })
        return
      }
      pageStorage.setItem(RETURN_TO_KEY, location.hash)
      pageStorage.setItem(RESIGN_KEY, '1')
      const started = await auth?.login().catch(() => false)
      if (!started && signedIn()) set({ ...current(), error: 'Your session has ended: sign in again.' })
    })().finally(() => {
      reSigningIn = false
    })
  })
  // Another tab signing in or out tells over @spkg/client/auth's channel (which updates this tab's session store);
  // the header follows.
  const authChannel = g.BroadcastChannel ? new g.BroadcastChannel('spkg-client') : undefined
  if (authChannel) {
    authChannel.onmessage = (e: MessageEvent) => {
      // A sign-out elsewhere: this tab's session ends now, whichever of the two channel objects hears it first.
      if ((e.data as { type?: string } | null)?.type === 'logout') sessionStore.clear()
      set(current())
      // New tokens are written by @spkg/client/auth's own listener, which may run after this one.
      setTimeout(() => set(current()), 50)
    }
  }

  const setupAuth = (config: AuthConfig) => {
    const issuer = new URL(config.issuer)
    auth = createAuth({
      ...config,
      // A new sign-in at the provider every time (not its remembered one): a session the API revoked stays revoked,
      // and signing in again through the provider's old session would give its tokens again.
      extraParams: { prompt: 'login consent', ...config.extraParams },
      storage: sessionStore,
      navigate: (url) => location.assign(url),
      currentUrl: () => loopProtectionUrl(location.href),
      fetch: doFetch,
      allowHttp: issuer.protocol === 'http:' && loopback(issuer.hostname),
    })
    sessionStore.serve(signedIn)
  }
  // The settings found by the last page of this tab: the account is usable at once (a reload of a story's page asks
  // for the cloud storage before any request could answer); checked again below.
  const cached = readCachedConfig(pageStorage, options.authConfig)
  if (cached) setupAuth(cached)

  const start = async () => {
    const config =
      options.authConfig === undefined
        ? await resolveAuthConfig({ origin, fetch: doFetch, ...(options.env && { env: options.env }) })
        : (options.authConfig ?? undefined)
    if (!config) {
      set(current())
      return
    }
    if (cached && JSON.stringify(cached) !== JSON.stringify(config)) {
      // Another provider than last time (a restarted development server): its tokens are no use.
      auth?.logout()
      auth?.close()
      auth = undefined
    }
    if (!auth) setupAuth(config)
    pageStorage.setItem(CONFIG_KEY, JSON.stringify(config))
    const a = auth as Auth
    let error: string | undefined
    if (isAuthCallback(location.href)) {
      const href = location.href
      const returnTo = pageStorage.getItem(RETURN_TO_KEY) ?? ''
      pageStorage.removeItem(RETURN_TO_KEY)
      const resign = pageStorage.getItem(RESIGN_KEY)
      pageStorage.removeItem(RESIGN_KEY)
      error = callbackError(href)
      if (error) error = `Sign-in did not complete (${error}).`
      else {
        try {
          await a.handleCallback(href)
          // A sign-in made because the session ended: a 401 soon after it means the provider's session is refused.
          if (resign) pageStorage.setItem(SIGNED_IN_AT_KEY, String(Date.now()))
        } catch (e) {
          error = `Sign-in did not complete: ${e instanceof Error ? e.message : String(e)}`
        }
      }
      replaceUrl(cleanCallbackUrl(href))
      if (returnTo && returnTo !== location.hash) location.replace(cleanCallbackUrl(href, returnTo))
      // Saves queued while the session had ended go out now.
      if (!error) void client.offline.replay().catch(() => undefined)
    } else {
      await sessionStore.requestFromOtherTabs(signedIn)
    }
    // A stored session whose tokens can no longer be refreshed is over.
    if (signedIn() && (await a.getToken()) === undefined) a.logout()
    set(current(error))
  }
  const ready = start().catch((e: unknown) => {
    set({ status: auth ? 'signed-out' : 'unavailable', error: e instanceof Error ? e.message : String(e) })
  })

  return {
    client,
    ready,
    state: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async signIn() {
      await ready
      if (!auth) {
        set({ ...state, error: 'Sign-in is not available: the server names no identity provider.' })
        return
      }
      pageStorage.setItem(RETURN_TO_KEY, location.hash)
      let started = false
      try {
        started = await auth.login()
      } catch (e) {
        set({ ...current(), error: `The identity provider could not be reached (${String(e)}).` })
        return
      }
      if (!started) {
        set({ ...current(), error: 'A sign-in was started moments ago: wait half a minute and try again.' })
      }
    },
    async signOut() {
      await ready
      if (!auth) return
      if (client.offline.online && (await client.offline.pending()).length > 0) {
        await client.offline.replay().catch(() => undefined)
      }
      auth.logout()
      // Saves still queued belong to the session that ended: they are not sent for anyone else.
      await clearQueue(queueStorage)
      set(current())
    },
    cloudDriver() {
      if (!signedIn()) return null
      driver ??= createSyncingCloudDriver(client, { signedIn })
      return driver
    },
    pendingSaves: async () => (await client.offline.pending()).length,
    close() {
      client.close()
      auth?.close()
      sessionStore.close()
      authChannel?.close()
    },
  }
}

/** The offline queue's storage: IndexedDB, so saves made offline survive a reload; memory without it. */
function defaultQueueStorage(): StateDriver {
  return typeof indexedDB === 'object'
    ? createIndexedDbDriver({ database: 'spkg-player-queue' })
    : createMemoryDriver()
}

async function clearQueue(storage: StateDriver) {
  for (const key of await storage.keys().catch(() => [] as string[])) {
    if (key.startsWith('spkg-queue/')) await storage.remove(key).catch(() => undefined)
  }
}
