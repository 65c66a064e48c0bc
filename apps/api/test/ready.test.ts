/**
 * `/api/health/ready` (the load balancer's check) on PGlite and on PostgreSQL: 200 when the instance can take
 * traffic; 503 while the migrator's advisory lock is held (migrations running here or on another instance), while
 * the instance drains, and while the database is unreachable (a closed pool, a server that refuses connections).
 * `/api/health` stays the liveness check.
 */
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { closeDb, createDb, type Db } from '../src/db/connection'
import { MIGRATION_LOCK_KEY, migrateDb } from '../src/db/migrate'
import { createPgDatabase } from './helpers/db'

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' })

type Engine = {
  name: 'pglite' | 'postgres'
  open: () => Promise<{ db: Db; url?: string; dispose: () => Promise<void> }>
}

const engines: Engine[] = [
  {
    name: 'pglite',
    open: async () => {
      const db = await createDb({ databaseUrl: undefined, pgliteDir: 'memory://' })
      await migrateDb(db)
      return { db, dispose: () => closeDb(db) }
    },
  },
  {
    name: 'postgres',
    open: async () => {
      const { url, drop } = await createPgDatabase()
      const db = await createDb({ databaseUrl: url, pgliteDir: 'memory://' }, { max: 4 })
      await migrateDb(db)
      return {
        db,
        url,
        dispose: async () => {
          await closeDb(db).catch(() => {})
          await drop()
        },
      }
    },
  },
]

describe.each(engines)('readiness on $name', (engine) => {
  const skip = engine.name === 'postgres' && !process.env.DATABASE_URL
  let opened: Awaited<ReturnType<Engine['open']>>
  beforeAll(async () => {
    if (!skip) opened = await engine.open()
  }, 60_000)
  afterAll(async () => opened?.dispose())

  it.skipIf(skip)(
    'answers 200 when ready, 503 while the migrations lock is held',
    async () => {
      const app = await buildApp(config, { db: opened.db })
      try {
        const ready = await app.inject({ url: '/api/health/ready' })
        expect(ready.statusCode).toBe(200)
        expect(ready.json()).toEqual({ status: 'ready' })

        // What migrateDb holds while it runs: on PostgreSQL another session (another instance migrating), on PGlite
        // the one embedded session.
        const holder = opened.url ? postgres(opened.url, { max: 1, onnotice: () => {} }) : undefined
        try {
          if (holder) await holder`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`
          else await opened.db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`)
          const migrating = await app.inject({ url: '/api/health/ready' })
          expect(migrating.statusCode).toBe(503)
          expect(migrating.json()).toEqual({ status: 'not-ready', reason: 'migrating' })
          // Liveness is not readiness.
          expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200)
        } finally {
          if (holder) await holder.end()
          else await opened.db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`)
        }
        expect((await app.inject({ url: '/api/health/ready' })).statusCode).toBe(200)
      } finally {
        await app.close()
      }
    },
    60_000,
  )

  it.skipIf(skip)(
    'answers 503 while the instance drains',
    async () => {
      const app = await buildApp(config, { db: opened.db })
      let during: { status: number; body: string } | undefined
      app.addHook('preClose', async () => {
        // The listener is still open: a load balancer's check arriving now.
        const { port } = app.server.address() as { port: number }
        const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`, {
          signal: AbortSignal.timeout(10_000),
        })
        during = { status: res.status, body: await res.text() }
      })
      await app.listen({ host: '127.0.0.1', port: 0 })
      const { port } = app.server.address() as { port: number }
      const before = await fetch(`http://127.0.0.1:${port}/api/health/ready`)
      expect(before.status).toBe(200)
      await before.text()
      await app.close()
      expect(during?.status).toBe(503)
    },
    60_000,
  )

  it.skipIf(skip)(
    'answers 503 when the database pool is closed',
    async () => {
      const own = await engine.open()
      const app = await buildApp(config, { db: own.db })
      try {
        expect((await app.inject({ url: '/api/health/ready' })).statusCode).toBe(200)
        await closeDb(own.db)
        const res = await app.inject({ url: '/api/health/ready' })
        expect(res.statusCode).toBe(503)
        expect(res.json()).toEqual({ status: 'not-ready', reason: 'database-unavailable' })
      } finally {
        await app.close()
        await own.dispose()
      }
    },
    60_000,
  )
})

describe('readiness with an unreachable PostgreSQL server', () => {
  it('answers 503 database-unavailable, and /api/health 503 too', async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const db = await createDb({ databaseUrl: 'postgres://postgres@127.0.0.1:9/none', pgliteDir: 'memory://' })
    const app = await buildApp(config, { db })
    try {
      const res = await app.inject({ url: '/api/health/ready' })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({ status: 'not-ready', reason: 'database-unavailable' })
    } finally {
      await app.close()
      await closeDb(db)
    }
  }, 60_000)
})

describe('readiness on a PostgreSQL server shared with other databases', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'stays ready while another database on the same server holds the migrations lock',
    async () => {
      const own = await engines[1]!.open()
      const other = await createPgDatabase()
      const holder = postgres(other.url, { max: 1, onnotice: () => {} })
      const app = await buildApp(config, { db: own.db })
      try {
        // Another instance migrating its own database: an advisory lock there, not here.
        await holder`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`
        const res = await app.inject({ url: '/api/health/ready' })
        expect(res.json()).toEqual({ status: 'ready' })
        expect(res.statusCode).toBe(200)
      } finally {
        await app.close()
        await holder.end()
        await other.drop()
        await own.dispose()
      }
    },
    60_000,
  )
})
