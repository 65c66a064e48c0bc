/**
 * Applies the migrations of `apps/api/drizzle/` under a PostgreSQL advisory lock. drizzle's
 * migrator is not safe when several instances start at once (drizzle-orm#874): each would read the
 * journal, find the same pending migrations and run them twice. The lock is session-scoped and taken
 * on a dedicated single connection, so the migrator's statements run on the locked session; a
 * second instance waits, then finds nothing left to apply.
 */
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import type { PgliteDatabase } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import type { DbStartError } from './connection'
import { type Db, dbKind, dbUrl, explainDbError, migrationSessionOf } from './connection'

/** The one migrations folder for PostgreSQL and PGlite. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url))

/** Key of the advisory lock the migrator holds (`hashtext('spkg-api:migrations')` is not stable across versions). */
export const MIGRATION_LOCK_KEY = 727_105_301

/**
 * Brings the schema up to date. Idempotent; safe to call from several processes at once. It is the first query at
 * start-up: a database that is missing or cannot be reached or logged in to is a {@link DbStartError} saying what
 * to do.
 *
 * @example
 * await migrateDb(await createDb(config))
 */
export async function migrateDb(db: Db, options: { migrationsFolder?: string } = {}): Promise<void> {
  // Calls on one handle are queued: the advisory lock is re-entrant within a session, and PGlite
  // has a single session.
  const previous = running.get(db) ?? Promise.resolve()
  const current = previous.catch(() => {}).then(() => migrateLocked(db, options))
  running.set(db, current)
  try {
    await current
  } catch (err) {
    const url = dbUrl(db)
    throw (url && explainDbError(err, url)) || err
  } finally {
    if (running.get(db) === current) running.delete(db)
  }
}

const running = new WeakMap<Db, Promise<void>>()

async function migrateLocked(db: Db, options: { migrationsFolder?: string }): Promise<void> {
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_FOLDER
  const session = await migrationSessionOf(db)()
  try {
    await session.db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`)
    try {
      if (dbKind(db) === 'postgres') {
        await migratePostgres(session.db as unknown as PostgresJsDatabase, { migrationsFolder })
      } else {
        await migratePglite(session.db as unknown as PgliteDatabase, { migrationsFolder })
      }
    } finally {
      await session.db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`)
    }
  } finally {
    await session.release()
  }
}
