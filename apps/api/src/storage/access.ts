/**
 * The database side of file access and clean-up: which committed version rows name a storage key
 * (`story_versions.sha256` for `packages/<sha256>.spkg`, `story_versions.cover_key` for covers).
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../db/index'
import { stories, storyVersions } from '../db/schema'
import type { CanReadFile } from '../routes/files'
import { hasRole } from '../routes/route-auth'
import type { IsReferenced } from './index'
import { keyHash } from './types'

const whereKey = (key: string) =>
  key.startsWith('packages/') ? eq(storyVersions.sha256, keyHash(key)) : eq(storyVersions.coverKey, key)

/**
 * The access rule of the files routes over the database: `'public'` when the published version of a story names
 * the file, `null` when no version names it, else true for the owner of a story whose version names it and for
 * moderators and administrators.
 */
export function canReadFileFromDb(db: Db): CanReadFile {
  return async (key, user) => {
    const rows = await db
      .select({
        owner: stories.ownerSub,
        published: stories.published,
        publishedVersionId: stories.publishedVersionId,
        versionId: storyVersions.id,
      })
      .from(storyVersions)
      .innerJoin(stories, eq(stories.id, storyVersions.storyId))
      .where(whereKey(key))
    if (rows.length === 0) return null
    if (rows.some((r) => r.published && r.publishedVersionId === r.versionId)) return 'public'
    if (!user) return false
    if (hasRole(user, 'moderator') || hasRole(user, 'administrator')) return true
    return rows.some((r) => r.owner === user.sub)
  }
}

/** Whether a committed version row names the key (for {@link deleteUnreferenced} and the orphan sweep). */
export function isReferencedInDb(db: Db): IsReferenced {
  return async (key) => {
    const [row] = await db.select({ id: storyVersions.id }).from(storyVersions).where(whereKey(key)).limit(1)
    return row !== undefined
  }
}
