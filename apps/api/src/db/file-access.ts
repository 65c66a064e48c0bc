/**
 * The database side of file access and clean-up: which committed version rows name a storage key
 * (`story_versions.sha256` for `packages/<sha256>.spkg`, `story_versions.cover_key` for covers).
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { type AuthUser, hasRole } from '../roles'
import type { IsReferenced } from '../storage/create-storage'
import { type FileStorage, keyHash } from '../storage/types'
import type { Db } from './connection'
import { stories, storyVersions } from './schema'

const whereKey = (key: string) =>
  key.startsWith('packages/') ? eq(storyVersions.sha256, keyHash(key)) : eq(storyVersions.coverKey, key)

/**
 * Who may read a stored file: `'public'` (a published version names it: anyone), `true` (this caller may),
 * `false` (a record names it, but not for this caller) or `null` (no record names it: 404).
 * `user` is the caller when a valid bearer token came with the request.
 */
export type CanReadFile = (
  key: string,
  user: Pick<AuthUser, 'sub' | 'roles'> | undefined,
) => Promise<'public' | boolean | null>

/** Options of {@link canReadFileFromDb}. */
export interface PublicCacheOptions {
  /**
   * How long a file found public stays public without asking the database again (unpublishing takes effect
   * within this; shared caches keep public files for a year anyway). 0: no cache. @default 5000
   */
  publicTtlMs?: number
  /** The clock. @default Date.now */
  now?: () => number
  /** Cached keys at most (the cache is emptied when full). @default 10_000 */
  maxEntries?: number
}

/**
 * The access rule of the files routes over the database: `'public'` when the published version of a story names
 * the file, or a version of an instruction that a published story of the same owner links (the catalog leads
 * readers to it; another creator's story never makes an instruction public), `null`
 * when no version names it, else true for the owner of a story whose version names it and for moderators and
 * administrators.
 */
export function canReadFileFromDb(db: Db, options: PublicCacheOptions = {}): CanReadFile {
  const ttl = options.publicTtlMs ?? 5000
  const now = options.now ?? Date.now
  const max = options.maxEntries ?? 10_000
  /** Keys found public, until when: a reader's burst of range requests costs one query. */
  const publicUntil = new Map<string, number>()
  return async (key, user) => {
    const until = publicUntil.get(key)
    if (until !== undefined) {
      if (until > now()) return 'public'
      publicUntil.delete(key)
    }
    const rows = await db
      .select({
        owner: stories.ownerSub,
        published: stories.published,
        publishedVersionId: stories.publishedVersionId,
        versionId: storyVersions.id,
        storyId: stories.id,
        type: stories.type,
      })
      .from(storyVersions)
      .innerJoin(stories, eq(stories.id, storyVersions.storyId))
      .where(whereKey(key))
    if (rows.length === 0) return null
    if (
      rows.some((r) => r.published && r.publishedVersionId === r.versionId) ||
      (await isLinkedFromPublished(
        db,
        rows.filter((r) => r.type === 'instruction').map((r) => r.storyId),
      ))
    ) {
      if (ttl > 0) {
        if (publicUntil.size >= max) publicUntil.clear()
        publicUntil.set(key, now() + ttl)
      }
      return 'public'
    }
    if (!user) return false
    if (hasRole(user, 'moderator', 'administrator')) return true
    return rows.some((r) => r.owner === user.sub)
  }
}

/**
 * Whether a published story of the instruction's own owner links one of the instruction records `ids`: what makes an
 * instruction public (its owner published it by publishing a story of theirs that names it). A link across owners,
 * which no current code makes, is ignored. The files rule and the instruction's manifest route both ask this.
 */
export async function isLinkedFromPublished(db: Db, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return false
  const instr = alias(stories, 'instr')
  const [row] = await db
    .select({ id: stories.id })
    .from(stories)
    .innerJoin(instr, and(eq(instr.id, stories.instructionId), eq(instr.ownerSub, stories.ownerSub)))
    .where(and(inArray(stories.instructionId, [...ids]), eq(stories.published, true)))
    .limit(1)
  return row !== undefined
}

/** A transaction of {@link Db}. */
export type DbTx = Parameters<Parameters<Db['transaction']>[0]>[0]

async function referenced(db: Db | DbTx, key: string): Promise<boolean> {
  const [row] = await db.select({ id: storyVersions.id }).from(storyVersions).where(whereKey(key)).limit(1)
  return row !== undefined
}

/**
 * Whether the database holds any version row. The sweep runs only then: an empty database (a fresh one
 * pointed at an existing `FILES_DIR` or bucket) would disown every file there.
 */
export async function hasVersions(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: storyVersions.id }).from(storyVersions).limit(1)
  return row !== undefined
}

/** Whether a committed version row names the key (for {@link deleteUnreferenced} and the orphan sweep). */
export function isReferencedInDb(db: Db): IsReferenced {
  return (key) => referenced(db, key)
}

/**
 * Runs `fn` in a transaction holding a lock per key (`pg_advisory_xact_lock`, keys in order: no deadlock). Store a
 * file and insert the record naming it inside one such call: then {@link deleteFilesLocked}, which takes the same
 * lock, can never see "no record" and delete the file of a record that commits a moment later (content-addressed
 * files are shared: a deletion and an upload of the same bytes may run at once).
 */
export async function withFileLock<T>(
  db: Db,
  keys: readonly string[],
  fn: (tx: DbTx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    for (const key of [...new Set(keys)].sort())
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`spkg-file:${key}`}, 0))`)
    return fn(tx)
  })
}

/**
 * {@link deleteUnreferenced} under {@link withFileLock}: each key is checked and deleted while its lock is held.
 * Call it after the transaction that removed the records has committed.
 */
export async function deleteFilesLocked(
  db: Db,
  storage: FileStorage,
  keys: Iterable<string>,
): Promise<{ deleted: string[]; failed: Array<{ key: string; error: unknown }> }> {
  const deleted: string[] = []
  const failed: Array<{ key: string; error: unknown }> = []
  for (const key of new Set(keys)) {
    try {
      const gone = await withFileLock(db, [key], async (tx) => {
        if (await referenced(tx, key)) return false
        await storage.delete(key)
        return true
      })
      if (gone) deleted.push(key)
    } catch (error) {
      failed.push({ key, error })
    }
  }
  return { deleted, failed }
}
