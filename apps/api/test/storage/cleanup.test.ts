/**
 * Files and records stay consistent across a crash between the two steps of storing or deleting (both drivers,
 * PGlite or PostgreSQL): the file is written before its record commits and deleted only after the record's
 * removal commits, so a crash leaves at most an unreferenced file, which the orphan sweep removes later; a record
 * never loses its file.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { isReferencedInDb } from '../../src/db/file-access'
import { storyVersions } from '../../src/db/schema'
import {
  deleteUnreferenced,
  type FileStorage,
  FsStorage,
  PACKAGE_CONTENT_TYPE,
  packageKey,
  SWEEP_GRACE_MS,
  sweepOrphans,
} from '../../src/storage/create-storage'
import { testAuthPlugin } from '../helpers/app'
import { createTestDb, type TestDb } from '../helpers/db'
import { insertStoredVersion, sha256 } from './fixtures'
import { startTestS3, type TestS3 } from './s3-server'

let tmp: string
let s3: TestS3
let tdb: TestDb
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spkg-cleanup-'))
  s3 = await startTestS3()
  tdb = await createTestDb()
}, 60_000)
afterAll(async () => {
  await tdb?.dispose()
  await s3?.close()
  await rm(tmp, { recursive: true, force: true })
})

class Crash extends Error {}

/** Removes a version as a route would: commit the removal, then delete its files; `crash` stops in between. */
async function removeVersion(storage: FileStorage, versionId: string, keys: string[], crash: boolean) {
  await tdb.db.transaction(async (tx) => {
    await tx.delete(storyVersions).where(eq(storyVersions.id, versionId))
  })
  if (crash) throw new Crash('process died after the commit')
  return deleteUnreferenced(storage, keys, isReferencedInDb(tdb.db))
}

const later = () => Date.now() + SWEEP_GRACE_MS + 60_000

/** Stores `size` random bytes as a package no record names (an orphan); its key. */
async function putOrphan(storage: FileStorage, size = 50): Promise<string> {
  const bytes = randomBytes(size)
  const key = packageKey(sha256(bytes))
  await storage.putBytes(key, bytes, { sha256: sha256(bytes), contentType: PACKAGE_CONTENT_TYPE })
  return key
}

/** Dates the files of `keys` under `root` back past the sweep's grace period. */
async function age(root: string, ...keys: string[]): Promise<void> {
  const old = new Date(Date.now() - 2 * SWEEP_GRACE_MS)
  for (const key of keys) await utimes(join(root, key), old, old)
}

/** Starts the app on `storage` and stops it: what a start-up sweep, when there is one, has done by then. */
async function startAndStop(
  env: Record<string, string | undefined>,
  options: Omit<NonNullable<Parameters<typeof buildApp>[1]>, 'authPlugin'>,
) {
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', ...env }), {
    authPlugin: testAuthPlugin,
    ...options,
  })
  await app.ready()
  await app.close()
}

describe.each([
  ['fs', async () => new FsStorage({ root: join(tmp, `root-${randomBytes(4).toString('hex')}`) })],
  ['s3', async () => s3.storage()],
] as Array<[string, () => Promise<FileStorage>]>)('storage clean-up (%s)', (_name, make) => {
  it('a crash between the file write and the record leaves an orphan the sweep removes after the grace period', async () => {
    const storage = await make()
    const key = await putOrphan(storage, 300)
    // ...the process dies here, before the version row is inserted.
    const isReferenced = isReferencedInDb(tdb.db)
    const now = await sweepOrphans(storage, isReferenced)
    expect(now.deleted).toEqual([]) // young: an upload may be between its two steps
    expect(await storage.stat(key)).not.toBeNull()
    const swept = await sweepOrphans(storage, isReferenced, { now: later })
    expect(swept.deleted).toEqual([key])
    expect(await storage.stat(key)).toBeNull()
  })

  it('a crash between the record removal and the file deletion leaves a file, never a record without one', async () => {
    const storage = await make()
    const v = await insertStoredVersion(tdb.db, storage, { owner: 'alice' })
    await expect(removeVersion(storage, v.versionId, [v.key, v.coverKey], true)).rejects.toBeInstanceOf(Crash)
    const [row] = await tdb.db.select().from(storyVersions).where(eq(storyVersions.id, v.versionId))
    expect(row).toBeUndefined()
    expect(await storage.stat(v.key)).not.toBeNull() // left behind...
    const swept = await sweepOrphans(storage, isReferencedInDb(tdb.db), { now: later })
    expect(swept.deleted.sort()).toEqual([v.key, v.coverKey].sort()) // ...and swept at the next start
    expect(await storage.stat(v.key)).toBeNull()
  })

  it('without a crash the files go at once, except those another record still names', async () => {
    const storage = await make()
    const a = await insertStoredVersion(tdb.db, storage, { owner: 'alice' })
    const b = await insertStoredVersion(tdb.db, storage, { owner: 'bob', bytes: a.bytes }) // same package bytes
    const r = await removeVersion(storage, a.versionId, [a.key, a.coverKey], false)
    expect(r?.deleted).toEqual([a.coverKey])
    expect(await storage.stat(a.key)).not.toBeNull() // b still names it
    expect(await storage.stat(b.key)).not.toBeNull()
    const swept = await sweepOrphans(storage, isReferencedInDb(tdb.db), { now: later })
    expect(swept.deleted).not.toContain(b.key)
    expect(swept.deleted).not.toContain(b.coverKey)
  })

  it('the sweep is bounded', async () => {
    const storage = await make()
    for (let i = 0; i < 4; i++) await putOrphan(storage, 10)
    const first = await sweepOrphans(storage, isReferencedInDb(tdb.db), { now: later, limit: 3 })
    expect(first.examined).toBe(3)
    expect(first.deleted).toHaveLength(3)
    const second = await sweepOrphans(storage, isReferencedInDb(tdb.db), { now: later, limit: 3 })
    expect(second.deleted).toHaveLength(1)
  })
})

describe('the app sweeps at start-up', () => {
  it('not with a database that holds no version (a fresh one would disown every file)', async () => {
    const empty = await createTestDb()
    try {
      const root = join(tmp, 'fresh-db-root')
      const storage = new FsStorage({ root })
      const key = await putOrphan(storage)
      await age(root, key)
      await startAndStop({ NODE_ENV: 'test' }, { db: empty.db, storage, sweepOrphans: true })
      expect(await storage.stat(key)).not.toBeNull()
    } finally {
      await empty.dispose()
    }
  })

  it('not with a test or in-memory database (it would disown the files of a shared folder)', async () => {
    const root = join(tmp, 'shared-root')
    const storage = new FsStorage({ root })
    const key = await putOrphan(storage)
    await age(root, key)
    for (const env of [{ NODE_ENV: 'test' }, { NODE_ENV: 'development', PGLITE_DIR: 'memory://' }]) {
      await startAndStop(env, { db: tdb.db, storage })
      expect(await storage.stat(key)).not.toBeNull()
    }
  })

  it('removes an old orphan and a stale temporary file, keeps referenced and young files', async () => {
    const root = join(tmp, 'app-root')
    const storage = new FsStorage({ root })
    const kept = await insertStoredVersion(tdb.db, storage, { owner: 'carol' })
    const orphanKey = await putOrphan(storage)
    const youngKey = await putOrphan(storage)
    await age(root, orphanKey, kept.key)
    await startAndStop({ NODE_ENV: 'test' }, { db: tdb.db, storage, sweepOrphans: true })
    expect(await storage.stat(orphanKey)).toBeNull()
    expect(await storage.stat(kept.key)).not.toBeNull()
    expect(await storage.stat(youngKey)).not.toBeNull()
  })
})
