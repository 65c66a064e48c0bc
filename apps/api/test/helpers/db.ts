/**
 * A fresh database per test file: with `DATABASE_URL` a new PostgreSQL database
 * `spkg_test_<random>` on that server (dropped afterwards), copied from a migrated template database (see
 * {@link pgTemplate}), else an in-memory PGlite loaded from a migrated template (see {@link pgliteTemplate}).
 * Migrated.
 */
import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import { closeDb, createDb, type Db } from '../../src/db/connection'
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

/**
 * Connection string of a fresh database on the `DATABASE_URL` server: empty, or a copy of the database named
 * `template` (`create database ... template`, a file copy on the server).
 */
export async function createPgDatabase(
  options: { template?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL
  if (!base) throw new Error('DATABASE_URL is not set')
  const name = `spkg_test_${randomBytes(6).toString('hex')}`
  const admin = postgres(base, { max: 1, onnotice: () => {} })
  try {
    await admin.unsafe(`create database ${name}${options.template ? ` template ${options.template}` : ''}`)
  } finally {
    await admin.end()
  }
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
    const { url, drop } = await createPgDatabase({ template: await pgTemplate() })
    const db = await createDb({ databaseUrl: url, pgliteDir: 'memory://' }, { max: options.max ?? 10 })
    await migrateDb(db) // a no-op on the template's copy (already migrated): kept so that a stale template cannot pass
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
  const db = await createDb(
    { databaseUrl: undefined, pgliteDir: 'memory://' },
    { pgliteLoadDataDir: await pgliteTemplate() },
  )
  await migrateDb(db) // a no-op on the template (already migrated): kept so that a stale template cannot pass
  return { db, kind: 'pglite', dispose: () => closeDb(db) }
}

const MIGRATIONS = fileURLToPath(new URL('../../drizzle/', import.meta.url))
const PGLITE_PACKAGE = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)

/** A hash of the migrations (names and contents) and `extra`: a template made from other migrations is not used. */
async function migrationsHash(extra: string): Promise<string> {
  const hash = createHash('sha256').update(extra)
  for (const name of (await readdir(MIGRATIONS, { recursive: true })).sort()) {
    if (!/\.(sql|json)$/.test(name)) continue
    hash.update(name).update(await readFile(join(MIGRATIONS, name)))
  }
  return hash.digest('hex').slice(0, 16)
}

let pgTemplateName: Promise<string> | undefined

/**
 * The name of a migrated, empty database on the `DATABASE_URL` server that {@link createTestDb} copies: creating a
 * database and running every migration costs 0.6-1.3 s under load, a copy of this one a fraction of that. Named after
 * the migrations' hash (`spkg_test_tpl_<hash>`), so a new migration makes a new template; made under another name,
 * migrated, disconnected, then renamed, so concurrent test files racing to make it never copy a half-migrated one
 * (the loser of the rename drops its own). Nothing connects to it afterwards: `create database ... template` refuses
 * a template with open sessions. Stays on the server for the next run.
 */
function pgTemplate(): Promise<string> {
  pgTemplateName ??= makePgTemplate().catch((err) => {
    pgTemplateName = undefined
    throw err
  })
  return pgTemplateName
}

async function makePgTemplate(): Promise<string> {
  const base = process.env.DATABASE_URL as string
  const name = `spkg_test_tpl_${await migrationsHash('postgres')}`
  const admin = postgres(base, { max: 1, onnotice: () => {} })
  try {
    const found = await admin`select 1 from pg_database where datname = ${name}`
    if (found.length > 0) return name
    const work = `${name}_${randomBytes(4).toString('hex')}`
    await admin.unsafe(`create database ${work}`)
    try {
      const u = new URL(base)
      u.pathname = `/${work}`
      const db = await createDb({ databaseUrl: u.toString(), pgliteDir: 'memory://' }, { max: 1 })
      try {
        await migrateDb(db)
      } finally {
        await closeDb(db)
      }
      await admin.unsafe(`alter database ${work} rename to ${name}`)
    } catch (err) {
      await admin.unsafe(`drop database if exists ${work} with (force)`)
      // Another file renamed its template first: use that one.
      const again = await admin`select 1 from pg_database where datname = ${name}`
      if (again.length > 0) return name
      throw err
    }
    return name
  } finally {
    await admin.end()
  }
}

/**
 * A migrated, empty PGlite data folder as a dump, shared by every test file: a fresh PGlite runs `initdb`
 * (1.8-2.6 s at rest, 8-12 s under a load of 14), loading this dump takes about a third of that. Kept in the OS
 * temporary folder under a name made of the migrations' and PGlite's hash, so a new migration makes a new template;
 * written atomically (concurrent test files may race to make it: one rename wins, both are complete).
 */
async function pgliteTemplate(): Promise<Blob> {
  // The installed PGlite's version: a dump is a data folder of one PostgreSQL build.
  const pglite = JSON.parse(await readFile(PGLITE_PACKAGE, 'utf8')) as { version: string }
  const file = join(tmpdir(), `spkg-test-pglite-${await migrationsHash(pglite.version)}.tar`)
  const cached = await readFile(file).catch(() => null)
  if (cached) return new Blob([cached])
  const db = await createDb({ databaseUrl: undefined, pgliteDir: 'memory://' })
  try {
    await migrateDb(db)
    const client = (db as unknown as { $client: PGlite }).$client
    const dump = await client.dumpDataDir('none')
    const tmp = `${file}.${randomBytes(6).toString('hex')}.part`
    await writeFile(tmp, new Uint8Array(await dump.arrayBuffer()))
    await rename(tmp, file)
    return dump
  } finally {
    await closeDb(db)
  }
}
