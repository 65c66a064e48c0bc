/**
 * The built API (apps/api/build.ts), what production and bench/api-upload run: `node dist/bin/server.mjs` starts
 * from the bundle alone (migrations found next to the package, no tsx), publishes an upload with the worker built
 * beside it (dist/bin/validate-worker.mjs), and `node dist/bin/migrate-cli.mjs` migrates. On PGlite, or on a fresh
 * PostgreSQL database when DATABASE_URL is set.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevIdp } from '../../src/dev-idp/dev-idp'
import { createPgDatabase } from '../helpers/db'
import { storyPackage } from '../helpers/publishing'
import { freePort } from '../helpers/server-process'

const API_DIR = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

let dir: string
let pg: Awaited<ReturnType<typeof createPgDatabase>> | undefined
let idp: Awaited<ReturnType<typeof startDevIdp>>
let server: ChildProcess | undefined
let stderr = ''

/** The environment of a built process: nothing of the test's own, the database chosen here. */
const env = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  NODE_ENV: 'test',
  LOG_LEVEL: 'error',
  ...(pg ? { DATABASE_URL: pg.url } : { PGLITE_DIR: 'memory://' }),
  ...extra,
})

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spkg-api-build-'))
  pg = process.env.DATABASE_URL ? await createPgDatabase() : undefined
  idp = await startDevIdp({ audience: 'spkg-api' })
  await run(process.execPath, ['--import', 'tsx', 'build.ts'], { cwd: API_DIR })
}, 120_000)

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server?.once('exit', r))
    server.kill('SIGTERM')
    await exited
  }
  await idp?.close()
  await pg?.drop()
  await rm(dir, { recursive: true, force: true })
}, 60_000)

describe('the built API (dist/bin)', () => {
  it('holds the server, the migration command and the validation worker, as JavaScript only', async () => {
    const files = (await readdir(join(API_DIR, 'dist/bin'))).filter((f) => !f.endsWith('.map'))
    expect(files.sort()).toEqual(['migrate-cli.mjs', 'server.mjs', 'validate-worker.mjs'])
  })

  // On PostgreSQL only: an in-memory PGlite takes tens of seconds to start under load, and the server's own start
  // below migrates it through the same bundled code.
  it.skipIf(!process.env.DATABASE_URL)(
    'migrates with node dist/bin/migrate-cli.mjs',
    async () => {
      const { stdout } = await run(process.execPath, ['dist/bin/migrate-cli.mjs'], {
        cwd: API_DIR,
        env: env({}),
      })
      expect(stdout).toMatch(/migrations applied/)
    },
    60_000,
  )

  it('serves and publishes an upload with node dist/bin/server.mjs', async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    server = spawn(process.execPath, ['dist/bin/server.mjs'], {
      cwd: API_DIR,
      env: env({
        HOST: '127.0.0.1',
        PORT: String(port),
        OIDC_ISSUER: idp.issuer,
        OIDC_AUDIENCE: 'spkg-api',
        FILES_DIR: join(dir, 'files'),
        UPLOAD_TMP_DIR: join(dir, 'uploads'),
        SEED_EXAMPLES: 'false',
      }),
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    server.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString()
    })
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the built server exited: ${stderr}`)
      const up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
      if (up) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const auth = { authorization: `Bearer ${await idp.mintToken('dev-creator')}` }
    const created = await fetch(`${base}/api/stories`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'the-inn', title: 'The Inn', author: 'A', genre: 'mystery', content: '' }),
    })
    expect(created.status, await created.text()).toBe(201)
    const bytes = storyPackage()
    const res = await fetch(`${base}/api/stories/the-inn/versions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/vnd.spkg+zip' },
      body: bytes as Uint8Array<ArrayBuffer>,
    })
    const body = await res.text()
    expect(res.status, body).toBe(201)
    expect(JSON.parse(body)).toMatchObject({ slug: 'the-inn', version: '1.0.0', size: bytes.length })
    expect(stderr).not.toMatch(/esbuild|tsx/)
  }, 120_000)
})
