/**
 * Health: public and never throttled. `/api/health` checks the process and the database (liveness);
 * `/api/health/ready` says whether this instance should get traffic (a load balancer's check): 503 while the
 * migrations run (the migrator's advisory lock is held, by this or any instance), while the instance drains
 * (closing), and while the database is unreachable;
 * `/api/health/auth` reports what the auth plugin's key cache recorded (`app.authState()`), and
 * never fetches from the identity provider itself (a public, unthrottled route would amplify).
 */

import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { type Db, pingDb, queryRows } from '../../db/connection'
import { MIGRATION_LOCK_KEY } from '../../db/migrate'
import { throttle } from '../../plugins/throttle'

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

const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'not-ready']),
    reason: z.enum(['migrating', 'draining', 'database-unavailable']).optional(),
  })
  .meta({
    id: 'Readiness',
    description: 'Whether this instance takes traffic; `reason` says why not.',
    examples: [{ status: 'ready' }, { status: 'not-ready', reason: 'migrating' }],
  })

/**
 * Whether the migrator's advisory lock (src/db/migrate.ts) is held by any session on this database. A bigint key
 * below 2^31 shows in `pg_locks` as `classid = 0`, `objid = key`, `objsubid = 1`. An advisory lock belongs to one
 * database, but `pg_locks` lists the whole server's: without the `database` condition, another database on the same
 * server being migrated made this instance answer 'migrating'.
 */
export async function migrationsRunning(db: Db): Promise<boolean> {
  const rows = await queryRows<{ running: boolean }>(
    db,
    sql`select exists(select 1 from pg_locks where locktype = 'advisory' and classid = 0
      and objid = ${MIGRATION_LOCK_KEY} and objsubid = 1 and granted
      and database = (select oid from pg_database where datname = current_database())) as running`,
  )
  return rows[0]?.running === true
}

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

  // Set when the app starts closing. Requests that arrive then are refused earlier (errors.ts refuseWhileClosing);
  // this covers a readiness check already past that hook.
  let draining = false
  app.addHook('preClose', async () => {
    draining = true
  })
  app.get(
    '/api/health/ready',
    {
      ...throttle(false),
      schema: {
        tags: ['health'],
        summary: 'Readiness: whether this instance should get traffic',
        description:
          '503 while migrations run, while the instance drains (shutdown) and while the database is unreachable.',
        response: { 200: ReadinessSchema, 503: ReadinessSchema },
      },
    },
    async (request, reply) => {
      const notReady = (reason: 'migrating' | 'draining' | 'database-unavailable') =>
        reply.code(503).send({ status: 'not-ready', reason })
      if (draining) return notReady('draining')
      let running: boolean
      try {
        running = await migrationsRunning(db)
      } catch (err) {
        request.log.warn({ err }, 'readiness: database check failed')
        return notReady('database-unavailable')
      }
      if (running) return notReady('migrating')
      if (draining) return notReady('draining')
      return { status: 'ready' as const }
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
