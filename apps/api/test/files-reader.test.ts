/**
 * The reader's range loader (`openPackageUrl` of @spkg/reader) against the API's files route over a real socket:
 * a published package opens with the diagnostics of the same bytes opened locally; an unpublished one fails with
 * `pkg/fetch-failed` for a stranger and opens with its owner's token.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPackage, openPackageUrl } from '@spkg/reader'
import { buildPackage } from '@spkg/test-utils'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { FsStorage } from '../src/storage/create-storage'
import { bearer, testAuthPlugin } from './helpers/app'
import { createTestDb, type TestDb } from './helpers/db'
import { insertStoredVersion } from './storage/fixtures'

let tmp: string
let tdb: TestDb
let app: FastifyInstance
let base: string
let seed = 7
const noise = new Uint8Array(400_000).map(() => {
  seed = (seed * 1_103_515_245 + 12_345) >>> 0
  return seed >>> 24
})
const pkg = buildPackage({
  manifest: { title: 'Served' },
  parts: { 'story/0001-start.sty': 'The lamp swings.\n'.repeat(5000), 'story/0002-next.sty': 'B\n' },
  assets: { 'assets/noise.png': noise },
  integrity: true,
})
const codes = (r: { diagnostics: { code: string; severity: string; path?: string }[] }) =>
  r.diagnostics.map((d) => `${d.severity} ${d.code} ${d.path ?? ''}`)

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spkg-files-reader-'))
  tdb = await createTestDb()
  app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_MAX_FACTOR: '100' }), {
    db: tdb.db,
    authPlugin: testAuthPlugin,
    storage: new FsStorage({ root: tmp }),
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
}, 60_000)
afterAll(async () => {
  await app?.close()
  await tdb?.dispose()
  await rm(tmp, { recursive: true, force: true })
})

it('a published package opens over ranges with the diagnostics of a local open', async () => {
  const v = await insertStoredVersion(tdb.db, app.storage, { owner: 'alice', bytes: pkg, published: true })
  let bytes = 0
  const remote = await openPackageUrl(`${base}/files/${v.key}`, {
    onBytes: (n) => {
      bytes += n
    },
    timeout: 10_000,
  })
  const local = await openPackage(pkg)
  expect(remote.ok).toBe(true)
  expect(codes(remote)).toEqual(codes(local))
  expect(bytes).toBeGreaterThan(0)
})

it('an unpublished package: refused to a stranger, opened with the owner token', async () => {
  const bytes = buildPackage({ manifest: { title: 'Draft' }, parts: { 'story/0001-start.sty': 'Draft.\n' } })
  const v = await insertStoredVersion(tdb.db, app.storage, { owner: 'bob', bytes })
  const stranger = await openPackageUrl(`${base}/files/${v.key}`, { timeout: 10_000, retries: 0 })
  expect(stranger.ok).toBe(false)
  expect(stranger.diagnostics.map((d) => d.code)).toContain('pkg/fetch-failed')
  const withToken: typeof fetch = (input, init) =>
    fetch(input, {
      ...init,
      headers: { ...Object.fromEntries(new Headers(init?.headers)), ...bearer('bob', 'creator') },
    })
  const owner = await openPackageUrl(`${base}/files/${v.key}`, { fetch: withToken, timeout: 10_000 })
  expect(owner.ok).toBe(true)
})
