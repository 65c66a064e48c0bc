/**
 * Profiles: one per user and role.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from './connection'
import { profiles } from './schema'

/** A profile as the API shows it. */
export interface ProfileRecord {
  role: string
  displayName: string | null
  avatar: string | null
  bio: string | null
  updatedAt: string
}

const columns = {
  role: profiles.role,
  displayName: profiles.displayName,
  avatar: profiles.avatar,
  bio: profiles.bio,
  updatedAt: profiles.updatedAt,
}

const toRecord = (r: { updatedAt: Date } & Omit<ProfileRecord, 'updatedAt'>): ProfileRecord => ({
  ...r,
  updatedAt: new Date(r.updatedAt).toISOString(),
})

/**
 * At most one `profile_changed` auth event per profile (user and role) in this interval: changes within it are
 * not recorded again, so profile writes (100 a minute allowed) cannot grow `auth_events` without bound: at most
 * 24 rows a day per user and role, 8,640 over the default 90-day retention.
 */
export const PROFILE_EVENT_INTERVAL = '1 hour'

/**
 * Creates or updates the caller's profile in one role; absent fields keep their value. `recordEvent` says whether
 * this change is due a `profile_changed` auth event (the first change, or the first after
 * {@link PROFILE_EVENT_INTERVAL}); decided in the same statement, so concurrent writes cannot both be due.
 */
export async function upsertProfile(
  db: Db,
  sub: string,
  role: string,
  fields: { displayName?: string | null; avatar?: string | null; bio?: string | null },
): Promise<{ profile: ProfileRecord; recordEvent: boolean }> {
  const [row] = await db
    .insert(profiles)
    .values({ sub, role, ...fields })
    .onConflictDoUpdate({
      target: [profiles.sub, profiles.role],
      set: {
        ...fields,
        updatedAt: sql`now()`,
        eventAt: sql`case when ${profiles.eventAt} <= now() - ${PROFILE_EVENT_INTERVAL}::interval then now() else ${profiles.eventAt} end`,
      },
    })
    .returning({ ...columns, recordEvent: sql<boolean>`${profiles.eventAt} = now()` })
  if (!row) throw new Error('profile upsert returned no row')
  const { recordEvent, ...profile } = row
  return { profile: toRecord(profile), recordEvent: recordEvent === true }
}

/** The caller's profile in one role. */
export async function getProfile(db: Db, sub: string, role: string): Promise<ProfileRecord | undefined> {
  const [row] = await db
    .select(columns)
    .from(profiles)
    .where(and(eq(profiles.sub, sub), eq(profiles.role, role)))
    .limit(1)
  return row ? toRecord(row) : undefined
}
