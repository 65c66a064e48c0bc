import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { closeDb, createDb, type Db, queryRows } from '../src/db/connection'
import { migrateDb } from '../src/db/migrate'
import { createPgDatabase } from './helpers/db'

/** Every migration of drizzle/meta/_journal.json. */
const MIGRATIONS = (
  JSON.parse(readFileSync(new URL('../drizzle/meta/_journal.json', import.meta.url), 'utf8')) as {
    entries: unknown[]
  }
).entries.length

const applied = async (db: Db) =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n
const tables = async (db: Db) =>
  (
    await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )
  ).map((r) => r.table_name)

const EXPECTED_TABLES = [
  'auth_events',
  'auth_sessions',
  'csp_reports',
  'file_purges',
  'profiles',
  'reading_progress',
  'reports',
  'series',
  'signing_keys',
  'stories',
  'story_versions',
]

describe('migrations on PGlite', () => {
  it('apply to a data folder, are idempotent, and survive a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-pglite-'))
    try {
      const db = await createDb({ databaseUrl: undefined, pgliteDir: dir })
      await Promise.all([migrateDb(db), migrateDb(db)])
      await migrateDb(db)
      expect(await tables(db)).toEqual(EXPECTED_TABLES)
      expect(await applied(db)).toBe(MIGRATIONS)
      await closeDb(db)
      const again = await createDb({ databaseUrl: undefined, pgliteDir: dir })
      await migrateDb(again)
      expect(await applied(again)).toBe(MIGRATIONS)
      await closeDb(again)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe.skipIf(!process.env.DATABASE_URL)('migrations on PostgreSQL', () => {
  it('two instances migrating the same database at once apply each migration once', async () => {
    const { url, drop } = await createPgDatabase()
    const a = await createDb({ databaseUrl: url, pgliteDir: 'memory://' })
    const b = await createDb({ databaseUrl: url, pgliteDir: 'memory://' })
    try {
      await Promise.all([migrateDb(a), migrateDb(b), migrateDb(a)])
      expect(await tables(a)).toEqual(EXPECTED_TABLES)
      expect(await applied(b)).toBe(MIGRATIONS)
      // the trigger exists exactly once
      const [t] = await queryRows<{ n: number }>(
        a,
        sql`select count(*)::int as n from pg_trigger where tgname = 'reports_quota'`,
      )
      expect(t?.n).toBe(1)
    } finally {
      await closeDb(a)
      await closeDb(b)
      await drop()
    }
  }, 60_000)
})

describe('pnpm --filter @spkg/api migrate', () => {
  it('applies the migrations to the configured database and exits 0', async () => {
    const pg = process.env.DATABASE_URL ? await createPgDatabase() : undefined
    const dir = mkdtempSync(join(tmpdir(), 'spkg-migrate-cli-'))
    try {
      const env = { PATH: process.env.PATH ?? '', PGLITE_DIR: dir, ...(pg && { DATABASE_URL: pg.url }) }
      const run = () =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            ['--conditions=@spkg/source', '--import', 'tsx', 'src/db/migrate-cli.ts'],
            {
              cwd: fileURLToPath(new URL('..', import.meta.url)),
              env,
            },
          )
          let out = ''
          child.stdout.on('data', (d) => {
            out += d
          })
          child.stderr.on('data', (d) => {
            out += d
          })
          child.on('exit', (code) => resolve({ code, out }))
        })
      const first = await run()
      expect(first).toEqual({ code: 0, out: `migrations applied (${pg ? 'postgres' : 'pglite'})\n` })
      expect((await run()).code).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
      await pg?.drop()
    }
  }, 90_000)
})
