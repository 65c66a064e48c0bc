/**
 * Reading state per user and story with a revision: every write names the revision it read
 * (`If-Match`), and a conditional UPDATE makes a stale write fail instead of overwriting.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from './index'
import { readingProgress } from './schema'

/** A stored reading state. */
export interface ProgressRecord {
  state: unknown
  revision: number
  updatedAt: string
}

const cols = {
  state: readingProgress.state,
  revision: readingProgress.revision,
  updatedAt: readingProgress.updatedAt,
}
const toRecord = (r: { state: unknown; revision: number; updatedAt: Date }): ProgressRecord => ({
  ...r,
  updatedAt: new Date(r.updatedAt).toISOString(),
})
const key = (userSub: string, storyId: string) =>
  and(eq(readingProgress.userSub, userSub), eq(readingProgress.storyId, storyId))

/** The caller's saved state of one story. */
export async function getProgress(db: Db, userSub: string, storyId: string) {
  const [row] = await db.select(cols).from(readingProgress).where(key(userSub, storyId)).limit(1)
  return row ? toRecord(row) : undefined
}

/** The caller's saved stories. */
export async function listProgress(db: Db, userSub: string) {
  const rows = await db
    .select({
      key: readingProgress.storyId,
      revision: readingProgress.revision,
      updatedAt: readingProgress.updatedAt,
    })
    .from(readingProgress)
    .where(eq(readingProgress.userSub, userSub))
    .orderBy(asc(readingProgress.storyId))
  return rows.map((r) => ({ ...r, updatedAt: new Date(r.updatedAt).toISOString() }))
}

/** First save: inserts revision 1, or returns undefined when a state exists already. */
export async function createProgress(db: Db, userSub: string, storyId: string, state: unknown) {
  const [row] = await db
    .insert(readingProgress)
    .values({ userSub, storyId, state, revision: 1 })
    .onConflictDoNothing()
    .returning(cols)
  return row ? toRecord(row) : undefined
}

/**
 * Compare-and-set: writes when the stored revision is `ifRevision` (any revision when `'*'`), and
 * returns undefined otherwise.
 */
export async function updateProgress(
  db: Db,
  userSub: string,
  storyId: string,
  state: unknown,
  ifRevision: number | '*',
) {
  const cond =
    ifRevision === '*'
      ? key(userSub, storyId)
      : and(key(userSub, storyId), eq(readingProgress.revision, ifRevision))
  const [row] = await db
    .update(readingProgress)
    .set({ state, revision: sql`${readingProgress.revision} + 1`, updatedAt: sql`now()` })
    .where(cond)
    .returning(cols)
  return row ? toRecord(row) : undefined
}

/** Deletes a saved state (conditionally on `ifRevision` when given); false when nothing matched. */
export async function deleteProgress(db: Db, userSub: string, storyId: string, ifRevision?: number) {
  const cond =
    ifRevision === undefined
      ? key(userSub, storyId)
      : and(key(userSub, storyId), eq(readingProgress.revision, ifRevision))
  const rows = await db.delete(readingProgress).where(cond).returning({ r: readingProgress.revision })
  return rows.length > 0
}
