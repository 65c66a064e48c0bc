/**
 * Files never outlive a failed upload: an upload over the quota writes no file, a version insert
 * that throws (a real failing insert: a trigger raising an exception) removes the files of the request before the
 * answer, and the app sweeps unreferenced files periodically (`SWEEP_INTERVAL_MS`), not only at start-up.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import {
  FsStorage,
  PACKAGE_CONTENT_TYPE,
  type PutInfo,
  packageKey,
  SWEEP_GRACE_MS,
} from '../../src/storage/create-storage'
import { testAuthPlugin } from '../helpers/app'
import { createTestDb, type TestDb } from '../helpers/db'
import { filesIn, storyPackage, upload, usePublishingApp } from '../helpers/publishing'
import { insertStoredVersion, sha256 } from '../storage/fixtures'

/** The filesystem storage, counting the puts (what an upload writes). */
class CountingStorage extends FsStorage {
  puts: string[] = []
  override async putFile(key: string, localPath: string, info: PutInfo): Promise<void> {
    this.puts.push(key)
    await super.putFile(key, localPath, info)
  }
  override async putBytes(key: string, bytes: Uint8Array, info: PutInfo): Promise<void> {
    this.puts.push(key)
    await super.putBytes(key, bytes, info)
  }
}

describe('an upload that is not recorded leaves no file', () => {
  let storage: CountingStorage
  const one = storyPackage({ version: '1.0.0' })
  // Registered first, so it runs after the app is closed (afterAll hooks run in reverse order).
  afterAll(async () => storage && rm(storage.root, { recursive: true, force: true }))
  const t = usePublishingApp(async () => {
    storage = new CountingStorage({ root: await mkdtemp(join(tmpdir(), 'spkg-orphans-')) })
    return { storage, settings: { quotaBytes: Math.floor(one.length * 1.5) } }
  }, 'orphan-inn')
  beforeAll(async () => {
    // A real failing insert: the database refuses version 6.6.6 of any story with an exception.
    await t.tdb.db.execute(
      sql.raw(`create function spkg_test_refuse_version() returns trigger language plpgsql as $$
        begin raise exception 'injected insert failure'; end $$`),
    )
    await t.tdb.db.execute(
      sql.raw(`create trigger spkg_test_refuse_version before insert on story_versions
        for each row when (new.version = '6.6.6') execute function spkg_test_refuse_version()`),
    )
  }, 60_000)

  it('removes the package and cover it stored when the version insert throws (500, no row)', async () => {
    const res = await upload(t.app, 'orphan-inn', storyPackage({ version: '6.6.6', title: 'Doomed' }))
    expect(res.statusCode, res.body).toBe(500)
    expect(storage.puts.length).toBeGreaterThan(0) // the files were written...
    expect(await filesIn(join(storage.root, 'packages'))).toEqual([]) // ...and removed before the answer
    expect(await filesIn(join(storage.root, 'covers'))).toEqual([])
    expect(await filesIn(t.uploadsDir)).toEqual([])
    const list = await t.app.inject({
      url: '/api/stories/orphan-inn/versions',
      headers: { authorization: 'Bearer test:alice:creator' },
    })
    expect(list.json().items).toEqual([])
  })

  it('writes no file at all for an upload over the quota (413)', async () => {
    expect((await upload(t.app, 'orphan-inn', one)).statusCode).toBe(201)
    storage.puts = []
    const res = await upload(t.app, 'orphan-inn', storyPackage({ version: '2.0.0', title: 'Too much' }))
    expect(res.statusCode, res.body).toBe(413)
    expect(res.json()).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' })
    expect(storage.puts).toEqual([])
    expect(await filesIn(join(storage.root, 'packages'))).toHaveLength(1)
  })
})

describe('the periodic sweep', () => {
  let tdb: TestDb
  let root: string
  beforeAll(async () => {
    tdb = await createTestDb()
    root = await mkdtemp(join(tmpdir(), 'spkg-sweep-'))
  }, 60_000)
  afterAll(async () => {
    await tdb?.dispose()
    await rm(root, { recursive: true, force: true })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('removes an old unreferenced file every SWEEP_INTERVAL_MS after start-up, and stops on close', async () => {
    // Only the interval timers are fake: the database, the storage and expect.poll keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const storage = new FsStorage({ root })
    const kept = await insertStoredVersion(tdb.db, storage, { owner: 'carol' }) // the database is not empty
    const app = await buildApp(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SWEEP_INTERVAL_MS: '600000' }),
      { db: tdb.db, authPlugin: testAuthPlugin, storage, sweepOrphans: true },
    )
    try {
      await app.ready()
      // Written after the start-up sweep (a crash between a later upload's put and its insert), and an hour old.
      const orphan = randomBytes(64)
      const key = packageKey(sha256(orphan))
      await storage.putBytes(key, orphan, { sha256: sha256(orphan), contentType: PACKAGE_CONTENT_TYPE })
      const old = new Date(Date.now() - 2 * SWEEP_GRACE_MS)
      await utimes(join(root, key), old, old)
      await utimes(join(root, kept.key), old, old)
      vi.advanceTimersByTime(599_999)
      expect(await storage.stat(key)).not.toBeNull()
      vi.advanceTimersByTime(1)
      await expect.poll(() => storage.stat(key)).toBeNull()
      expect(await storage.stat(kept.key)).not.toBeNull()
    } finally {
      await app.close()
    }
    expect(vi.getTimerCount()).toBe(0) // the interval is cleared with the app
  })
})
