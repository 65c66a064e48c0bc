/**
 * `Cache-Control` of the files routes by the state of the version (takedown): a public file is
 * immutable for a year; one of a story reported in the last 30 days five minutes (a takedown reaches caches without
 * a purge); a file only its owner, moderators and administrators read (under review, unpublished) `private,
 * no-cache`. Over the real database and the filesystem storage, the rule wired as the app wires it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { insertReport } from '../src/db/reports'
import { reports } from '../src/db/schema'
import { fileCacheFromDb, REPORT_WINDOW_MS } from '../src/routes/files/file-cache'
import { FsStorage } from '../src/storage/create-storage'
import { bearer, testAuthPlugin } from './helpers/app'
import { createTestDb, type TestDb } from './helpers/db'
import { insertStoredVersion, publish, type StoredVersion } from './storage/fixtures'

let tmp: string
let tdb: TestDb
let app: FastifyInstance
let storage: FsStorage
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spkg-files-cache-'))
  tdb = await createTestDb()
  storage = new FsStorage({ root: tmp })
  app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_MAX_FACTOR: '100' }), {
    db: tdb.db,
    authPlugin: testAuthPlugin,
    storage,
  })
  await app.ready()
}, 60_000)
afterAll(async () => {
  await app?.close()
  await tdb?.dispose()
  await rm(tmp, { recursive: true, force: true })
})

const cacheOf = async (key: string, headers: Record<string, string> = {}) => {
  const r = await app.inject({ url: `/files/${key}`, headers })
  expect(r.statusCode, r.body).toBe(200)
  return r.headers['cache-control']
}
const both = (v: StoredVersion) => [v.key, v.coverKey]

describe('Cache-Control follows the state of the version', () => {
  it('public files of an unreported story: immutable for a year', async () => {
    const v = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true })
    for (const key of both(v)) expect(await cacheOf(key)).toBe('public, max-age=31536000, immutable')
  })

  it('public files of a story reported in the window: five minutes, not immutable', async () => {
    const v = await insertStoredVersion(tdb.db, storage, {
      owner: 'alice',
      published: true,
      slug: 'reported-inn',
    })
    await insertReport(tdb.db, { userSub: 'reader', reason: 'other', storySlug: 'reported-inn', details: '' })
    for (const key of both(v)) expect(await cacheOf(key)).toBe('public, max-age=300')
  })

  it('a report older than the window no longer shortens it', async () => {
    const v = await insertStoredVersion(tdb.db, storage, {
      owner: 'alice',
      published: true,
      slug: 'old-report',
    })
    await tdb.db.insert(reports).values({
      userSub: 'reader-2',
      reason: 'other',
      storySlug: 'old-report',
      createdAt: new Date(Date.now() - REPORT_WINDOW_MS - 60_000),
    })
    expect(await cacheOf(v.key)).toBe('public, max-age=31536000, immutable')
  })

  it('files under review (unpublished) for their owner and moderators: private, no-cache', async () => {
    const v = await insertStoredVersion(tdb.db, storage, { owner: 'alice', slug: 'under-review' })
    for (const key of both(v)) {
      for (const h of [bearer('alice', 'creator'), bearer('mod', 'moderator')])
        expect(await cacheOf(key, h)).toBe('private, no-cache')
    }
    // Published, it is public and immutable (nothing reported it).
    await publish(tdb.db, v.storyId, v.versionId)
    expect(await cacheOf(v.key)).toBe('public, max-age=31536000, immutable')
  })
})

describe('fileCacheFromDb', () => {
  it('keeps an answer per key for its TTL, then asks again', async () => {
    let now = Date.now()
    const rule = fileCacheFromDb(tdb.db, { ttlMs: 1000, now: () => now })
    const v = await insertStoredVersion(tdb.db, storage, {
      owner: 'alice',
      published: true,
      slug: 'late-report',
    })
    expect(await rule(v.key)).toBe('immutable')
    await insertReport(tdb.db, {
      userSub: 'reader-3',
      reason: 'other',
      storySlug: 'late-report',
      details: '',
    })
    expect(await rule(v.key)).toBe('immutable')
    now += 1001
    expect(await rule(v.key)).toBe('reported')
  })
})
