/**
 * Database access: one drizzle schema on two engines. With `DATABASE_URL` the `postgres` driver
 * talks to PostgreSQL; without it PGlite (PostgreSQL compiled to WASM) runs embedded, in a data
 * folder or in memory (`memory://`). Both get the same migrations from `apps/api/drizzle/`.
 */
import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { type SQL, sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import type { Config } from '../config'
import * as schema from './schema'

export { schema }

/** A drizzle database over PostgreSQL (`postgres` driver) or PGlite; both satisfy this type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

/** Which engine a {@link Db} runs on. */
export type DbKind = 'postgres' | 'pglite'

interface DbHandle {
  kind: DbKind
  close: () => Promise<void>
  /** A fresh single-connection drizzle instance for the migrator (PostgreSQL), or the db itself. */
  migrationSession: () => Promise<{ db: Db; release: () => Promise<void> }>
  url?: string
}

const handles = new WeakMap<Db, DbHandle>()

/** Options of {@link createDb}. */
export interface CreateDbOptions {
  /** Connection pool size for PostgreSQL. @default 10 */
  max?: number
}

/**
 * Opens the database the configuration names: PostgreSQL when `databaseUrl` is set, else PGlite
 * in `pgliteDir` (`memory://` for an in-memory database). Does not migrate: call {@link migrateDb}.
 *
 * @example
 * const db = await createDb(config)
 * await migrateDb(db)
 * // ...
 * await closeDb(db)
 */
export async function createDb(
  config: Pick<Config, 'databaseUrl' | 'pgliteDir'>,
  options: CreateDbOptions = {},
): Promise<Db> {
  if (config.databaseUrl) {
    const url = config.databaseUrl
    const client = postgres(url, {
      max: options.max ?? 10,
      onnotice: () => {},
      connect_timeout: 10,
      idle_timeout: 60,
    })
    const db = drizzlePostgres(client, { schema }) as unknown as Db
    handles.set(db, {
      kind: 'postgres',
      url,
      close: () => client.end({ timeout: 5 }),
      migrationSession: async () => {
        const single = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 })
        return {
          db: drizzlePostgres(single, { schema }) as unknown as Db,
          release: () => single.end({ timeout: 5 }),
        }
      },
    })
    return db
  }
  const dir = config.pgliteDir
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true })
  const client = await PGlite.create(dir.startsWith('memory://') ? undefined : dir)
  const db = drizzlePglite(client, { schema }) as unknown as Db
  handles.set(db, {
    kind: 'pglite',
    close: async () => {
      if (!client.closed) await client.close()
    },
    migrationSession: async () => ({ db, release: async () => {} }),
  })
  return db
}

function handleOf(db: Db): DbHandle {
  const h = handles.get(db)
  if (!h) throw new TypeError('not a database opened by createDb')
  return h
}

/** The engine behind a database opened by {@link createDb}. */
export function dbKind(db: Db): DbKind {
  return handleOf(db).kind
}

/** Closes the pool (PostgreSQL) or the embedded database (PGlite). Idempotent. */
export async function closeDb(db: Db): Promise<void> {
  const h = handles.get(db)
  if (!h) return
  handles.delete(db)
  await h.close()
}

/**
 * Runs a raw SQL statement and returns its rows on both engines (`db.execute` gives an array with
 * postgres-js but `{ rows }` with PGlite).
 */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown
  return (Array.isArray(r) ? r : ((r as { rows?: unknown[] }).rows ?? [])) as T[]
}

/** Round trip to the database (`select 1`); throws when it is unreachable. */
export async function pingDb(db: Db): Promise<void> {
  await db.execute(sql`select 1`)
}

/** @internal used by the migrator */
export function migrationSessionOf(db: Db): DbHandle['migrationSession'] {
  return handleOf(db).migrationSession
}
