/**
 * The identity provider's signing keys: OIDC discovery of the configured issuer, then get-jwks for the key set,
 * wrapped so that no token can steer or amplify key fetching.
 *
 * Why the wrapper: get-jwks has no fetch budget and no negative cache (every unknown `kid` is a fresh fetch), its
 * `timeout` option is ignored by global `fetch`, and it converts JWK to PEM on every call. Here: the key-set
 * address comes only from the configured issuer's discovery document; at most `budget.max` outbound requests per
 * `budget.windowMs` (5 per minute by default, discovery included) whatever the traffic; an undici dispatcher with
 * real connect/headers/body timeouts; each key converted once. `state()` reports what happened without fetching.
 */
import { createPublicKey } from 'node:crypto'
import buildGetJwks from 'get-jwks'
import { Agent } from 'undici'

/** Discovery status as last recorded. */
export interface DiscoveryState {
  status: 'pending' | 'ok' | 'failed'
  /** `jwks_uri` from the discovery document (present once loaded). */
  jwksUri?: string
  loadedAt?: string
  lastAttemptAt?: string
  error?: string
}

/** What the key cache recorded about outbound key-set requests. */
export interface KeySetState {
  lastFetchAt?: string
  lastFetchOk?: boolean
  lastError?: string
  /** Outbound requests (discovery and key set) inside the current budget window. */
  requestsInWindow: number
  budget: { max: number; windowMs: number }
  /** Last time a request was refused because the budget was spent. */
  budgetExhaustedAt?: string
  /** Keys currently usable from the cache. */
  cachedKeys: number
}

/** The state `/api/health/auth` shows; reading it never fetches. */
export interface AuthState {
  issuer: string
  /** False when discovery never loaded, or the last key-set fetch failed with no key cached. */
  healthy: boolean
  discovery: DiscoveryState
  keySet: KeySetState
}

/** Options of {@link createKeyStore}. */
export interface KeyStoreOptions {
  /** The configured issuer (no trailing slash). */
  issuer: string
  /** Timeout of every outbound request (connect, headers, body), ms. @default 5000 */
  fetchTimeoutMs?: number
  /** Outbound request budget. @default { max: 5, windowMs: 60000 } */
  budget?: { max: number; windowMs: number }
  /** How long a fetched key stays fresh, ms (then it is served stale while a refetch fails). @default 600000 */
  ttlMs?: number
  /** Clock, for tests. @default Date.now */
  now?: () => number
}

/** Why a key could not be supplied; `status` 503 when the provider was never reachable, 401 otherwise. */
export class KeyLookupError extends Error {
  readonly statusCode: number
  readonly code: string
  constructor(statusCode: number, code: string, message: string) {
    super(message)
    this.name = 'KeyLookupError'
    this.statusCode = statusCode
    this.code = code
  }
}

/** A key store bound to one issuer. */
export interface KeyStore {
  /** Loads the discovery document (inside the budget); resolves even on failure, see `state()`. */
  discover(): Promise<void>
  /** The PEM public key for a token header; throws {@link KeyLookupError}. */
  getKey(alg: unknown, kid: unknown): Promise<string>
  /** A snapshot of discovery and key-set state (never fetches). */
  state(): AuthState
  /** Closes the HTTP dispatcher. */
  close(): Promise<void>
}

type GetJwks = ReturnType<typeof buildGetJwks>

/** get-jwks' caches are lru-cache instances; its typings omit `has` and `size`. */
type LruView = {
  has(key: string): boolean
  peek(key: string, options: { allowStale: boolean }): unknown
  size: number
}
const lru = (cache: unknown) => cache as LruView

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString())

/** Creates a sliding-window budget: `take(cost)` is false when `cost` more requests would exceed `max`. */
export function createRequestBudget(max: number, windowMs: number, now: () => number = Date.now) {
  const stamps: number[] = []
  const prune = () => {
    const from = now() - windowMs
    while (stamps.length > 0 && (stamps[0] as number) <= from) stamps.shift()
  }
  return {
    take(cost = 1): boolean {
      prune()
      if (stamps.length + cost > max) return false
      for (let i = 0; i < cost; i++) stamps.push(now())
      return true
    },
    used(): number {
      prune()
      return stamps.length
    },
  }
}

/**
 * Creates the key store of one issuer.
 *
 * @example
 * const keys = createKeyStore({ issuer: 'https://id.example.org' })
 * await keys.discover()
 * const pem = await keys.getKey('RS256', 'key-1')
 */
export function createKeyStore(options: KeyStoreOptions): KeyStore {
  const issuer = options.issuer.replace(/\/+$/, '')
  const prefix = `${issuer}/`
  const timeout = options.fetchTimeoutMs ?? 5000
  const budgetCfg = options.budget ?? { max: 5, windowMs: 60_000 }
  const now = options.now ?? Date.now
  const budget = createRequestBudget(budgetCfg.max, budgetCfg.windowMs, now)
  const dispatcher = new Agent({ headersTimeout: timeout, bodyTimeout: timeout, connect: { timeout } })
  const fetchOptions = { dispatcher } as unknown as RequestInit

  const discovery: DiscoveryState = { status: 'pending' }
  const keySet: { lastFetchAt?: number; lastFetchOk?: boolean; lastError?: string; exhaustedAt?: number } = {}
  let jwks: GetJwks | undefined
  let sameTree = true
  let discovering: Promise<void> | undefined
  const pemByJwk = new WeakMap<object, string>()
  const pendingLookups = new Map<string, Promise<string>>()

  async function load(): Promise<void> {
    if (!budget.take(1)) {
      keySet.exhaustedAt = now()
      return
    }
    discovery.lastAttemptAt = new Date(now()).toISOString()
    try {
      const response = await fetch(`${issuer}/.well-known/openid-configuration`, {
        ...fetchOptions,
        signal: AbortSignal.timeout(timeout),
        redirect: 'error',
      })
      if (!response.ok) throw new Error(`discovery answered HTTP ${response.status}`)
      const doc = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown }
      if (doc.issuer !== issuer) throw new Error('discovery document names another issuer')
      if (typeof doc.jwks_uri !== 'string' || !URL.canParse(doc.jwks_uri))
        throw new Error('no valid jwks_uri')
      const jwksUrl = new URL(doc.jwks_uri)
      if (jwksUrl.protocol !== 'https:' && !(jwksUrl.protocol === 'http:' && issuer.startsWith('http:'))) {
        throw new Error('jwks_uri must be https')
      }
      sameTree = doc.jwks_uri.startsWith(prefix)
      jwks = buildGetJwks({
        issuersWhitelist: [issuer],
        ...(sameTree ? { jwksPath: doc.jwks_uri.slice(prefix.length) } : { providerDiscovery: true }),
        ttl: options.ttlMs ?? 600_000,
        max: 50,
        fetchOptions: fetchOptions as never,
      })
      discovery.status = 'ok'
      discovery.jwksUri = doc.jwks_uri
      discovery.loadedAt = new Date(now()).toISOString()
      delete discovery.error
    } catch (err) {
      discovery.status = discovery.status === 'ok' ? 'ok' : 'failed'
      discovery.error = describe(err)
    }
  }

  function discover(): Promise<void> {
    if (jwks) return Promise.resolve()
    discovering ??= load().finally(() => {
      discovering = undefined
    })
    return discovering
  }

  async function getKey(alg: unknown, kid: unknown): Promise<string> {
    if (alg !== 'RS256') throw new KeyLookupError(401, 'AUTH_ALG_NOT_ALLOWED', 'Invalid token')
    if (typeof kid !== 'string' || kid.length === 0 || kid.length > 200) {
      throw new KeyLookupError(401, 'AUTH_NO_KID', 'Invalid token')
    }
    if (!jwks) await discover()
    if (!jwks) throw new KeyLookupError(503, 'AUTH_UNAVAILABLE', 'Authentication is temporarily unavailable')
    const cacheKey = jwks.generateCacheKey(alg, kid, prefix)
    if (lru(jwks.cache).has(cacheKey)) return resolveKey(jwks, alg, kid, cacheKey, true)
    // A miss: concurrent requests for the same key share one lookup (and one budget slot); without
    // this, a burst on a fresh instance spends the budget before the first fetch is under way.
    let lookup = pendingLookups.get(cacheKey)
    if (!lookup) {
      lookup = resolveKey(jwks, alg, kid, cacheKey, false).finally(() => pendingLookups.delete(cacheKey))
      pendingLookups.set(cacheKey, lookup)
    }
    return lookup
  }

  async function resolveKey(
    jwks: GetJwks,
    alg: 'RS256',
    kid: string,
    cacheKey: string,
    cached: boolean,
  ): Promise<string> {
    let stale: unknown
    if (!cached) {
      if (!budget.take(sameTree ? 1 : 2)) {
        keySet.exhaustedAt = now()
        throw new KeyLookupError(401, 'AUTH_UNKNOWN_KEY', 'Invalid token')
      }
      keySet.lastFetchAt = now()
      // An expired entry is still in the main cache until get-jwks touches it (then it moves to the stale cache).
      const previous = lru(jwks.cache).peek(cacheKey, { allowStale: true }) ?? jwks.staleCache.get(cacheKey)
      stale = await (previous as Promise<unknown> | undefined)?.catch(() => undefined)
    }
    let jwk: Record<string, unknown>
    try {
      jwk = (await jwks.getJwk({ domain: prefix, alg, kid })) as Record<string, unknown>
    } catch (err) {
      if (!cached) {
        const answered = (err as { code?: string }).code === 'JWK_NOT_FOUND'
        keySet.lastFetchOk = answered
        if (answered) delete keySet.lastError
        else keySet.lastError = describe(err)
      }
      throw new KeyLookupError(401, 'AUTH_UNKNOWN_KEY', 'Invalid token')
    }
    if (!cached) {
      keySet.lastFetchOk = stale === undefined || jwk !== stale
      if (keySet.lastFetchOk) delete keySet.lastError
      else keySet.lastError = 'key-set fetch failed; serving the cached key'
    }
    let pem = pemByJwk.get(jwk)
    if (!pem) {
      if (jwk.kty !== 'RSA') throw new KeyLookupError(401, 'AUTH_UNKNOWN_KEY', 'Invalid token')
      pem = createPublicKey({ key: jwk as never, format: 'jwk' }).export({
        type: 'spki',
        format: 'pem',
      }) as string
      pemByJwk.set(jwk, pem)
    }
    return pem
  }

  function state(): AuthState {
    const cachedKeys = jwks ? lru(jwks.cache).size : 0
    const fetchBroken = keySet.lastFetchOk === false && cachedKeys === 0
    return {
      issuer,
      healthy: discovery.status === 'ok' && !fetchBroken,
      discovery: { ...discovery },
      keySet: {
        ...(keySet.lastFetchAt !== undefined && { lastFetchAt: iso(keySet.lastFetchAt) }),
        ...(keySet.lastFetchOk !== undefined && { lastFetchOk: keySet.lastFetchOk }),
        ...(keySet.lastError !== undefined && { lastError: keySet.lastError }),
        requestsInWindow: budget.used(),
        budget: { ...budgetCfg },
        ...(keySet.exhaustedAt !== undefined && { budgetExhaustedAt: iso(keySet.exhaustedAt) }),
        cachedKeys,
      },
    }
  }

  return { discover, getKey, state, close: () => dispatcher.close() }
}

/** A short, host-free description of a fetch failure (no URLs, no stack). */
function describe(err: unknown): string {
  const e = err as { name?: string; code?: string; cause?: { code?: string }; message?: string }
  const code = e.cause?.code ?? e.code
  if (code) return String(code).slice(0, 80)
  if (e.name === 'TimeoutError') return 'timeout'
  return (e.message ?? 'fetch failed').replace(/https?:\/\/\S+/g, '<url>').slice(0, 120)
}
