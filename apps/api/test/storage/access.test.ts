/**
 * The database access rule of the files routes (PGlite, or PostgreSQL with DATABASE_URL): published, unpublished,
 * unknown keys, roles, and the short cache of public verdicts (an injected clock).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { canReadFileFromDb } from '../../src/db/file-access'
import { stories } from '../../src/db/schema'
import { FsStorage, packageKey } from '../../src/storage/create-storage'
import { createTestDb, type TestDb } from '../helpers/db'
import { insertStoredVersion } from './fixtures'

let tmp: string
let tdb: TestDb
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spkg-access-'))
  tdb = await createTestDb()
}, 60_000)
afterAll(async () => {
  await tdb?.dispose()
  await rm(tmp, { recursive: true, force: true })
})

it('public, owner, staff, stranger, unknown', async () => {
  const storage = new FsStorage({ root: tmp })
  const can = canReadFileFromDb(tdb.db)
  const draft = await insertStoredVersion(tdb.db, storage, { owner: 'alice' })
  const live = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true })
  expect(await can(live.key, undefined)).toBe('public')
  expect(await can(live.coverKey, undefined)).toBe('public')
  expect(await can(draft.key, undefined)).toBe(false)
  expect(await can(draft.key, { sub: 'bob', roles: ['creator'] })).toBe(false)
  expect(await can(draft.key, { sub: 'alice', roles: ['creator'] })).toBe(true)
  expect(await can(draft.coverKey, { sub: 'm', roles: ['moderator'] })).toBe(true)
  expect(await can(draft.key, { sub: 'a', roles: ['administrator'] })).toBe(true)
  expect(await can(packageKey('0'.repeat(64)), { sub: 'a', roles: ['administrator'] })).toBeNull()
})

it('a public verdict is cached for publicTtlMs: unpublishing takes effect after it', async () => {
  const storage = new FsStorage({ root: tmp })
  let t = 1_000_000
  const can = canReadFileFromDb(tdb.db, { publicTtlMs: 5000, now: () => t })
  const v = await insertStoredVersion(tdb.db, storage, { owner: 'carol', published: true })
  expect(await can(v.key, undefined)).toBe('public')
  await tdb.db.update(stories).set({ published: false }).where(eq(stories.id, v.storyId))
  t += 4999
  expect(await can(v.key, undefined)).toBe('public')
  t += 2
  expect(await can(v.key, undefined)).toBe(false)
  const uncached = canReadFileFromDb(tdb.db, { publicTtlMs: 0 })
  expect(await uncached(v.key, undefined)).toBe(false)
})
