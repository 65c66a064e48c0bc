/**
 * The route side of the auth contract. The auth plugin (src/plugins/auth/auth-plugin.ts) decorates the instance
 * with `authenticate` (a preHandler that sets `request.user`) and `requireRole(...roles)` (a
 * preHandler factory answering 403). Routes reach them through these helpers so that the route
 * files do not depend on how the plugin declares its types.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import { ApiError } from '../errors'
import { type AuthUser, hasRole, type Role } from '../roles'

interface AuthDecorations {
  authenticate: preHandlerAsyncHookHandler
  requireRole: (...roles: string[]) => preHandlerAsyncHookHandler
}

function decorations(app: FastifyInstance): AuthDecorations {
  const a = app as unknown as Partial<AuthDecorations>
  if (typeof a.authenticate !== 'function' || typeof a.requireRole !== 'function') {
    throw new Error('the auth plugin must be registered before the routes (authenticate, requireRole)')
  }
  return a as AuthDecorations
}

/** preHandler chain: a valid bearer token. */
export function authenticated(app: FastifyInstance): preHandlerAsyncHookHandler[] {
  return [decorations(app).authenticate]
}

/** preHandler chain: a valid bearer token and one of `roles`. */
export function withRole(app: FastifyInstance, ...roles: Role[]): preHandlerAsyncHookHandler[] {
  const d = decorations(app)
  return [d.authenticate, d.requireRole(...roles)]
}

/** The authenticated caller; throws 401 when a route forgot its `authenticated` preHandler. */
export function userOf(request: FastifyRequest): AuthUser {
  const user = (request as unknown as { user?: AuthUser }).user
  if (!user || typeof user.sub !== 'string')
    throw new ApiError(401, 'UNAUTHORIZED', 'Authentication required')
  return user
}

/**
 * Refuses (403) a caller who neither owns the record (`owner`, a `sub`) nor is an administrator: who may change a
 * story and its versions. `action` ends the message: "Only the owner or an administrator may <action>".
 */
export function requireOwnerOrAdministrator(user: AuthUser, owner: string, action: string): void {
  if (owner !== user.sub && !hasRole(user, 'administrator'))
    throw new ApiError(403, 'FORBIDDEN', `Only the owner or an administrator may ${action}`)
}

/**
 * Records an auth event through the auth plugin's `recordAuthEvent` (no personal data: the
 * session id and non-identifying details only). A no-op where no auth plugin records events.
 */
export function recordAuthEvent(
  app: FastifyInstance,
  kind: string,
  sessionId: string | null | undefined,
  detail?: Record<string, unknown>,
): void {
  const record = (app as unknown as { recordAuthEvent?: unknown }).recordAuthEvent
  if (typeof record === 'function') record.call(app, kind, sessionId ?? null, detail)
}
