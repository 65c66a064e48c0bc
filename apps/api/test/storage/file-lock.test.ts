/**
 * A deletion and an upload of the same content-addressed file at once (PGlite, or PostgreSQL with DATABASE_URL):
 * with the upload's put + insert inside `withFileLock`, `deleteFilesLocked` waits for it and then sees the record,
 * so it keeps the file. Without the lock the same interleaving deletes the file of a committed record.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { deleteFilesLocked, isReferencedInDb, withFileLock } from '../../src/db/file-access'
import { stories, storyVersions } from '../../src/db/schema'
import {
  deleteUnreferenced,
  FsStorage,
  PACKAGE_CONTENT_TYPE,
  packageKey,
} from '../../src/storage/create-storage'
import { createTestDb, type TestDb } from '../helpers/db'
import { sha256 } from './fixtures'

let tmp: string
let tdb: TestDb
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spkg-lock-'))
  tdb = await createTestDb()
}, 60_000)
afterAll(async () => {
  await tdb?.dispose()
  await rm(tmp, { recursive: true, force: true })
})

/** An upload of `bytes` that stops, holding its lock, until `proceed` resolves, then inserts its record. */
async function upload(storage: FsStorage, bytes: Buffer, proceed: Promise<void>, locked: () => void) {
  const hash = sha256(bytes)
  const key = packageKey(hash)
  await withFileLock(tdb.db, [key], async (tx) => {
    locked()
    await storage.putBytes(key, bytes, { sha256: hash, contentType: PACKAGE_CONTENT_TYPE }) // exists: no-op
    await proceed
    const [story] = await tx
      .insert(stories)
      .values({
        slug: `s-${randomBytes(4).toString('hex')}`,
        title: 't',
        author: 'a',
        genre: 'g',
        content: '',
        ownerSub: 'u',
      })
      .returning({ id: stories.id })
    await tx.insert(storyVersions).values({
      storyId: story!.id,
      version: '1.0.0',
      packageId: '00000000-0000-4000-8000-0000000000bb',
      sha256: hash,
      size: bytes.length,
      signature: 'unsigned',
      manifest: {},
      uploaderSub: 'u',
    })
  })
  return key
}

it('a locked deletion waits for the upload in progress and keeps the file', async () => {
  const storage = new FsStorage({ root: join(tmp, 'a') })
  const bytes = randomBytes(200)
  const key = packageKey(sha256(bytes))
  await storage.putBytes(key, bytes, { sha256: sha256(bytes), contentType: PACKAGE_CONTENT_TYPE }) // an orphan, for now
  let release!: () => void
  const proceed = new Promise<void>((r) => {
    release = r
  })
  let lockedResolve!: () => void
  const isLocked = new Promise<void>((r) => {
    lockedResolve = r
  })
  const uploading = upload(storage, bytes, proceed, lockedResolve)
  await isLocked
  let deletionDone = false
  const deleting = deleteFilesLocked(tdb.db, storage, [key]).then((r) => {
    deletionDone = true
    return r
  })
  if (tdb.kind === 'postgres') {
    // Until the deleter is queued behind the upload's advisory lock (PGlite runs one transaction at a time anyway).
    for (let i = 0; ; i++) {
      const rows = (await tdb.db.execute(
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
      )) as unknown as { rows?: Array<{ n: number }> } & Array<{ n: number }>
      if (((rows.rows ?? rows)[0]?.n ?? 0) > 0) break
      if (i > 2000) throw new Error('the deletion never waited for the lock')
    }
  } else await new Promise((r) => setImmediate(r))
  expect(deletionDone).toBe(false) // waiting for the upload's lock
  release()
  await uploading
  const r = await deleting
  expect(r.deleted).toEqual([])
  expect(await storage.stat(key)).not.toBeNull() // the committed record has its file
})

it('without the lock the same interleaving loses the file (why the lock exists)', async () => {
  const storage = new FsStorage({ root: join(tmp, 'b') })
  const bytes = randomBytes(200)
  const key = packageKey(sha256(bytes))
  await storage.putBytes(key, bytes, { sha256: sha256(bytes), contentType: PACKAGE_CONTENT_TYPE })
  // The deleter checks before the upload commits and deletes after it: nothing orders the two.
  const isReferenced = isReferencedInDb(tdb.db)
  const checkedFirst = await isReferenced(key)
  await upload(storage, bytes, Promise.resolve(), () => {})
  if (!checkedFirst) await storage.delete(key)
  expect(await isReferenced(key)).toBe(true)
  expect(await storage.stat(key)).toBeNull()
  // deleteUnreferenced on its own is safe only when nothing uploads the same bytes at the same time.
  expect((await deleteUnreferenced(storage, [key], isReferenced)).deleted).toEqual([])
})
