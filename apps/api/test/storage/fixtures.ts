/**
 * Rows and files the storage and files-route tests share: a story with one version whose package (and cover) are
 * in the storage, inserted with the real schema.
 */
import { createHash, randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '../../src/db/connection'
import { stories, storyVersions } from '../../src/db/schema'
import {
  coverKey,
  type FileStorage,
  PACKAGE_CONTENT_TYPE,
  packageKey,
} from '../../src/storage/create-storage'

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

/** A stored version: its story, its keys and the bytes behind them. */
export interface StoredVersion {
  storyId: string
  versionId: string
  bytes: Uint8Array
  key: string
  cover: Uint8Array
  coverKey: string
}

/** Stores `bytes` (and a cover) and inserts a story owned by `owner` with one version naming them. */
export async function insertStoredVersion(
  db: Db,
  storage: FileStorage,
  options: { owner: string; bytes?: Uint8Array; published?: boolean; slug?: string },
): Promise<StoredVersion> {
  const bytes = options.bytes ?? randomBytes(4096)
  const hash = sha256(bytes)
  const cover = Buffer.concat([Buffer.from('\u0089PNG\r\n\u001a\n'), randomBytes(100)])
  const cKey = coverKey(sha256(cover), 'png')
  await storage.putBytes(packageKey(hash), bytes, { sha256: hash, contentType: PACKAGE_CONTENT_TYPE })
  await storage.putBytes(cKey, cover, { sha256: sha256(cover), contentType: 'image/png' })
  const [story] = await db
    .insert(stories)
    .values({
      slug: options.slug ?? `story-${randomBytes(4).toString('hex')}`,
      title: 'A story',
      author: 'Someone',
      genre: 'mystery',
      content: '',
      ownerSub: options.owner,
    })
    .returning({ id: stories.id })
  const [version] = await db
    .insert(storyVersions)
    .values({
      storyId: story!.id,
      version: '1.0.0',
      packageId: '00000000-0000-4000-8000-0000000000aa',
      sha256: hash,
      size: bytes.length,
      signature: 'unsigned',
      manifest: {},
      coverKey: cKey,
      uploaderSub: options.owner,
    })
    .returning({ id: storyVersions.id })
  if (options.published) await publish(db, story!.id, version!.id)
  return { storyId: story!.id, versionId: version!.id, bytes, key: packageKey(hash), cover, coverKey: cKey }
}

/** Publishes the version. */
export async function publish(db: Db, storyId: string, versionId: string): Promise<void> {
  await db
    .update(stories)
    .set({ published: true, publishedVersionId: versionId })
    .where(eq(stories.id, storyId))
}
