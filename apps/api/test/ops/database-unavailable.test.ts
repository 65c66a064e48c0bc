/**
 * Which errors are "the database is unavailable" (503 DATABASE_UNAVAILABLE, src/errors.ts) and which stay server
 * faults, and the process-level guard against the driver's dropped rejections. The real faults (PostgreSQL cut off, connections killed) are in cluster.test.ts; these are the shapes the
 * driver and drizzle give them.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { databaseUnavailable } from '../../src/errors.ts'

const wrapped = (cause: unknown) =>
  Object.assign(new Error('Failed query: select 1'), { query: 'select 1', params: [], cause })
const coded = (code: string) => Object.assign(new Error(code), { code })

describe('databaseUnavailable', () => {
  it('recognises lost and refused connections, wrapped by drizzle or not', () => {
    expect(databaseUnavailable(wrapped(coded('ECONNREFUSED')))).toBe(true)
    expect(databaseUnavailable(wrapped(coded('ECONNRESET')))).toBe(true)
    expect(databaseUnavailable(coded('CONNECTION_CLOSED'))).toBe(true)
    expect(databaseUnavailable(wrapped(coded('CONNECT_TIMEOUT')))).toBe(true)
    expect(databaseUnavailable(wrapped(coded('57P01')))).toBe(true) // pg_terminate_backend
    expect(databaseUnavailable(coded('57P03'))).toBe(true) // the database system is starting up
    expect(databaseUnavailable(wrapped(coded('08006')))).toBe(true) // connection failure
  })

  it('leaves other errors alone: query errors, and socket errors that are not the database’s', () => {
    expect(databaseUnavailable(wrapped(coded('23505')))).toBe(false) // unique violation
    expect(databaseUnavailable(wrapped(coded('RL001')))).toBe(false) // the report quota
    expect(databaseUnavailable(coded('ECONNREFUSED'))).toBe(false) // an S3 or repository fetch
    expect(databaseUnavailable(new Error('boom'))).toBe(false)
    expect(databaseUnavailable(undefined)).toBe(false)
  })
})

describe('survivePoolRejections', () => {
  const API_DIR = fileURLToPath(new URL('../..', import.meta.url))
  /** Runs a Node process that installs the handler, then leaves `rejection` unhandled. */
  const run = (rejection: string) =>
    spawnSync(
      process.execPath,
      [
        '--conditions=@spkg/source',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { survivePoolRejections } = await import('./src/errors.ts')
         survivePoolRejections()
         Promise.reject(${rejection})
         setTimeout(() => { console.log('still running'); process.exit(0) }, 200)`,
      ],
      { cwd: API_DIR, encoding: 'utf8', timeout: 60_000 },
    )

  it('logs and survives a dropped database connection error (postgres.js array-types query)', () => {
    const r = run(
      `Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })`,
    )
    expect(r.stdout).toContain('still running')
    expect(r.status).toBe(0)
    expect(r.stderr).toContain('driver rejection ignored')
  })

  it('still ends the process on any other unhandled rejection', () => {
    const r = run(`new Error('a bug')`)
    expect(r.stdout).not.toContain('still running')
    expect(r.status).not.toBe(0)
    expect(r.stderr).toContain('a bug')
  })
})
