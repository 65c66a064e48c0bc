/**
 * Profiles: one per user and role.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from './index'
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

/** Creates or updates the caller's profile in one role; absent fields keep their value. */
export async function upsertProfile(
  db: Db,
  sub: string,
  role: string,
  fields: { displayName?: string | null; avatar?: string | null; bio?: string | null },
): Promise<ProfileRecord> {
  const [row] = await db
    .insert(profiles)
    .values({ sub, role, ...fields })
    .onConflictDoUpdate({ target: [profiles.sub, profiles.role], set: { ...fields, updatedAt: sql`now()` } })
    .returning(columns)
  if (!row) throw new Error('profile upsert returned no row')
  return toRecord(row)
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
