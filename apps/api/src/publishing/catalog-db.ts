/**
 * The catalog's view of published packages (issue 18): published stories with the manifest metadata of their
 * published version, `package: {url, sha256, size, version, signature}`, `cover`, and the linked instruction's
 * package (an instruction is never listed, but its story leads to it). Filters: genre, tag, language, series
 * (the catalog series or the manifest's), and a text search on title and description.
 */
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../db/index'
import { series, stories, storyVersions } from '../db/schema'
import { ApiError } from '../errors'
import type { FileStorage } from '../storage/index'
import { fileUrl, packageRef } from './routes'
import { findVersion, setPublishedVersion, type VersionRow, versionById } from './versions-db'

const pv = alias(storyVersions, 'pv')
const instr = alias(stories, 'instr')
const ser = alias(series, 'ser')

/** Manifest fields the catalog shows (the rest of the manifest stays in the version's manifest route). */
export const CATALOG_MANIFEST_FIELDS = [
  'title',
  'intro',
  'author',
  'language',
  'direction',
  'description',
  'genre',
  'tags',
  'license',
  'age',
  'content_warnings',
  'series',
  'season',
  'entry',
  'series_name',
  'season_name',
  'duration',
  'readers',
  'offline',
  'preview',
  'type',
  'instruction',
  'stories',
] as const

/** Filters of {@link listCatalogStories}. */
export interface CatalogFilters {
  page: number
  limit: number
  genre?: string | undefined
  tag?: string | undefined
  language?: string | undefined
  series?: string | undefined
  q?: string | undefined
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const columns = {
  slug: stories.slug,
  title: stories.title,
  author: stories.author,
  genre: stories.genre,
  instruction: instr.slug,
  instructionId: stories.instructionId,
  series: ser.slug,
  seriesPosition: stories.seriesPosition,
  createdAt: stories.createdAt,
  updatedAt: stories.updatedAt,
  versionId: pv.id,
}

const from = (db: Db, select: typeof columns | { n: ReturnType<typeof count> }) =>
  db
    .select(select as typeof columns)
    .from(stories)
    .leftJoin(pv, eq(stories.publishedVersionId, pv.id))
    .leftJoin(instr, eq(stories.instructionId, instr.id))
    .leftJoin(ser, eq(stories.seriesId, ser.id))

function conditions(f: Partial<CatalogFilters> & { slug?: string }): SQL | undefined {
  const c: SQL[] = [eq(stories.published, true), eq(stories.type, 'story')]
  if (f.slug) c.push(eq(stories.slug, f.slug))
  if (f.genre) c.push(sql`coalesce(${pv.genre}, ${stories.genre}) = ${f.genre}`)
  if (f.tag) c.push(sql`${pv.tags} @> ${JSON.stringify([f.tag])}::jsonb`)
  if (f.language) c.push(sql`lower(${pv.language}) = lower(${f.language})`)
  if (f.series) c.push(sql`(${ser.slug} = ${f.series} or ${pv.series} = ${f.series})`)
  if (f.q) {
    const p = likePattern(f.q)
    c.push(
      sql`(coalesce(${pv.title}, ${stories.title}) ilike ${p} or coalesce(${pv.description}, '') ilike ${p})`,
    )
  }
  return and(...c)
}

type Row = { [K in keyof typeof columns]: unknown }

/** One catalog item (the catalog routes' `CatalogStory` plus the package fields). */
async function toItem(db: Db, storage: FileStorage, publicUrl: string, r: Row) {
  const version = r.versionId ? await versionById(db, r.versionId as string) : undefined
  const m = (version?.manifest ?? null) as Record<string, unknown> | null
  let instructionPackage = null
  if (r.instructionId) {
    const [rec] = await db
      .select({ id: stories.id, slug: stories.slug, title: stories.title })
      .from(stories)
      .where(eq(stories.id, r.instructionId as string))
      .limit(1)
    const iv = rec ? await findVersion(db, rec.id) : undefined
    if (rec)
      instructionPackage = {
        slug: rec.slug,
        title: (iv?.title ?? rec.title) as string,
        package: iv ? packageRef(iv, storage, publicUrl) : null,
      }
  }
  return {
    slug: r.slug as string,
    title: (typeof m?.title === 'string' ? m.title : r.title) as string,
    author: r.author as string,
    genre: (typeof m?.genre === 'string' ? m.genre : r.genre) as string,
    instruction: (r.instruction as string | null) ?? null,
    series: (r.series as string | null) ?? null,
    seriesPosition: (r.seriesPosition as number | null) ?? null,
    createdAt: new Date(r.createdAt as Date).toISOString(),
    updatedAt: new Date(r.updatedAt as Date).toISOString(),
    metadata: m
      ? Object.fromEntries(CATALOG_MANIFEST_FIELDS.filter((k) => k in m).map((k) => [k, m[k]]))
      : null,
    package: version ? packageRef(version, storage, publicUrl) : null,
    cover: version?.coverKey ? fileUrl(storage, publicUrl, version.coverKey) : null,
    instructionPackage,
  }
}

/** A page of the public catalog, newest first. */
export async function listCatalogStories(db: Db, storage: FileStorage, publicUrl: string, f: CatalogFilters) {
  const where = conditions(f)
  const rows = await from(db, columns)
    .where(where)
    .orderBy(desc(stories.createdAt), asc(stories.slug))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
  const [total] = await from(db, { n: count() }).where(where)
  const items = []
  for (const r of rows) items.push(await toItem(db, storage, publicUrl, r))
  return { items, page: f.page, limit: f.limit, total: Number((total as unknown as { n: number })?.n ?? 0) }
}

/** One published story of the catalog, or undefined. */
export async function getCatalogStory(db: Db, storage: FileStorage, publicUrl: string, slug: string) {
  const [row] = await from(db, columns).where(conditions({ slug })).limit(1)
  return row ? toItem(db, storage, publicUrl, row) : undefined
}

/**
 * `PUT /catalog/stories/:slug` with `published` and `version`: the version to publish (default the newest). A story
 * without any valid version (nothing uploaded, or not the named version) is 409 NO_VALID_VERSION: the issue's
 * "Publishing a story with no valid version is 409" (only validated packages are ever stored as versions).
 * `published: false` alone unpublishes, version or not. Returns true when it set `published`.
 */
export async function applyPublication(
  db: Db,
  storyId: string,
  b: { published?: boolean | undefined; version?: string | undefined },
): Promise<boolean> {
  if (b.version === undefined && b.published !== true) return false
  let row: VersionRow | undefined
  if (b.version !== undefined) {
    row = await findVersion(db, storyId, b.version)
    if (!row) throw new ApiError(409, 'NO_VALID_VERSION', `This story has no version ${b.version}`)
  } else row = await findVersion(db, storyId)
  if (!row)
    throw new ApiError(
      409,
      'NO_VALID_VERSION',
      'This story has no valid version to publish: upload its package first (POST /api/stories/:slug/versions)',
    )
  await setPublishedVersion(db, storyId, row.id)
  if (b.published === false) await db.update(stories).set({ published: false }).where(eq(stories.id, storyId))
  return true
}
