/**
 * Reading state per user and story with a revision: every write names the revision it read
 * (`If-Match`), and a conditional UPDATE makes a stale write fail instead of overwriting.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from './connection'
import { readingProgress } from './schema'

/**
 * The per-user quota of saved reading states, enforced by the trigger `reading_progress_quota` (migration
 * 0002_storage_bounds, which holds the same figures): an insert or update over it fails with SQLSTATE
 * {@link PROGRESS_QUOTA_SQLSTATES}.
 */
export const PROGRESS_QUOTA = Object.freeze({
  /** Saved states per user: one per story being read. */
  states: 200,
  /** Bytes of JSON text over all of a user's states: 16 MiB, 30 of the largest states the engine bench makes. */
  bytes: 16 * 1024 * 1024,
})

/** SQLSTATEs of the quota trigger: over the count, over the bytes. */
export const PROGRESS_QUOTA_SQLSTATES = { states: 'RQ001', bytes: 'RQ002' } as const

/** What a write returns: never the state itself (reading it back would parse it). */
const written = { revision: readingProgress.revision, updatedAt: readingProgress.updatedAt }
const toWritten = (r: { revision: number; updatedAt: Date }) => ({
  revision: r.revision,
  updatedAt: new Date(r.updatedAt).toISOString(),
})
const key = (userSub: string, storyId: string) =>
  and(eq(readingProgress.userSub, userSub), eq(readingProgress.storyId, storyId))

/**
 * The caller's saved state of one story as JSON text, as the database holds it: validated when it was saved,
 * sent as is (no parse, no re-validation, no re-serialisation on the way out).
 */
export async function getProgressText(db: Db, userSub: string, storyId: string) {
  const [row] = await db
    .select({ text: readingProgress.state, revision: readingProgress.revision })
    .from(readingProgress)
    .where(key(userSub, storyId))
    .limit(1)
  return row
}

/** The revision of the caller's saved state of one story. */
export async function getRevision(db: Db, userSub: string, storyId: string) {
  const [row] = await db
    .select({ revision: readingProgress.revision })
    .from(readingProgress)
    .where(key(userSub, storyId))
    .limit(1)
  return row?.revision
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

/** A state to write: its JSON text (stored as is) and that text's size in bytes (for the quota). */
export interface StateText {
  text: string
  bytes: number
}

/** The JSON text of a state, measured. */
export function stateText(state: unknown): StateText {
  const text = JSON.stringify(state)
  return { text, bytes: Buffer.byteLength(text) }
}

/** First save: inserts revision 1, or returns undefined when a state exists already. */
export async function createProgress(db: Db, userSub: string, storyId: string, state: StateText) {
  const [row] = await db
    .insert(readingProgress)
    .values({ userSub, storyId, state: state.text, stateBytes: state.bytes, revision: 1 })
    .onConflictDoNothing()
    .returning(written)
  return row ? toWritten(row) : undefined
}

/**
 * Compare-and-set: writes when the stored revision is `ifRevision` (any revision when `'*'`), and
 * returns undefined otherwise.
 */
export async function updateProgress(
  db: Db,
  userSub: string,
  storyId: string,
  state: StateText,
  ifRevision: number | '*',
) {
  const cond =
    ifRevision === '*'
      ? key(userSub, storyId)
      : and(key(userSub, storyId), eq(readingProgress.revision, ifRevision))
  const [row] = await db
    .update(readingProgress)
    .set({
      state: state.text,
      stateBytes: state.bytes,
      revision: sql`${readingProgress.revision} + 1`,
      updatedAt: sql`now()`,
    })
    .where(cond)
    .returning(written)
  return row ? toWritten(row) : undefined
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
