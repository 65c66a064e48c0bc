/**
 * File storage of the API: {@link createStorage} picks the driver from the configuration; the two
 * helpers below keep files and database records consistent.
 *
 * Order of operations, so that a crash never leaves a record without its file:
 * - storing: put the file FIRST, then commit the record. A crash in between leaves an unreferenced file, which
 *   {@link sweepOrphans} removes later (only files older than its grace period: an upload may be between its two
 *   steps right now).
 * - deleting: commit the record's removal FIRST, then {@link deleteUnreferenced}. A crash in between leaves an
 *   unreferenced file, swept later; a file is never deleted while a committed record still names it.
 * - files are shared by content: when an upload of the same bytes may run during a deletion, put the file and
 *   insert its record inside `withFileLock` and delete with `deleteFilesLocked` (src/db/file-access.ts), which takes
 *   the same per-key database lock; the app's sweep (at start-up, then every `SWEEP_INTERVAL_MS`) deletes that way.
 */
import { resolve } from 'node:path'
import type { Config } from '../config'
import { FsStorage } from './fs'
import { S3Storage, type S3StorageOptions } from './s3'
import type { FileStorage } from './types'

export { checkRange, FsStorage, type FsStorageOptions } from './fs'
export { S3Storage, type S3StorageOptions } from './s3'
export * from './types'

/** Extra options of {@link createStorage} (tests: explicit S3 credentials). */
export interface CreateStorageOptions {
  s3Credentials?: S3StorageOptions['credentials']
}

/**
 * The storage the configuration names: S3 when `S3_BUCKET` is set, else the filesystem under `FILES_DIR`.
 *
 * @example
 * const storage = createStorage(loadConfig(process.env))
 * await storage.putBytes(packageKey(sha), bytes, { sha256: sha, contentType: PACKAGE_CONTENT_TYPE })
 */
export function createStorage(
  config: Pick<Config, 'storage'>,
  options: CreateStorageOptions = {},
): FileStorage {
  const s = config.storage
  if (s.driver === 's3' && s.s3) {
    return new S3Storage({ ...s.s3, filesUrl: s.filesUrl, credentials: options.s3Credentials })
  }
  return new FsStorage({ root: resolve(s.dir), filesUrl: s.filesUrl })
}

/** Whether a committed database record still names `key`. */
export type IsReferenced = (key: string) => Promise<boolean>

/**
 * Deletes each of `keys` that no committed record names any more. Call it AFTER the transaction that removed
 * the records has committed. Failures are collected, not thrown: the files stay and the next sweep retries.
 *
 * @returns the keys deleted and the keys that could not be (with the error)
 */
export async function deleteUnreferenced(
  storage: FileStorage,
  keys: Iterable<string>,
  isReferenced: IsReferenced,
): Promise<{ deleted: string[]; failed: Array<{ key: string; error: unknown }> }> {
  const deleted: string[] = []
  const failed: Array<{ key: string; error: unknown }> = []
  for (const key of new Set(keys)) {
    try {
      if (await isReferenced(key)) continue
      await storage.delete(key)
      deleted.push(key)
    } catch (error) {
      failed.push({ key, error })
    }
  }
  return { deleted, failed }
}

/** Options of {@link sweepOrphans}. */
export interface SweepOptions {
  /** Files younger than this are left alone (an upload may not have committed its record yet). @default 1 hour */
  graceMs?: number
  /** At most this many files are looked at per prefix (bounded start-up work). @default 10_000 */
  limit?: number
  /** The clock. @default Date.now */
  now?: () => number
  /**
   * Deletes the candidates; default {@link deleteUnreferenced} with `isReferenced`. The app passes
   * `deleteFilesLocked` (src/db/file-access.ts), which checks and deletes under the lock uploads take.
   */
  remove?: (keys: string[]) => Promise<{ deleted: string[] }>
}

/** The default grace period of {@link sweepOrphans}. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000

/**
 * Removes stored files that no record names and that are older than the grace period, and the filesystem
 * driver's stale temporary files. Bounded: at most `limit` files per prefix are examined; the app runs it at
 * start-up and every `SWEEP_INTERVAL_MS` (src/app.ts).
 */
export async function sweepOrphans(
  storage: FileStorage,
  isReferenced: IsReferenced,
  options: SweepOptions = {},
): Promise<{ examined: number; deleted: string[]; tempRemoved: number }> {
  const grace = options.graceMs ?? SWEEP_GRACE_MS
  const limit = options.limit ?? 10_000
  const now = (options.now ?? Date.now)()
  let examined = 0
  const candidates: string[] = []
  for (const prefix of ['packages/', 'covers/'] as const) {
    for (const f of await storage.list(prefix, limit)) {
      examined++
      if (now - f.modifiedAt.getTime() >= grace) candidates.push(f.key)
    }
  }
  const { deleted } = options.remove
    ? await options.remove(candidates)
    : await deleteUnreferenced(storage, candidates, isReferenced)
  const tempRemoved = storage instanceof FsStorage ? await storage.removeStaleTemp(grace, now) : 0
  return { examined, deleted, tempRemoved }
}
