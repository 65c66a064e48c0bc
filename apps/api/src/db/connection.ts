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
  /**
   * An in-memory PGlite starts from this data folder dump (`PGlite.dumpDataDir()`) instead of a fresh `initdb`
   * (tests: one migrated template loads in under half the time of a new database).
   */
  pgliteLoadDataDir?: Blob
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
  const client = dir.startsWith('memory://')
    ? await PGlite.create(options.pgliteLoadDataDir ? { loadDataDir: options.pgliteLoadDataDir } : undefined)
    : await PGlite.create(dir)
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

/** Stable codes of {@link DbStartError}. */
export type DbStartErrorCode = 'DB_NOT_FOUND' | 'DB_UNREACHABLE' | 'DB_HOST_NOT_FOUND' | 'DB_AUTH_FAILED'

/**
 * The database could not be used at start-up, said for the operator: what failed and what to do
 * (`database "spkg" does not exist: create it with createdb spkg`), with a stable code. Never carries the password.
 */
export class DbStartError extends Error {
  readonly code: DbStartErrorCode
  constructor(code: DbStartErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'DbStartError'
    this.code = code
  }
}

/** The driver error under drizzle's `Failed query: ...` wrapper. */
function driverError(err: unknown): { code?: string; message?: string } | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof (e as { code?: unknown }).code === 'string') return e as { code?: string; message?: string }
  }
  return undefined
}

/**
 * Explains a failure to reach or log in to the PostgreSQL server of `url` (a missing database, a refused or
 * unresolvable address, an unknown role or a bad password); undefined for any other error (a failing migration
 * stays as it is).
 *
 * @example
 * explainDbError(err, 'postgres://postgres@127.0.0.1:5432/spkg')
 * // DbStartError DB_NOT_FOUND: database "spkg" does not exist: create it with createdb spkg
 */
export function explainDbError(err: unknown, url: string): DbStartError | undefined {
  const cause = driverError(err)
  if (!cause || !URL.canParse(url)) return undefined
  const u = new URL(url)
  const host = decodeURIComponent(u.hostname) || 'localhost'
  const port = u.port || '5432'
  const user = decodeURIComponent(u.username) || undefined
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || user || 'postgres'
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`
  const flags = [
    ...(host !== 'localhost' && host !== '127.0.0.1' ? [`-h ${host}`] : []),
    ...(port !== '5432' ? [`-p ${port}`] : []),
    ...(user ? [`-U ${user}`] : []),
  ]
  const message = String(cause.message ?? '')
  const fail = (code: DbStartErrorCode, text: string) => new DbStartError(code, text, { cause: err })
  switch (cause.code) {
    case '3D000':
      return fail(
        'DB_NOT_FOUND',
        `database "${database}" does not exist on ${where}: create it with createdb ${[...flags, database].join(' ')}`,
      )
    case 'ECONNREFUSED':
      return fail(
        'DB_UNREACHABLE',
        `connection refused on ${where}: is PostgreSQL running there? Check the host and port in DATABASE_URL`,
      )
    case 'ETIMEDOUT':
    case 'CONNECT_TIMEOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return fail(
        'DB_UNREACHABLE',
        `no connection to ${where} (${cause.code}): is PostgreSQL running and reachable from here? Check the host and port in DATABASE_URL`,
      )
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail('DB_HOST_NOT_FOUND', `database host "${host}" not found: check the host in DATABASE_URL`)
    case '28P01':
      return fail(
        'DB_AUTH_FAILED',
        `password authentication failed for user "${user ?? ''}" on ${where}: check the user and password in DATABASE_URL`,
      )
    case '28000':
      return fail(
        'DB_AUTH_FAILED',
        /^role ".*" does not exist$/.test(message)
          ? `role "${user ?? ''}" does not exist on ${where}: create it (createuser ${[...flags.filter((f) => !f.startsWith('-U')), user ?? ''].join(' ')}) or fix the user in DATABASE_URL`
          : `${message} on ${where}: check the user in DATABASE_URL and the server's pg_hba.conf`,
      )
    default:
      return undefined
  }
}

/** The PostgreSQL connection string a database was opened with (undefined for PGlite). */
export function dbUrl(db: Db): string | undefined {
  return handleOf(db).url
}

/** @internal used by the migrator */
export function migrationSessionOf(db: Db): DbHandle['migrationSession'] {
  return handleOf(db).migrationSession
}
