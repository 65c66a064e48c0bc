/**
 * Database start-up failures, told as what failed and what to do, with a stable code, exit 1 and no stack: a
 * missing database, nothing listening on the port, an unknown role. The missing database and the unknown role are
 * tried against the PostgreSQL server of `DATABASE_URL` (skipped without it); the refused port needs no server.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDb, createDb, DbStartError } from '../../src/db/connection.ts'
import { migrateDb } from '../../src/db/migrate.ts'
import {
  freePort,
  ServerStartError,
  startServerProcess,
  stopAllServerProcesses,
} from '../helpers/server-process.ts'

afterAll(() => stopAllServerProcesses())

const DATABASE_URL = process.env.DATABASE_URL

/** `DATABASE_URL` with its path or user replaced. */
function variant(change: { database?: string; user?: string }): string {
  const u = new URL(DATABASE_URL as string)
  if (change.database) u.pathname = `/${change.database}`
  if (change.user) u.username = change.user
  return u.toString()
}

/** The error the migrator (the first query at start-up) gives for `url`. */
async function migrateError(url: string): Promise<unknown> {
  const db = await createDb({ databaseUrl: url, pgliteDir: 'memory://' }, { max: 1 })
  try {
    await migrateDb(db)
    return undefined
  } catch (err) {
    return err
  } finally {
    await closeDb(db)
  }
}

/** Starts the server on `url` and returns its one start-up failure line, checking exit code 1 and no stack. */
async function startupFailure(url: string): Promise<Record<string, unknown>> {
  // An issuer is configured (as in production), so the development provider's start-up notes stay out of stderr.
  const env = { DATABASE_URL: url, OIDC_ISSUER: 'http://127.0.0.1:9' }
  const err = await startServerProcess({ name: 'db-start', env }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ServerStartError)
  const e = err as ServerStartError
  expect(e.exit.code).toBe(1)
  expect(e.stderr).not.toMatch(/^\s+at /m) // no stack trace
  expect(e.stderr).not.toContain('Failed query')
  const lines = e.stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0] as string) as Record<string, unknown>
}

describe('a refused port', () => {
  it('says that the connection was refused and asks whether PostgreSQL runs there', async () => {
    const port = await freePort()
    const url = `postgres://postgres@127.0.0.1:${port}/spkg`
    const err = await migrateError(url)
    expect(err).toBeInstanceOf(DbStartError)
    expect((err as DbStartError).code).toBe('DB_UNREACHABLE')
    expect((err as DbStartError).message).toBe(
      `connection refused on 127.0.0.1:${port}: is PostgreSQL running there? Check the host and port in DATABASE_URL`,
    )
    expect(await startupFailure(url)).toMatchObject({
      level: 60,
      msg: 'start-up failed',
      code: 'DB_UNREACHABLE',
      err: (err as DbStartError).message,
    })
  }, 180_000)
})

describe.skipIf(!DATABASE_URL)(
  `the PostgreSQL server of DATABASE_URL${DATABASE_URL ? '' : ' (skipped: DATABASE_URL is not set)'}`,
  () => {
    it('says that the database does not exist and how to create it', async () => {
      const name = `spkg_missing_${randomBytes(4).toString('hex')}`
      const url = variant({ database: name })
      const err = await migrateError(url)
      expect(err).toBeInstanceOf(DbStartError)
      expect((err as DbStartError).code).toBe('DB_NOT_FOUND')
      const u = new URL(url)
      expect((err as DbStartError).message).toMatch(
        new RegExp(
          `^database "${name}" does not exist on ${u.hostname}:${u.port || 5432}: create it with createdb .*${name}$`,
        ),
      )
      if (u.username) expect((err as DbStartError).message).toContain(`-U ${u.username} ${name}`)
      expect(await startupFailure(url)).toMatchObject({
        code: 'DB_NOT_FOUND',
        err: (err as DbStartError).message,
      })
    }, 180_000)

    it('says that the role does not exist', async () => {
      const user = `nobody_${randomBytes(4).toString('hex')}`
      const url = variant({ user })
      const err = await migrateError(url)
      expect(err).toBeInstanceOf(DbStartError)
      expect((err as DbStartError).code).toBe('DB_AUTH_FAILED')
      expect((err as DbStartError).message).toMatch(
        new RegExp(
          `^role "${user}" does not exist on .*: create it \\(createuser .*${user}\\) or fix the user in DATABASE_URL$`,
        ),
      )
      expect(await startupFailure(url)).toMatchObject({ code: 'DB_AUTH_FAILED' })
    }, 180_000)
  },
)
