/**
 * Health: public and never throttled. `/api/health` checks the process and the database;
 * `/api/health/auth` reports what the auth plugin's key cache recorded (`app.authState()`), and
 * never fetches from the identity provider itself (a public, unthrottled route would amplify).
 */
import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { type Db, pingDb } from '../db/index'
import { throttle } from './throttle'

const HealthSchema = z
  .object({ status: z.enum(['ok', 'error']), database: z.enum(['ok', 'unavailable']) })
  .meta({ id: 'Health', examples: [{ status: 'ok', database: 'ok' }] })

const AuthHealthSchema = z
  .looseObject({
    status: z.enum(['ok', 'error', 'unconfigured']),
    discovery: z.union([z.literal('unconfigured'), z.looseObject({ status: z.string() })]),
    keySet: z.looseObject({}).optional(),
  })
  .meta({
    id: 'AuthHealth',
    description:
      'State of OIDC discovery and of the last key-set fetch as the key cache recorded it (no live fetch).',
    examples: [
      {
        status: 'ok',
        issuer: 'https://id.example.org',
        discovery: { status: 'ok', loadedAt: '2026-11-23T10:00:00.000Z' },
        keySet: { lastFetchAt: '2026-11-23T10:00:01.000Z', lastFetchOk: true, requestsInWindow: 1 },
      },
    ],
  })

/** What the auth plugin's `app.authState()` returns (a `healthy: false` answer gives 503). */
export interface AuthStateReport {
  healthy?: boolean
  discovery?: { status: string; [k: string]: unknown }
  [k: string]: unknown
}

function readAuthState(app: FastifyInstance): AuthStateReport | undefined {
  const fn = (app as unknown as { authState?: () => AuthStateReport }).authState
  return typeof fn === 'function' ? fn.call(app) : undefined
}

/** The health routes. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/health',
    {
      ...throttle(false),
      schema: {
        tags: ['health'],
        summary: 'Liveness and database',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (request, reply) => {
      try {
        await pingDb(db)
        return { status: 'ok' as const, database: 'ok' as const }
      } catch (err) {
        request.log.error({ err }, 'health: database check failed')
        return reply.code(503).send({ status: 'error', database: 'unavailable' })
      }
    },
  )

  app.get(
    '/api/health/auth',
    {
      ...throttle(false),
      schema: {
        tags: ['health'],
        summary: 'Identity-provider discovery and key-set state',
        description: '503 when discovery never loaded or the last key-set fetch failed with no key cached.',
        response: { 200: AuthHealthSchema, 503: AuthHealthSchema },
      },
    },
    async (_request, reply) => {
      const state = readAuthState(app)
      if (!state) return reply.code(503).send({ status: 'unconfigured', discovery: 'unconfigured' })
      const { healthy, ...rest } = state
      const body = { ...rest, status: healthy === false ? 'error' : 'ok' }
      return reply.code(healthy === false ? 503 : 200).send(body as z.infer<typeof AuthHealthSchema>)
    },
  )
}
