/**
 * Queries of package publishing: story versions, the story's fixed package id, the published version,
 * registered signing keys, and what a stored file is referenced by. No SQL in the route files.
 */
import { and, desc, eq, getTableColumns, or, sql } from 'drizzle-orm'
import { sqlState } from '../errors'
import type { Db } from './connection'
import { signingKeys, stories, storyVersions } from './schema'

/** A story record as publishing needs it. */
export interface StoryRef {
  id: string
  slug: string
  owner: string
  type: 'story' | 'instruction'
  packageId: string | null
  published: boolean
  publishedVersionId: string | null
}

/** The story record by slug, or undefined. */
export async function findStoryForPublishing(db: Db, slug: string): Promise<StoryRef | undefined> {
  const [row] = await db
    .select({
      id: stories.id,
      slug: stories.slug,
      owner: stories.ownerSub,
      type: stories.type,
      packageId: stories.packageId,
      published: stories.published,
      publishedVersionId: stories.publishedVersionId,
    })
    .from(stories)
    .where(eq(stories.slug, slug))
    .limit(1)
  return row as StoryRef | undefined
}

/** A version row as the API shows it. */
export type VersionRow = typeof storyVersions.$inferSelect

/** Fields of a new version. */
export type NewVersion = typeof storyVersions.$inferInsert

/** Why {@link insertVersion} refused. */
export type InsertRefusal =
  | { kind: 'id-mismatch'; expected: string }
  | { kind: 'version-exists' }
  | { kind: 'quota'; used: number }

/** The bytes of every version `sub` uploaded (what counts against the quota). */
export async function storedBytesOf(db: Db, sub: string): Promise<number> {
  const [used] = await db
    .select({ n: sql<string>`coalesce(sum(${storyVersions.size}), 0)` })
    .from(storyVersions)
    .where(eq(storyVersions.uploaderSub, sub))
  return Number(used?.n ?? 0)
}

/**
 * Inserts a version in one transaction: the story row is locked, the first version fixes the story's package id,
 * a different id or an existing version string is refused, and the uploader's stored bytes (over every story)
 * must stay within `quotaBytes`, counted under a per-uploader advisory lock (`spkg-quota:<sub>`, held to the end
 * of the transaction): concurrent uploads of one user to different stories are counted one after the other.
 * Concurrent uploads of one version: the unique index lets exactly one commit. Locks in this order: the files'
 * (the caller's `withFileLock`), the story row, the uploader; nothing takes them in another order.
 */
export async function insertVersion(
  db: Db,
  v: NewVersion,
  quotaBytes: number,
): Promise<{ ok: true; row: VersionRow } | { ok: false; refusal: InsertRefusal }> {
  try {
    return await db.transaction(async (tx) => {
      const [story] = await tx
        .select({ packageId: stories.packageId })
        .from(stories)
        .where(eq(stories.id, v.storyId))
        .for('update')
      if (story?.packageId && story.packageId !== v.packageId)
        return { ok: false as const, refusal: { kind: 'id-mismatch' as const, expected: story.packageId } }
      const [exists] = await tx
        .select({ id: storyVersions.id })
        .from(storyVersions)
        .where(and(eq(storyVersions.storyId, v.storyId), eq(storyVersions.version, v.version)))
        .limit(1)
      if (exists) return { ok: false as const, refusal: { kind: 'version-exists' as const } }
      // The story row lock alone lets two uploads to different stories sum the same committed rows and both pass.
      // Read committed: the sum below is a new statement, so it sees what the previous holder committed.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`spkg-quota:${v.uploaderSub}`}, 0))`,
      )
      const usedBytes = await storedBytesOf(tx as unknown as Db, v.uploaderSub)
      if (usedBytes + v.size > quotaBytes)
        return { ok: false as const, refusal: { kind: 'quota' as const, used: usedBytes } }
      const [row] = await tx.insert(storyVersions).values(v).returning()
      if (!story?.packageId)
        await tx.update(stories).set({ packageId: v.packageId }).where(eq(stories.id, v.storyId))
      return { ok: true as const, row: row as VersionRow }
    })
  } catch (err) {
    // The unique index (story, version): a concurrent upload of the same version committed first.
    if (sqlState(err) === '23505') return { ok: false, refusal: { kind: 'version-exists' } }
    throw err
  }
}

/** A version row as the versions list shows it: every column but the manifest. */
export type ListedVersion = Omit<VersionRow, 'manifest'>

/**
 * Versions of a story, newest first, without their manifests: the list shows none of it, and a manifest is only
 * read by the route that returns it (`GET /catalog/stories/:slug/versions/:version/manifest`).
 */
export async function listVersions(db: Db, storyId: string): Promise<ListedVersion[]> {
  const { manifest: _manifest, ...listed } = getTableColumns(storyVersions)
  return db
    .select(listed)
    .from(storyVersions)
    .where(eq(storyVersions.storyId, storyId))
    .orderBy(desc(storyVersions.createdAt), desc(storyVersions.version))
}

/** Whether a story has a version of this string (its id only: a manifest is never read back to answer 409). */
export async function versionExists(db: Db, storyId: string, version: string): Promise<boolean> {
  const [row] = await db
    .select({ id: storyVersions.id })
    .from(storyVersions)
    .where(and(eq(storyVersions.storyId, storyId), eq(storyVersions.version, version)))
    .limit(1)
  return row !== undefined
}

/** One top-level field of the newest version's manifest (undefined without a version or the field), not the manifest. */
export async function latestManifestField(
  db: Db,
  storyId: string,
  field: 'stories' | 'instruction',
): Promise<unknown> {
  const [row] = await db
    .select({ value: sql<unknown>`${storyVersions.manifest} -> ${field}` })
    .from(storyVersions)
    .where(eq(storyVersions.storyId, storyId))
    .orderBy(desc(storyVersions.createdAt))
    .limit(1)
  return row?.value ?? undefined
}

/** One version of a story by its version string, or the newest when `version` is undefined. */
export async function findVersion(
  db: Db,
  storyId: string,
  version?: string,
): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(storyVersions)
    .where(
      version === undefined
        ? eq(storyVersions.storyId, storyId)
        : and(eq(storyVersions.storyId, storyId), eq(storyVersions.version, version)),
    )
    .orderBy(desc(storyVersions.createdAt))
    .limit(1)
  return row
}

/** A version by id. */
export async function versionById(db: Db, id: string): Promise<VersionRow | undefined> {
  const [row] = await db.select().from(storyVersions).where(eq(storyVersions.id, id)).limit(1)
  return row
}

/** Adds a warning to a stored version (instruction links found after the upload). */
export async function addVersionWarnings(db: Db, id: string, warnings: unknown[]): Promise<void> {
  if (warnings.length === 0) return
  await db
    .update(storyVersions)
    .set({ warnings: sql`${storyVersions.warnings} || ${JSON.stringify(warnings)}::jsonb` })
    .where(eq(storyVersions.id, id))
}

/** The signify public keys a user registered. */
export async function signingKeysOf(db: Db, sub: string) {
  return db
    .select({
      fingerprint: signingKeys.fingerprint,
      publicKey: signingKeys.publicKey,
      createdAt: signingKeys.createdAt,
    })
    .from(signingKeys)
    .where(eq(signingKeys.sub, sub))
    .orderBy(signingKeys.createdAt)
}

/** Replaces a user's registered keys. */
export async function replaceSigningKeys(
  db: Db,
  sub: string,
  keys: Array<{ fingerprint: string; publicKey: string }>,
) {
  await db.transaction(async (tx) => {
    await tx.delete(signingKeys).where(eq(signingKeys.sub, sub))
    if (keys.length > 0) await tx.insert(signingKeys).values(keys.map((k) => ({ sub, ...k })))
  })
}

/** Sets the published version (and `published`), or unpublishes. */
export async function setPublishedVersion(db: Db, storyId: string, versionId: string | null) {
  await db
    .update(stories)
    .set({ publishedVersionId: versionId, published: versionId !== null, updatedAt: sql`now()` })
    .where(eq(stories.id, storyId))
}

/** Links a story to its instruction record. */
export async function linkInstruction(db: Db, storyId: string, instructionId: string | null) {
  await db.update(stories).set({ instructionId }).where(eq(stories.id, storyId))
}

/** What a manifest's name of another record (`instruction`, an entry of `stories`) resolves to. */
export type LinkTarget =
  | { kind: 'found'; id: string; slug: string }
  | { kind: 'none' }
  /** Only records of another owner have this name: never linked (a link would publish another creator's instruction). */
  | { kind: 'other-owner'; slug: string }
  /** Several records of the owner hold this package id (ids are not unique across stories). */
  | { kind: 'ambiguous'; slugs: string[] }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The record of type `type` a manifest names, by slug or by package id (how manifests name each other), as seen by
 * `owner`: a slug names one record; a package id names the one record of `owner` that holds it (none of theirs:
 * `other-owner` when another creator's record holds it; several of theirs: `ambiguous`). A record of another owner
 * is never `found`, so links form only between records of one owner.
 */
export async function findLinkTarget(
  db: Db,
  name: string,
  type: 'story' | 'instruction',
  owner: string,
): Promise<LinkTarget> {
  const rows = await db
    .select({ id: stories.id, slug: stories.slug, owner: stories.ownerSub })
    .from(stories)
    .where(
      and(
        eq(stories.type, type),
        UUID.test(name) ? or(eq(stories.slug, name), eq(stories.packageId, name)) : eq(stories.slug, name),
      ),
    )
    // The slug's record first, then the owner's: however many records of others hold the package id, the owner's
    // own are within the limit (else another creator could hide them behind 50 squatting records).
    .orderBy(desc(sql`${stories.slug} = ${name}`), desc(sql`${stories.ownerSub} = ${owner}`), stories.slug)
    .limit(50)
  const bySlug = rows.find((r) => r.slug === name)
  if (bySlug)
    return bySlug.owner === owner
      ? { kind: 'found', id: bySlug.id, slug: bySlug.slug }
      : { kind: 'other-owner', slug: bySlug.slug }
  const mine = rows.filter((r) => r.owner === owner)
  if (mine.length === 1 && mine[0]) return { kind: 'found', id: mine[0].id, slug: mine[0].slug }
  if (mine.length > 1) return { kind: 'ambiguous', slugs: mine.map((r) => r.slug) }
  if (rows[0]) return { kind: 'other-owner', slug: rows[0].slug }
  return { kind: 'none' }
}

/** The storage keys (packages and covers) the versions of a story name, for the clean-up after its deletion. */
export async function storageKeysOfStory(db: Db, storyId: string): Promise<string[]> {
  const rows = await db
    .select({ sha256: storyVersions.sha256, coverKey: storyVersions.coverKey })
    .from(storyVersions)
    .where(eq(storyVersions.storyId, storyId))
  return rows.flatMap((r) => [`packages/${r.sha256}.spkg`, ...(r.coverKey ? [r.coverKey] : [])])
}

/** What {@link deleteVersion} did. */
export interface DeletedVersion {
  /** Storage keys the deleted row named (removed after the commit unless another row names them). */
  keys: string[]
  /** The story's current version afterwards (null: none left). */
  current: string | null
  /** Whether the story is published afterwards. */
  published: boolean
}

/**
 * Deletes one version of a story in one transaction (the story row locked, as uploads lock it): when it was the
 * story's current (published) version, the newest remaining version takes its place, and the story is unpublished
 * when none remains. The story's package id stays fixed. Returns undefined when there is no such version.
 */
export async function deleteVersion(
  db: Db,
  storyId: string,
  version: string,
): Promise<DeletedVersion | undefined> {
  return db.transaction(async (tx) => {
    const [story] = await tx
      .select({ published: stories.published, publishedVersionId: stories.publishedVersionId })
      .from(stories)
      .where(eq(stories.id, storyId))
      .for('update')
    if (!story) return undefined
    const [row] = await tx
      .delete(storyVersions)
      .where(and(eq(storyVersions.storyId, storyId), eq(storyVersions.version, version)))
      .returning({ id: storyVersions.id, sha256: storyVersions.sha256, coverKey: storyVersions.coverKey })
    if (!row) return undefined
    const keys = [`packages/${row.sha256}.spkg`, ...(row.coverKey ? [row.coverKey] : [])]
    let currentId = story.publishedVersionId
    let published = story.published
    if (currentId === row.id) {
      const [next] = await tx
        .select({ id: storyVersions.id })
        .from(storyVersions)
        .where(eq(storyVersions.storyId, storyId))
        .orderBy(desc(storyVersions.createdAt), desc(storyVersions.version))
        .limit(1)
      currentId = next?.id ?? null
      if (!next) published = false
      await tx
        .update(stories)
        .set({ publishedVersionId: currentId, published, updatedAt: sql`now()` })
        .where(eq(stories.id, storyId))
    }
    const [current] = currentId
      ? await tx
          .select({ version: storyVersions.version })
          .from(storyVersions)
          .where(eq(storyVersions.id, currentId))
      : []
    return { keys, current: current?.version ?? null, published }
  })
}
