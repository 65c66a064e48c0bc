/**
 * Authentication and roles (SPEC: Authentication). Bearer tokens only, RS256 only, keys from the configured
 * issuer's discovery document (see key-store.ts), `sub`/`exp`/`iss`/`aud` required, revoked sessions refused.
 *
 * Decorates `app.authenticate` (a hook: use it as `onRequest` or `preHandler`), `app.requireRole(...roles)`,
 * `app.authState()` and `app.recordAuthEvent()`; sets `request.user = { sub, roles, sid }`; serves
 * `GET /api/auth/sessions`, `DELETE /api/auth/sessions/:id` and `GET /api/auth/events`.
 */
import fastifyJwt from '@fastify/jwt'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { isCleanString } from '../../input'
import { type AuthUser, hasRole, type Role } from '../../roles'
import { registerAuthRoutes } from './auth-routes.ts'
import { type AuthState, createKeyStore, KeyLookupError, type KeyStoreOptions } from './key-store.ts'
import {
  type AuthDb,
  type AuthEventKind,
  insertAuthEvent,
  purgeAuthEvents,
  revokeSession,
  revokesByIssueTime,
  sessionKey,
  touchSession,
} from './store.ts'

export type { AuthState } from './key-store.ts'
export { createKeyStore, createRequestBudget, KeyLookupError } from './key-store.ts'
export type { AuthDb, AuthEventKind, AuthEventRow, SessionRow } from './store.ts'
export { purgeAuthEvents } from './store.ts'

/** A request hook produced by the auth plugin. */
export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

/** Marks the hooks of this plugin, so that the rate-limit plugin can run its limiters after them. */
export const AUTH_HOOK: unique symbol = Symbol.for('spkg.auth-hook')

declare module 'fastify' {
  interface FastifyInstance {
    /** Verifies the bearer token and sets `request.user`; 401 (or 503 while the provider was never reachable). */
    authenticate: AuthHook
    /** A hook that authenticates if needed, then requires one of `roles` (403 otherwise). */
    requireRole(...roles: Role[]): AuthHook
    /** Discovery status and last key-set fetch as recorded; never fetches. */
    authState(): AuthState
    /** Records an auth event (no personal data in `detail`); never throws, never waits. */
    recordAuthEvent(kind: AuthEventKind, sessionId?: string | null, detail?: Record<string, unknown>): void
    /** Resolves when every pending auth-event write has finished (tests, shutdown). */
    flushAuthEvents(): Promise<void>
    /**
     * Revokes a session (database and this instance's cache) and records the event. Its tokens issued up to now are
     * refused; later ones too when the session is one login (`sid` or `auth_time`, see `revokesByIssueTime`).
     */
    revokeAuthSession(id: string, by: 'owner' | 'admin'): Promise<void>
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: Record<string, unknown>
    user: AuthUser
  }
}

/** Options of {@link authPlugin}; structurally a subset of `Config` plus the database. */
export interface AuthOptions {
  oidc: { issuer: string | undefined; audience: string; rolesClaim: string }
  db: AuthDb
  authEventsRetentionDays: number
  /** Overrides for the key store (timeouts, budget), mostly for tests. */
  keys?: Omit<KeyStoreOptions, 'issuer'>
  /** How long a session's revocation state is trusted before the database is asked again, ms. @default 5000 */
  sessionRecheckMs?: number
  /** Interval of the retention job, ms; 0 disables the timer. @default 3600000 */
  retentionIntervalMs?: number
  /** At most this many `token_refused` events are written per minute by one instance. @default 30 */
  refusedEventsPerMinute?: number
  /**
   * Register `/api/auth/sessions` and `/api/auth/events` here. The API passes false and registers
   * {@link authRoutes} after @fastify/swagger, so that the routes appear in the OpenAPI description. @default true
   */
  routes?: boolean
}

/** An error carrying the HTTP status and stable code the API error handler sends. */
export function httpError(statusCode: number, code: string, message: string): Error {
  return Object.assign(new Error(message), { statusCode, code })
}

/** Reads a claim by its configured path: the whole name first (`https://x.example/roles`), else a dot path. */
export function readRoles(payload: Record<string, unknown>, path: string): string[] {
  let value: unknown = payload[path]
  if (value === undefined) {
    value = payload
    for (const part of path.split('.')) {
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined
    }
  }
  return Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string').slice(0, 50) : []
}

const REFUSALS: Record<string, [string, string]> = {
  FST_JWT_NO_AUTHORIZATION_IN_HEADER: ['AUTH_MISSING_TOKEN', 'Missing bearer token'],
  FST_JWT_BAD_REQUEST: ['AUTH_MALFORMED_HEADER', 'Malformed authorization header'],
  FST_JWT_AUTHORIZATION_TOKEN_EXPIRED: ['AUTH_TOKEN_EXPIRED', 'Token expired'],
}

/**
 * Whether a token of a revoked session was issued after the revocation and so is accepted: only for sessions revoked
 * by issue time, and only with an `iat` (whole seconds: a token issued in the second of the revocation is refused).
 */
function issuedAfter(payload: Record<string, unknown>, revokedAt: number, byIssueTime: boolean): boolean {
  return byIssueTime && typeof payload.iat === 'number' && payload.iat * 1000 > revokedAt
}

interface CachedSession {
  id: string
  /** When the session was last revoked (epoch ms), or null. */
  revokedAt: number | null
  checkedAt: number
}

async function auth(app: FastifyInstance, opts: AuthOptions): Promise<void> {
  const issuer = opts.oidc.issuer?.replace(/\/+$/, '')
  if (!issuer) throw new Error('authPlugin: oidc.issuer is required (start the development provider first)')
  const keys = createKeyStore({ issuer, ...opts.keys })
  await keys.discover()
  const discovered = keys.state().discovery
  if (discovered.status !== 'ok') {
    app.log.error(
      { error: discovered.error },
      'OIDC discovery failed; retried on demand within the key budget',
    )
  }

  await app.register(fastifyJwt, {
    secret: {
      // Keys come only from the configured issuer's key set: never from jku, x5u, x5c or the token's iss.
      public: async (_request: FastifyRequest, token: { header: { alg?: unknown; kid?: unknown } }) =>
        keys.getKey(token.header.alg, token.header.kid),
    } as never,
    decode: { complete: true },
    verify: {
      algorithms: ['RS256'],
      allowedIss: issuer,
      allowedAud: opts.oidc.audience,
      requiredClaims: ['sub', 'exp', 'iss', 'aud'],
      clockTolerance: 5000,
      cache: 1000,
      errorCacheTTL: 60_000,
    } as never,
  })

  // Pending event writes, flushed on close.
  const pending = new Set<Promise<void>>()
  let refusedWindowStart = Date.now()
  let refusedInWindow = 0
  let refusedDropped = 0
  const refusedCap = opts.refusedEventsPerMinute ?? 30

  const recordAuthEvent = (
    kind: AuthEventKind,
    sessionId: string | null = null,
    detail: Record<string, unknown> = {},
  ) => {
    if (kind === 'token_refused') {
      if (Date.now() - refusedWindowStart >= 60_000) {
        refusedWindowStart = Date.now()
        refusedInWindow = 0
      }
      if (++refusedInWindow > refusedCap) {
        refusedDropped++
        return
      }
      if (refusedDropped > 0) {
        detail = { ...detail, droppedBefore: refusedDropped }
        refusedDropped = 0
      }
    }
    const p = insertAuthEvent(opts.db, kind, sessionId, detail)
      .catch((err) => app.log.error({ err }, 'auth event not recorded'))
      .finally(() => pending.delete(p))
    pending.add(p)
  }
  app.decorate('recordAuthEvent', recordAuthEvent)
  app.decorate('flushAuthEvents', async () => {
    while (pending.size > 0) await Promise.all([...pending])
  })
  app.decorate('authState', () => keys.state())

  // Session cache: revocation state is re-read from the database every `recheck` ms (cross-instance delay).
  const recheck = opts.sessionRecheckMs ?? 5000
  const sessions = new Map<string, CachedSession>()
  const inflight = new Map<string, Promise<CachedSession>>()
  // A session revoked for good stays revoked; one revoked by issue time may be revoked again later (a newer time).
  const resolveSession = async (sub: string, key: string, byIssueTime: boolean): Promise<CachedSession> => {
    const hit = sessions.get(key)
    if (hit && ((hit.revokedAt !== null && !byIssueTime) || Date.now() - hit.checkedAt < recheck)) return hit
    let p = inflight.get(key)
    if (!p) {
      p = touchSession(opts.db, sub, key)
        .then((row) => {
          if (row.created) recordAuthEvent('session_created', row.id)
          const entry = { id: row.id, revokedAt: row.revokedAt, checkedAt: Date.now() }
          sessions.delete(key)
          if (sessions.size >= 10_000) sessions.delete(sessions.keys().next().value as string)
          sessions.set(key, entry)
          return entry
        })
        .finally(() => inflight.delete(key))
      inflight.set(key, p)
    }
    return p
  }
  app.decorate('revokeAuthSession', async (id: string, by: 'owner' | 'admin') => {
    const revokedAt = await revokeSession(opts.db, id)
    for (const entry of sessions.values()) if (entry.id === id) entry.revokedAt = revokedAt
    recordAuthEvent('session_revoked', id, { by })
  })

  const refuse = (code: string, message: string, status = 401, sessionId: string | null = null) => {
    recordAuthEvent('token_refused', sessionId, { reason: code })
    return httpError(status, code, message)
  }

  const authenticate: AuthHook = async (request) => {
    let payload: Record<string, unknown>
    try {
      payload = await request.jwtVerify<Record<string, unknown>>()
    } catch (err) {
      request.user = undefined as never
      if (err instanceof KeyLookupError) throw refuse(err.code, err.message, err.statusCode)
      const known = REFUSALS[(err as { code?: string }).code ?? '']
      throw known ? refuse(known[0], known[1]) : refuse('AUTH_INVALID_TOKEN', 'Invalid token')
    }
    const sub = payload.sub
    // isCleanString: the API's one string rule (src/input.ts); a NUL in `sub` was a 500 on every route.
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > 255 || !isCleanString(sub)) {
      request.user = undefined as never
      throw refuse('AUTH_INVALID_TOKEN', 'Invalid token')
    }
    const byIssueTime = revokesByIssueTime(payload)
    const session = await resolveSession(sub, sessionKey(issuer, payload), byIssueTime)
    if (session.revokedAt !== null && !issuedAfter(payload, session.revokedAt, byIssueTime)) {
      request.user = undefined as never
      throw refuse('AUTH_SESSION_REVOKED', 'Session revoked', 401, session.id)
    }
    request.user = { sub, roles: readRoles(payload, opts.oidc.rolesClaim), sid: session.id }
  }
  Object.defineProperty(authenticate, AUTH_HOOK, { value: true })
  app.decorate('authenticate', authenticate)

  app.decorate('requireRole', (...roles: Role[]): AuthHook => {
    const hook: AuthHook = async (request, reply) => {
      if (!request.user?.sub) await authenticate(request, reply)
      if (!hasRole(request.user, ...roles)) {
        throw httpError(403, 'FORBIDDEN', `Requires one of the roles: ${roles.join(', ')}`)
      }
    }
    Object.defineProperty(hook, AUTH_HOOK, { value: true })
    return hook
  })

  if (opts.routes !== false) await registerAuthRoutes(app, { db: opts.db })

  const interval = opts.retentionIntervalMs ?? 3_600_000
  const purge = () =>
    purgeAuthEvents(opts.db, opts.authEventsRetentionDays).catch((err) =>
      app.log.error({ err }, 'auth events retention failed'),
    )
  let timer: ReturnType<typeof setInterval> | undefined
  if (interval > 0) {
    timer = setInterval(purge, interval)
    timer.unref()
    app.addHook('onReady', async () => {
      void purge()
    })
  }
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer)
    while (pending.size > 0) await Promise.all([...pending])
    await keys.close()
  })
}

/**
 * The auth routes alone (`GET /api/auth/sessions`, `DELETE /api/auth/sessions/:id`, `GET /api/auth/events`), for an
 * app that registered {@link authPlugin} with `routes: false`.
 *
 * @example
 * await app.register(authRoutes, { db })
 */
export const authRoutes = async (app: FastifyInstance, opts: { db: AuthDb }): Promise<void> =>
  registerAuthRoutes(app, { db: opts.db })

/**
 * The authentication plugin. Register it after `securityPlugin` and before the routes.
 *
 * @example
 * await app.register(authPlugin, { oidc: config.oidc, db, authEventsRetentionDays: 90 })
 * app.get('/api/me', { preHandler: app.authenticate }, (req) => req.user)
 * app.post('/api/stories', { preHandler: app.requireRole('creator', 'administrator') }, handler)
 */
export const authPlugin = fp(auth, { name: 'spkg-auth', fastify: '5.x' })
