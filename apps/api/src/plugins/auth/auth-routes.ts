/**
 * The auth plugin's own routes: the caller's sessions, revoking one, and the auth-event log (every user reads the
 * events of their own sessions; administrators everyone's, or one user's with `subject`).
 * Authentication runs in `onRequest`, so an anonymous caller gets 401 before any validation message.
 */

import {
  AuthEventPageSchema,
  AuthEventQuerySchema,
  SessionIdParamsSchema,
  SessionListSchema,
} from '@spkg/api-contract'
import type { FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { listAuthEvents, listSessions, type SqlExecutor, sessionOwner } from './store.ts'

/** Registers `/api/auth/sessions` and `/api/auth/events` in an encapsulated context using zod schemas. */
export async function registerAuthRoutes(app: FastifyInstance, deps: { db: SqlExecutor }): Promise<void> {
  await app.register(async (child) => {
    child.setValidatorCompiler(validatorCompiler)
    child.setSerializerCompiler(serializerCompiler)
    const r = child.withTypeProvider<ZodTypeProvider>()

    r.get(
      '/api/auth/sessions',
      {
        onRequest: app.authenticate,
        schema: {
          summary: "The caller's sessions seen by the platform",
          tags: ['auth'],
          security: [{ bearerAuth: [] }],
          response: { 200: SessionListSchema },
        },
      },
      async (request) => {
        const rows = await listSessions(deps.db, request.user.sub)
        return { sessions: rows.map((s) => ({ ...s, current: s.id === request.user.sid })) }
      },
    )

    r.delete(
      '/api/auth/sessions/:id',
      {
        onRequest: app.authenticate,
        schema: {
          summary:
            'Revoke one of your sessions (administrators: any session); later tokens of it are refused',
          tags: ['auth'],
          security: [{ bearerAuth: [] }],
          params: SessionIdParamsSchema,
          response: { 204: z.null().describe('Revoked') },
        },
      },
      async (request, reply) => {
        const { id } = request.params
        const owner = await sessionOwner(deps.db, id)
        const isAdmin = request.user.roles.includes('administrator')
        if (owner === undefined || (owner !== request.user.sub && !isAdmin)) {
          throw Object.assign(new Error('Session not found'), { statusCode: 404, code: 'SESSION_NOT_FOUND' })
        }
        await app.revokeAuthSession(id, isAdmin && owner !== request.user.sub ? 'admin' : 'owner')
        return reply.code(204).send(null)
      },
    )

    r.get(
      '/api/auth/events',
      {
        onRequest: app.authenticate,
        schema: {
          summary:
            "Auth events (no personal data), newest first: the caller's own; administrators read everyone's, or one subject's with `subject`",
          tags: ['auth'],
          security: [{ bearerAuth: [] }],
          querystring: AuthEventQuerySchema,
          response: { 200: AuthEventPageSchema },
        },
      },
      async (request) => {
        const { limit, offset } = request.query
        const isAdmin = request.user.roles.includes('administrator')
        const subject = request.query.subject ?? (isAdmin ? undefined : request.user.sub)
        if (subject !== undefined && subject !== request.user.sub && !isAdmin) {
          throw Object.assign(new Error("Only administrators can read another user's auth events"), {
            statusCode: 403,
            code: 'AUTH_EVENTS_FORBIDDEN',
          })
        }
        const page = await listAuthEvents(deps.db, limit, offset, subject)
        return { ...page, limit, offset }
      },
    )
  })
}
