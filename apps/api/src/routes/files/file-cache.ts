/**
 * How long caches may keep a public file (takedown). Files are content-addressed, so a public file
 * is sent `immutable` for a year; but a story somebody reported may be taken down, and a CDN would keep serving its
 * files for that year. {@link fileCacheFromDb} says `'reported'` for a file of a story with a report filed in the last
 * {@link REPORT_WINDOW_MS}: the files route then sends it with a short lifetime (`REPORTED_CACHE` in ./files-routes.ts),
 * so a takedown reaches shared caches within minutes even without a purge (docs/operating.md, "Takedown").
 */
import { and, eq, gt, sql } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { reports, stories, storyVersions } from '../../db/schema'
import { keyHash } from '../../storage/types'

/** `'reported'`: a report names the story of a file recently; `'immutable'` otherwise. */
export type FileCacheOf = (key: string) => Promise<'immutable' | 'reported'>

/** How long after a report the files of its story are sent with a short lifetime: 30 days. */
export const REPORT_WINDOW_MS = 30 * 86_400_000

/** Options of {@link fileCacheFromDb}. */
export interface FileCacheOptions {
  /** @default REPORT_WINDOW_MS */
  windowMs?: number
  /** How long an answer is kept per key (a reader's burst of ranges costs one query). 0: none. @default 5000 */
  ttlMs?: number
  /** Keys kept at most (emptied when full). @default 10_000 */
  maxEntries?: number
  now?: () => number
}

/**
 * The rule over the database: `'reported'` when a story whose version names `key` has a report younger than the
 * window (`reports.story_slug`; reports have no resolution state, so only time lifts it).
 *
 * @example
 * await app.register(filesRoutes, { storage, canReadFile, cacheOf: fileCacheFromDb(db) })
 */
export function fileCacheFromDb(db: Db, options: FileCacheOptions = {}): FileCacheOf {
  const windowMs = options.windowMs ?? REPORT_WINDOW_MS
  const ttl = options.ttlMs ?? 5000
  const max = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const known = new Map<string, { until: number; verdict: 'immutable' | 'reported' }>()
  return async (key) => {
    const hit = known.get(key)
    if (hit && hit.until > now()) return hit.verdict
    const names = key.startsWith('packages/')
      ? eq(storyVersions.sha256, keyHash(key))
      : eq(storyVersions.coverKey, key)
    const since = new Date(now() - windowMs)
    const [row] = await db
      .select({ one: sql<number>`1` })
      .from(storyVersions)
      .innerJoin(stories, eq(stories.id, storyVersions.storyId))
      .innerJoin(reports, eq(reports.storySlug, stories.slug))
      .where(and(names, gt(reports.createdAt, since)))
      .limit(1)
    const verdict = row ? 'reported' : 'immutable'
    if (ttl > 0) {
      if (known.size >= max) known.clear()
      known.set(key, { until: now() + ttl, verdict })
    }
    return verdict
  }
}
