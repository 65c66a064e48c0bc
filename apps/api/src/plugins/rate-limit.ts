/**
 * Two-tier throttling (SPEC: Limits / API rate limits): a burst tier `short` and a sustained tier `long` per route,
 * keyed by `sub` for authenticated callers and by IP otherwise.
 *
 * One `@fastify/rate-limit` registration cannot express two windows on one route nor name its headers per tier, so
 * each route gets one hook that calls two limiters made by `createRateLimit()`. The tier and the route are part of
 * the key: `createRateLimit()` child stores all share one prefix, and two limiters with the same key would
 * double-count in Redis. Tiers are checked in order; the first one exceeded answers 429 and the later ones are not
 * counted (as @nestjs/throttler does).
 *
 * Refused callers are callers too: on a route that authenticates, a request whose auth hook fails (bad, missing,
 * expired or revoked token: 401; valid token without the role: 403) is counted in that route's tiers before the
 * refusal is sent, keyed by IP when no valid token was shown (by `sub` on a 403). Over the limit the answer is 429
 * instead of the 401/403, so a flood of bad tokens from one address ends in 429s, not an endless stream of 401s.
 * Each request is counted once: either at the refusal or after a successful authentication (keyed by `sub`), so a
 * valid caller is never charged for the bad-token traffic of its IP address. On a public route a valid token, when
 * one is sent, keys the caller by `sub` as well; a missing or bad one leaves the caller anonymous (IP) and is not
 * refused there.
 *
 * Redis (`redisUrl`): counters shared by every instance. When Redis is unreachable the limiter FAILS OPEN: requests
 * pass unthrottled and without rate-limit headers (no offline queue, 500 ms connect timeout, `skipOnError`), an
 * error is logged at most once a minute, and counting resumes when Redis is back. Without Redis: in memory, per
 * instance.
 */
import { createRequire } from 'node:module'
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import { Redis } from 'ioredis'
import { AUTH_HOOK } from './auth/auth-plugin.ts'

/** One throttling tier: at most `max` requests per `ttl` ms. */
export interface ThrottleTier {
  name: string
  max: number
  ttl: number
}

/** The SPEC's table. `catalog-write` takes the strict end of the SPEC's 3-5 req/s and 10-20 req/min ranges. */
export const THROTTLES = {
  default: [
    { name: 'short', max: 10, ttl: 1000 },
    { name: 'long', max: 100, ttl: 60_000 },
  ],
  reports: [
    { name: 'short', max: 5, ttl: 60_000 },
    { name: 'long', max: 100, ttl: 60_000 },
  ],
  'catalog-read': [
    { name: 'short', max: 5, ttl: 1000 },
    { name: 'long', max: 30, ttl: 60_000 },
  ],
  'csp-report': [
    { name: 'short', max: 10, ttl: 1000 },
    { name: 'long', max: 100, ttl: 60_000 },
  ],
  'catalog-write': [
    { name: 'short', max: 3, ttl: 1000 },
    { name: 'long', max: 10, ttl: 60_000 },
  ],
  /**
   * CORS preflights (`OPTIONS`), by IP only (a preflight carries no token). Not in the SPEC's table: generous, since a
   * browser sends one per URL and method before caching it, and the callers behind one address share it; it stops a
   * flood (300 preflights in a quarter of a second were all answered before).
   */
  preflight: [
    { name: 'short', max: 50, ttl: 1000 },
    { name: 'long', max: 1000, ttl: 60_000 },
  ],
} as const satisfies Record<string, readonly ThrottleTier[]>

/** A named row of {@link THROTTLES}. */
export type ThrottleName = keyof typeof THROTTLES

/** What a route may put in `config.throttle`: a row name, its own tiers, or `false` (never throttled). */
export type ThrottleSetting = ThrottleName | readonly ThrottleTier[] | false

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Throttling of this route: a row of {@link THROTTLES}, its own tiers, or `false`; absent: the default. */
    throttle?: ThrottleSetting
  }
  interface FastifyInstance {
    /**
     * A hook applying the tiers of `setting` for handlers `onRoute` does not see: app.ts gives it to the 404
     * handler (`preHandler`). Use one such hook per handler: two with the same `id` would count twice in Redis.
     */
    throttleHook(setting?: ThrottleName | readonly ThrottleTier[], id?: string): onRequestHookHandler
    /** ioredis `status` of the limiter's Redis client (`ready` when usable); undefined without Redis (metrics). */
    rateLimitRedisStatus(): string | undefined
  }
}

/** Options of {@link rateLimitPlugin}. */
export interface RateLimitPluginOptions {
  /**
   * `redis://` URL; absent: in-memory counters (one instance). ioredis reads options from the query string, so
   * `redis://host:6379/0?keyPrefix=run-42:` isolates a test run.
   */
  redisUrl?: string | undefined
  /** A Redis client to use instead of `redisUrl` (the caller closes it; create it with `enableOfflineQueue: false`). */
  redis?: Redis | undefined
  /** Key prefix in Redis (tests use one per run). @default 'spkg:rl:' */
  nameSpace?: string
  /** Multiplies every `max` (benchmarks only). @default 1 */
  maxFactor?: number
}

/** The Redis store of @fastify/rate-limit (its Lua counter script), which the package does not export by name. */
type RedisStoreCtor = new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  redis: Redis,
  prefix: string,
) => FastifyRateLimitStore & { read?: FastifyRateLimitStore['incr'] }
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as RedisStoreCtor

/**
 * A Redis store whose every key is `<prefix><limiter key>` (`spkg:rl:short|GET /api/stories|u:alice`). The package's
 * own store adds `<method><url>-` of the route to the prefix of each child store, and `createRateLimit()` children
 * have no route, so every key read `spkg:rl:undefinedundefined-short|...`; the route and the tier are in our keys.
 */
export function prefixedRedisStore(redis: Redis, prefix: string): FastifyRateLimitStoreCtor {
  type Params = { continueExceeding?: boolean; exponentialBackoff?: boolean }
  class PrefixedRedisStore {
    readonly #inner: InstanceType<RedisStoreCtor>
    constructor(params: Params) {
      this.#inner = new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, prefix)
    }
    incr(...args: Parameters<FastifyRateLimitStore['incr']>): void {
      this.#inner.incr(...args)
    }
    read(...args: Parameters<FastifyRateLimitStore['incr']>): void {
      this.#inner.read?.(...args)
    }
    child(params: Params): PrefixedRedisStore {
      return new PrefixedRedisStore(params)
    }
  }
  return PrefixedRedisStore as unknown as FastifyRateLimitStoreCtor
}

const tooManyRequests = (tier: string) =>
  Object.assign(new Error(`ThrottlerException: Too Many Requests (${tier})`), {
    statusCode: 429,
    code: 'THROTTLED',
  })

const identity = (req: FastifyRequest) => (req.user?.sub ? `u:${req.user.sub}` : `ip:${req.ip}`)

const isAuthHook = (h: unknown) => typeof h === 'function' && (h as never)[AUTH_HOOK] === true
const hooksOf = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])

/** Set on a request once a route limiter has counted it (a refused request must not be counted again). */
const COUNTED: unique symbol = Symbol('spkg.rate-limit.counted')
type Counted = FastifyRequest & { [COUNTED]?: true }

type RouteHook = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<void>

/**
 * Wraps an auth hook so that a refused request is counted by `limit` (IP-keyed unless a valid token set
 * `request.user`) before the refusal leaves; `limit` throws the 429 when the caller is over a tier.
 */
function countRefusals(authHook: RouteHook, limit: RouteHook): RouteHook {
  const guarded: RouteHook = async function (this: FastifyInstance, request, reply) {
    try {
      await authHook.call(this, request, reply)
    } catch (err) {
      await limit.call(this, request, reply)
      throw err
    }
  }
  Object.defineProperty(guarded, AUTH_HOOK, { value: true })
  return guarded
}

async function limits(app: FastifyInstance, opts: RateLimitPluginOptions): Promise<void> {
  const factor = opts.maxFactor ?? 1
  let redis: Redis | undefined = opts.redis
  if (!redis && opts.redisUrl) {
    redis = new Redis(opts.redisUrl, {
      connectTimeout: 500,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
    })
    let lastLogged = 0
    redis.on('error', (err: Error & { code?: string }) => {
      if (Date.now() - lastLogged < 60_000) return
      lastLogged = Date.now()
      app.log.error({ code: err.code }, 'rate-limit Redis unreachable: requests pass unthrottled (fail-open)')
    })
    await redis.connect().catch((err: Error & { code?: string }) => {
      app.log.error(
        { code: err.code },
        'rate-limit Redis not reachable at start-up: failing open until it is',
      )
    })
    const client = redis
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect())
    })
  }
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(redis && { store: prefixedRedisStore(redis, opts.nameSpace ?? 'spkg:rl:') }),
  })

  const makeHook = (tiers: readonly ThrottleTier[], id: string) => {
    const checks = tiers.map((t) => ({
      name: t.name,
      check: app.createRateLimit({
        max: t.max * factor,
        timeWindow: t.ttl,
        keyGenerator: (req) => `${t.name}|${id}|${identity(req)}`,
      }),
    }))
    const hook = async (request: FastifyRequest, reply: FastifyReply) => {
      if ((request as Counted)[COUNTED]) return
      ;(request as Counted)[COUNTED] = true
      for (const t of checks) {
        const r = await t.check(request)
        if (r.isAllowed || r.ttl === 0) continue // allow-listed, or the store failed (fail-open): no headers
        reply
          .header(`X-RateLimit-Limit-${t.name}`, r.max)
          .header(`X-RateLimit-Remaining-${t.name}`, r.remaining)
          .header(`X-RateLimit-Reset-${t.name}`, r.ttlInSeconds)
        if (r.isExceeded) {
          reply.header('Retry-After', r.ttlInSeconds).header(`Retry-After-${t.name}`, r.ttlInSeconds)
          throw tooManyRequests(t.name)
        }
      }
    }
    return hook
  }

  const tiersOf = (setting: ThrottleName | readonly ThrottleTier[] | undefined): readonly ThrottleTier[] => {
    if (setting === undefined) return THROTTLES.default
    if (typeof setting === 'string') {
      const row = THROTTLES[setting]
      if (!row) throw new Error(`Unknown throttle "${setting}"`)
      return row
    }
    return setting
  }

  const statusOf = redis
  app.decorate('rateLimitRedisStatus', () => statusOf?.status)
  app.decorate('throttleHook', (setting?: ThrottleName | readonly ThrottleTier[], id = 'not-found') =>
    makeHook(tiersOf(setting), id),
  )

  // Public routes: a caller who sends a valid token is an authenticated user and is keyed by `sub` (SPEC), so
  // the token is verified when one is sent; a missing or refused token leaves the caller anonymous (IP-keyed) and
  // the public route answers as usual. Only with the real auth plugin (its hook is marked).
  const decorated = (app as unknown as { authenticate?: unknown }).authenticate
  const authenticate = isAuthHook(decorated) ? (decorated as RouteHook) : undefined
  const optionalAuth: RouteHook = async function (this: FastifyInstance, request, reply) {
    if (request.headers.authorization === undefined || !authenticate) return
    try {
      await authenticate.call(this, request, reply)
    } catch {
      request.user = undefined as never
    }
  }

  // Preflights: the CORS plugin's `OPTIONS *` route exists before this plugin (so `onRoute` never sees it) and its
  // hook answers in onRequest. It lets the request continue (`preflightContinue`, security plugin), so this hook
  // counts every OPTIONS request by IP (a preflight carries no token) before the preflight is answered.
  const preflight = makeHook(THROTTLES.preflight, 'OPTIONS *')
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') await preflight(request, reply)
  })

  // One limiter per route and tier set, shared by the GET route and the HEAD route Fastify adds for it: HEAD runs the
  // GET handler, so it is counted under its GET (own counters would double every GET route's limits).
  const routeHooks = new Map<string, ReturnType<typeof makeHook>>()
  app.addHook('onRoute', (route: RouteOptions) => {
    const setting = route.config?.throttle
    if (setting === false || route.method === 'OPTIONS') return
    const methods = [...new Set(hooksOf(route.method).map((m) => (m === 'HEAD' ? 'GET' : String(m))))]
    const id = `${methods.join(',')} ${route.url}`
    const tiers = tiersOf(setting)
    const shared = `${id}\n${JSON.stringify(tiers)}`
    const hook = routeHooks.get(shared) ?? makeHook(tiers, id)
    routeHooks.set(shared, hook)
    // A refused request is counted (IP-keyed) before its 401/403 leaves: each auth hook of the route is wrapped.
    for (const p of ['onRequest', 'preValidation', 'preHandler'] as const) {
      if (hooksOf(route[p]).some(isAuthHook)) {
        route[p] = hooksOf(route[p]).map((h) =>
          isAuthHook(h) ? countRefusals(h as RouteHook, hook as RouteHook) : h,
        ) as never
      }
    }
    // Run after authentication so that callers are keyed by `sub`: in the phase where the route authenticates,
    // else in onRequest (context-level onRequest hooks, such as an app-wide authenticate, run before it anyway).
    const phase = (['preHandler', 'preValidation'] as const).find((p) => hooksOf(route[p]).some(isAuthHook))
    if (phase) route[phase] = [...hooksOf(route[phase]), hook] as never
    else if (hooksOf(route.onRequest).some(isAuthHook) || !authenticate)
      route.onRequest = [...hooksOf(route.onRequest), hook] as never
    else route.onRequest = [...hooksOf(route.onRequest), optionalAuth, hook] as never
  })
}

/**
 * The two-tier throttling plugin. Register after `authPlugin` and before the routes; a route sets
 * `config: { throttle: 'reports' | 'catalog-read' | 'csp-report' | 'catalog-write' | false }`.
 *
 * @example
 * await app.register(rateLimitPlugin, { redisUrl: config.redisUrl })
 * app.get('/api/health', { config: { throttle: false } }, () => ({ ok: true }))
 */
export const rateLimitPlugin = fp(limits, { name: 'spkg-rate-limit', fastify: '5.x' })
