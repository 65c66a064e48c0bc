/**
 * @spkg/client/auth: sign-in at the identity provider with the authorisation-code flow and PKCE S256 (through
 * `oauth4webapi`; never the implicit flow), tokens in `sessionStorage`, refresh with rotation before expiry (one
 * refresh in flight, across tabs through the Web Lock `spkg-client-refresh`), loop protection, and logout across
 * tabs through the `BroadcastChannel` `spkg-client`.
 *
 * Why a record in IndexedDB too: a tab waiting for the refresh lock can be granted it before the refreshing tab's
 * `BroadcastChannel` message reaches it (the two travel separately), and would then spend the rotated refresh token a
 * second time, which the provider treats as a replay. IndexedDB is consistent across tabs, so the refreshing tab
 * records a fingerprint of the token it spent before releasing the lock, and a tab finding its own token there waits
 * for the message instead of refreshing.
 */
import * as oauth from 'oauth4webapi'
import type { ApiClient } from './client'
import { TOKEN_STORAGE_KEY } from './client'
import { emit } from './events'

/** The tokens of a session. */
export interface TokenSet {
  accessToken: string
  refreshToken?: string
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number
}

/** Where the session is kept: `sessionStorage`, or anything with its three methods. */
export interface SessionStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** Options of {@link createAuth}. */
export interface AuthOptions {
  /** The identity provider's issuer URL. */
  issuer: string | URL
  /** The public client id (`spkg-web`). */
  clientId: string
  /** Where the provider sends the browser back (the app's callback page). */
  redirectUri: string
  /** Scopes. @default 'openid offline_access' */
  scope?: string
  /** Extra authorisation parameters (`resource`, `audience`, ...). */
  extraParams?: Record<string, string>
  /** Session storage. @default globalThis.sessionStorage */
  storage?: SessionStore
  /** Goes to the provider's login page. @default location.assign */
  navigate?: (url: string) => void
  /** The current page address (to recognise the callback page). @default location.href */
  currentUrl?: () => string
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** @default Date.now */
  now?: () => number
  /** Refresh this long before expiry (ms). @default 60_000 */
  refreshBeforeMs?: number
  /** No second login redirect within this window (ms). @default 30_000 */
  loopWindowMs?: number
  /** Allow an `http:` issuer (development provider on loopback). @default false */
  allowHttp?: boolean
}

/** A sign-in session (see {@link createAuth}). */
export interface Auth {
  /** The access token, refreshed first when it expires within `refreshBeforeMs`; undefined when signed out. */
  getToken(): Promise<string | undefined>
  /** Starts the login (navigates); false when loop protection held it back. */
  login(): Promise<boolean>
  /** On the callback page: exchanges the code for tokens (checks state and PKCE). */
  handleCallback(url: string | URL): Promise<TokenSet>
  /** Refreshes now (rotation: the new refresh token replaces the old); one refresh at a time. */
  refresh(): Promise<TokenSet | undefined>
  /** Ends the session here and in the other tabs. */
  logout(): void
  /**
   * Sends the `auth-required` events of `client` to {@link Auth.login} and gives it `logout` events (create the
   * client with `getToken: auth.getToken`).
   */
  attach(client: ApiClient): void
  /** The stored tokens. */
  tokens(): TokenSet | undefined
  close(): void
}

const KEYS = {
  tokens: 'spkg.tokens',
  pkce: 'spkg.pkce',
  lastLogin: 'spkg.last-login',
} as const

type Locks = { request<T>(name: string, cb: () => Promise<T>): Promise<T> }

/** How long a tab waits for the new tokens of a refresh another tab made. */
const ADOPT_TIMEOUT_MS = 5_000

/** The fingerprint (SHA-256, hex) of the last refresh token spent in this origin, kept in IndexedDB. */
function openSpentRecord(idb: IDBFactory) {
  let db: Promise<IDBDatabase> | undefined
  const open = () => {
    db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = idb.open('spkg-client-auth', 1)
      req.onupgradeneeded = () => req.result.createObjectStore('spent')
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    return db
  }
  const run = async (mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest) => {
    const tx = (await open()).transaction('spent', mode)
    const req = op(tx.objectStore('spent'))
    return new Promise<unknown>((resolve, reject) => {
      tx.oncomplete = () => resolve(req.result)
      tx.onerror = tx.onabort = () => reject(tx.error)
    })
  }
  // Best effort: without IndexedDB or WebCrypto (a non-secure context) a tab refreshes as if it were alone.
  return {
    /** Records `token` as spent. */
    mark: async (token: string) => {
      const f = await fingerprint(token).catch(() => undefined)
      if (f) await run('readwrite', (s) => s.put(f, 'last')).catch(() => undefined)
    },
    /** Whether `token` is the last one spent. */
    holds: async (token: string) => {
      const [last, f] = await Promise.all([
        run('readonly', (s) => s.get('last')).catch(() => undefined),
        fingerprint(token).catch(() => undefined),
      ])
      return f !== undefined && last === f
    },
  }
}

async function fingerprint(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Creates a sign-in session. */
export function createAuth(options: AuthOptions): Auth {
  const g = globalThis as unknown as {
    sessionStorage?: SessionStore
    location?: { assign(u: string): void; href: string }
    navigator?: { locks?: Locks }
    BroadcastChannel?: typeof BroadcastChannel
    indexedDB?: IDBFactory
  }
  const storage = options.storage ?? g.sessionStorage
  if (!storage) throw new TypeError('createAuth needs a storage (sessionStorage in a browser)')
  const now = options.now ?? Date.now
  const navigate = options.navigate ?? ((u: string) => g.location?.assign(u))
  const currentUrl = options.currentUrl ?? (() => g.location?.href ?? '')
  const refreshBefore = options.refreshBeforeMs ?? 60_000
  const loopWindow = options.loopWindowMs ?? 30_000
  const issuer = new URL(String(options.issuer))
  const client: oauth.Client = { client_id: options.clientId }
  const http = {
    ...(options.fetch && { [oauth.customFetch]: options.fetch }),
    ...(options.allowHttp && { [oauth.allowInsecureRequests]: true }),
  }
  let server: Promise<oauth.AuthorizationServer> | undefined
  const discover = () => {
    server ??= oauth
      .discoveryRequest(issuer, http)
      .then((res) => oauth.processDiscoveryResponse(issuer, res))
      .catch((e: unknown) => {
        server = undefined
        throw e
      })
    return server
  }

  const channel = g.BroadcastChannel ? new g.BroadcastChannel('spkg-client') : undefined
  const attached: ApiClient[] = []
  const read = (): TokenSet | undefined => {
    try {
      const raw = storage.getItem(KEYS.tokens)
      return raw ? (JSON.parse(raw) as TokenSet) : undefined
    } catch {
      return undefined
    }
  }
  const write = (t: TokenSet | undefined, announce: boolean) => {
    if (t) {
      storage.setItem(KEYS.tokens, JSON.stringify(t))
      storage.setItem(TOKEN_STORAGE_KEY, t.accessToken)
    } else {
      storage.removeItem(KEYS.tokens)
      storage.removeItem(TOKEN_STORAGE_KEY)
    }
    if (announce) channel?.postMessage(t ? { type: 'tokens', tokens: t } : { type: 'logout' })
  }
  const endSession = () => {
    write(undefined, false)
    for (const c of attached) emit(c.events, 'logout', { status: 0, method: '', path: '' })
  }
  if (channel) {
    channel.onmessage = (e: MessageEvent) => {
      const m = e.data as { type?: string; tokens?: TokenSet }
      if (m?.type === 'logout') endSession()
      else if (m?.type === 'tokens' && m.tokens) {
        write(m.tokens, false)
        for (const w of [...adopters]) w()
      }
    }
  }
  const spent = g.navigator?.locks && g.indexedDB ? openSpentRecord(g.indexedDB) : undefined
  const adopters = new Set<() => void>()
  /** Waits (bounded) until another tab's new tokens replace the refresh token `old`; undefined on timeout. */
  const adopt = (old: string) =>
    new Promise<TokenSet | undefined>((resolve) => {
      const done = (t: TokenSet | undefined) => {
        clearTimeout(timer)
        adopters.delete(check)
        resolve(t)
      }
      const check = () => {
        const t = read()
        if (t?.refreshToken !== old) done(t)
      }
      const timer = setTimeout(() => done(undefined), ADOPT_TIMEOUT_MS)
      adopters.add(check)
      check()
    })

  const toSet = (r: oauth.TokenEndpointResponse, previous?: TokenSet): TokenSet => ({
    accessToken: r.access_token,
    ...((r.refresh_token ?? previous?.refreshToken) && {
      refreshToken: r.refresh_token ?? previous?.refreshToken,
    }),
    expiresAt: now() + (r.expires_in ?? 900) * 1000,
  })

  let inFlight: Promise<TokenSet | undefined> | undefined
  async function doRefresh(): Promise<TokenSet | undefined> {
    const before = read()
    if (!before?.refreshToken) return undefined
    const as = await discover()
    const res = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), before.refreshToken, http)
    const next = toSet(await oauth.processRefreshTokenResponse(as, client, res), before)
    write(next, true)
    // Before the lock is released: a tab granted it next finds the token it holds marked as spent.
    await spent?.mark(before.refreshToken)
    return next
  }
  const refresh = (): Promise<TokenSet | undefined> => {
    inFlight ??= (async () => {
      const locks = g.navigator?.locks
      const started = read()?.refreshToken
      // Across tabs: one refresh at a time; a tab that waited finds the rotated tokens another tab stored.
      return locks
        ? locks.request('spkg-client-refresh', async () => {
            const current = read()
            if (current?.refreshToken !== started) return current
            return started && (await spent?.holds(started)) ? adopt(started) : doRefresh()
          })
        : doRefresh()
    })().finally(() => {
      inFlight = undefined
    })
    return inFlight
  }

  const auth: Auth = {
    tokens: read,
    async getToken() {
      const t = read()
      if (!t) return undefined
      if (t.expiresAt - now() > refreshBefore) return t.accessToken
      try {
        return (await refresh())?.accessToken ?? (t.expiresAt > now() ? t.accessToken : undefined)
      } catch {
        return t.expiresAt > now() ? t.accessToken : undefined
      }
    },
    async login() {
      // Loop protection: never from the callback page, never twice within the window.
      const here = currentUrl()
      if (here && new URL(here).pathname === new URL(options.redirectUri).pathname) return false
      const last = Number(storage.getItem(KEYS.lastLogin) ?? 0)
      if (now() - last < loopWindow) return false
      storage.setItem(KEYS.lastLogin, String(now()))
      const as = await discover()
      const verifier = oauth.generateRandomCodeVerifier()
      const state = oauth.generateRandomState()
      storage.setItem(KEYS.pkce, JSON.stringify({ verifier, state }))
      const url = new URL(as.authorization_endpoint ?? `${issuer.href.replace(/\/$/, '')}/auth`)
      url.searchParams.set('client_id', options.clientId)
      url.searchParams.set('redirect_uri', options.redirectUri)
      url.searchParams.set('response_type', 'code')
      url.searchParams.set('scope', options.scope ?? 'openid offline_access')
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier))
      url.searchParams.set('code_challenge_method', 'S256')
      url.searchParams.set('state', state)
      if ((options.scope ?? 'openid offline_access').includes('offline_access')) {
        url.searchParams.set('prompt', 'consent')
      }
      for (const [k, v] of Object.entries(options.extraParams ?? {})) url.searchParams.set(k, v)
      navigate(url.href)
      return true
    },
    async handleCallback(callbackUrl) {
      const saved = JSON.parse(storage.getItem(KEYS.pkce) ?? 'null') as {
        verifier: string
        state: string
      } | null
      if (!saved) throw new Error('no login in progress (no PKCE verifier stored)')
      const as = await discover()
      const params = oauth.validateAuthResponse(as, client, new URL(String(callbackUrl)), saved.state)
      const res = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        options.redirectUri,
        saved.verifier,
        http,
      )
      const tokens = toSet(await oauth.processAuthorizationCodeResponse(as, client, res))
      storage.removeItem(KEYS.pkce)
      storage.removeItem(KEYS.lastLogin)
      write(tokens, true)
      return tokens
    },
    refresh,
    logout() {
      endSession()
      channel?.postMessage({ type: 'logout' })
    },
    attach(c) {
      attached.push(c)
      c.events.addEventListener('auth-required', () => {
        void auth.login().catch(() => undefined)
      })
    },
    close() {
      channel?.close()
    },
  }
  return auth
}
