/**
 * A fresh database per test file: with `DATABASE_URL` a new PostgreSQL database
 * `spkg_test_<random>` on that server (dropped afterwards), else an in-memory PGlite. Migrated.
 */
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { closeDb, createDb, type Db } from '../../src/db/index'
import { migrateDb } from '../../src/db/migrate'

/** A migrated test database and how to get rid of it. */
export interface TestDb {
  db: Db
  /** `postgres` or `pglite`. */
  kind: 'postgres' | 'pglite'
  /** Connection string of the fresh database (PostgreSQL only). */
  url?: string
  /** Closes and drops it. */
  dispose: () => Promise<void>
}

/** Connection string of a fresh, empty database on the `DATABASE_URL` server. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL
  if (!base) throw new Error('DATABASE_URL is not set')
  const name = `spkg_test_${randomBytes(6).toString('hex')}`
  const admin = postgres(base, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  await admin.end()
  const url = new URL(base)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const a = postgres(base, { max: 1, onnotice: () => {} })
      await a.unsafe(`drop database if exists ${name} with (force)`)
      await a.end()
    },
  }
}

/** Opens a migrated database for one test file. */
export async function createTestDb(options: { max?: number } = {}): Promise<TestDb> {
  if (process.env.DATABASE_URL) {
    const { url, drop } = await createPgDatabase()
    const db = await createDb({ databaseUrl: url, pgliteDir: 'memory://' }, { max: options.max ?? 10 })
    await migrateDb(db)
    return {
      db,
      kind: 'postgres',
      url,
      dispose: async () => {
        await closeDb(db)
        await drop()
      },
    }
  }
  const db = await createDb({ databaseUrl: undefined, pgliteDir: 'memory://' })
  await migrateDb(db)
  return { db, kind: 'pglite', dispose: () => closeDb(db) }
}
