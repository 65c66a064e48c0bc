/**
 * The catalog's view of published packages: published stories with the manifest metadata of their
 * published version, `package: {url, sha256, size, version, signature}`, `cover`, and the linked instruction's
 * package (an instruction is never listed, but its story leads to it). Filters: genre, tag, language, series
 * (the catalog series or the manifest's), and a text search on title and description.
 */
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { ApiError } from '../errors'
import type { FileStorage } from '../storage/create-storage'
import type { Db } from './connection'
import { series, stories, storyVersions } from './schema'
import { fileUrl, packageRef } from './version-views'
import { findVersion, setPublishedVersion, type VersionRow } from './versions'

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

/**
 * A manifest field whose JSON text is longer than this is left out of `metadata`. The manifest bounds
 * (docs/manifest-limits.md) keep the catalog's text fields below it (a 10,000-character `description` is at most
 * 60,000 bytes of JSON); a version stored before those bounds can hold more, and the catalog never sends it (the
 * version's manifest route still does).
 */
export const CATALOG_FIELD_MAX_BYTES = 65_536

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

const fieldList = sql.raw(`array[${CATALOG_MANIFEST_FIELDS.map((k) => `'${k}'`).join(', ')}]::text[]`)

/**
 * The catalog fields of the published version's manifest, projected in the database: only these keys (each at most
 * {@link CATALOG_FIELD_MAX_BYTES} of JSON) leave it, never the whole manifest. `|| '{}'` under `offset 0` reads a
 * stored (TOASTed) manifest once per row, not once per field: 11 against 194 ms for five rows of 4 MiB manifests
 * on PostgreSQL 15.
 */
const metadata = sql<Record<string, unknown> | null>`case when ${pv.id} is null then null else (
  select coalesce(jsonb_object_agg(f.k, f.v), '{}'::jsonb)
  from (
    select k, m.doc -> k as v
    from (select ${pv.manifest} || '{}'::jsonb as doc offset 0) m, unnest(${fieldList}) as k
  ) f
  where f.v is not null and octet_length(f.v::text) <= ${CATALOG_FIELD_MAX_BYTES}
) end`

/** The instruction's newest version: only what its package reference shows. */
const instructionVersion = (db: Db) =>
  db
    .select({
      title: storyVersions.title,
      version: storyVersions.version,
      sha256: storyVersions.sha256,
      size: storyVersions.size,
      signature: storyVersions.signature,
    })
    .from(storyVersions)
    .where(eq(storyVersions.storyId, instr.id))
    .orderBy(desc(storyVersions.createdAt))
    .limit(1)
    .as('iv')

const columns = {
  slug: stories.slug,
  title: sql<string>`coalesce(${pv.title}, ${stories.title})`,
  author: stories.author,
  genre: sql<string>`coalesce(${pv.genre}, ${stories.genre})`,
  packageId: stories.packageId,
  instruction: instr.slug,
  instructionTitle: instr.title,
  series: ser.slug,
  seriesPosition: stories.seriesPosition,
  createdAt: stories.createdAt,
  updatedAt: stories.updatedAt,
  version: pv.version,
  sha256: pv.sha256,
  size: pv.size,
  signature: pv.signature,
  coverKey: pv.coverKey,
  metadata,
}

/** Which filters a query has: one prepared statement per combination, the values bound at execution. */
type Shape = {
  slug?: boolean
  genre?: boolean
  tag?: boolean
  language?: boolean
  series?: boolean
  q?: boolean
}

/** A query's value by name: a placeholder in a prepared statement, or the value itself. */
type Value = (name: string) => unknown

const placeholder: Value = (name) => sql.placeholder(name)

function conditions(s: Shape, ph: Value = placeholder): SQL | undefined {
  const c: SQL[] = [eq(stories.published, true), eq(stories.type, 'story')]
  if (s.slug) c.push(sql`${stories.slug} = ${ph('slug')}`)
  if (s.genre) c.push(sql`coalesce(${pv.genre}, ${stories.genre}) = ${ph('genre')}`)
  if (s.tag) c.push(sql`${pv.tags} @> ${ph('tags')}::jsonb`)
  if (s.language) c.push(sql`lower(${pv.language}) = lower(${ph('language')})`)
  if (s.series) c.push(sql`(${ser.slug} = ${ph('series')} or ${pv.series} = ${ph('series')})`)
  if (s.q)
    c.push(
      sql`(coalesce(${pv.title}, ${stories.title}) ilike ${ph('q')} or coalesce(${pv.description}, '') ilike ${ph('q')})`,
    )
  return and(...c)
}

/** The values of a query's placeholders. */
function params(f: Partial<CatalogFilters> & { slug?: string }) {
  return {
    ...(f.slug && { slug: f.slug }),
    ...(f.genre && { genre: f.genre }),
    ...(f.tag && { tags: JSON.stringify([f.tag]) }),
    ...(f.language && { language: f.language }),
    ...(f.series && { series: f.series }),
    ...(f.q && { q: likePattern(f.q) }),
  }
}

const shapeOf = (f: Partial<CatalogFilters> & { slug?: string }): Shape => ({
  slug: !!f.slug,
  genre: !!f.genre,
  tag: !!f.tag,
  language: !!f.language,
  series: !!f.series,
  q: !!f.q,
})

/**
 * The catalog's query for a page (or one story), in one round trip: the page of matching ids newest first with the
 * total (`count(*) over ()` on ids alone, before the limit), then per listed story its published version's package
 * columns and manifest projection and the instruction's newest package. `content` adds the record's text.
 */
function catalogQuery(db: Db, shape: Shape, withContent: boolean, ph: Value = placeholder) {
  const page = db.$with('page').as(
    db
      .select({ id: stories.id, total: sql<number>`count(*) over ()`.as('total') })
      .from(stories)
      .leftJoin(pv, eq(stories.publishedVersionId, pv.id))
      .leftJoin(ser, eq(stories.seriesId, ser.id))
      .where(conditions(shape, ph))
      .orderBy(desc(stories.createdAt), asc(stories.slug))
      .limit(ph('limit') as number)
      .offset(ph('offset') as number),
  )
  const iv = instructionVersion(db)
  return db
    .with(page)
    .select({
      ...columns,
      ...(withContent && { content: stories.content }),
      total: page.total,
      iv: {
        title: iv.title,
        version: iv.version,
        sha256: iv.sha256,
        size: iv.size,
        signature: iv.signature,
      },
    })
    .from(page)
    .innerJoin(stories, eq(stories.id, page.id))
    .leftJoin(pv, eq(stories.publishedVersionId, pv.id))
    .leftJoin(instr, eq(stories.instructionId, instr.id))
    .leftJoinLateral(iv, sql`true`)
    .leftJoin(ser, eq(stories.seriesId, ser.id))
    .orderBy(desc(stories.createdAt), asc(stories.slug))
}

/** Prepared catalog queries per database and shape: the SQL is built once, not per request. */
const prepared = new WeakMap<Db, Map<string, ReturnType<ReturnType<typeof catalogQuery>['prepare']>>>()

function preparedQuery(db: Db, f: Partial<CatalogFilters> & { slug?: string }, withContent: boolean) {
  const shape = shapeOf(f)
  const key = `${withContent ? 'd' : 'l'}${Object.values(shape)
    .map((v) => (v ? 1 : 0))
    .join('')}`
  const byShape = prepared.get(db) ?? new Map()
  prepared.set(db, byShape)
  const q = byShape.get(key) ?? catalogQuery(db, shape, withContent).prepare(`spkg_catalog_${key}`)
  byShape.set(key, q)
  return q
}

type Row = Awaited<ReturnType<typeof catalogQuery>>[number]

/** One catalog item (the catalog routes' `CatalogStory` plus the package fields). */
function toItem(storage: FileStorage, publicUrl: string, r: Row) {
  // A left-joined version's columns are null when there is none.
  const ref = (v: {
    version: string | null
    sha256: string | null
    size: number | null
    signature: string | null
  }) =>
    v.version !== null && v.sha256 !== null && v.size !== null && v.signature !== null
      ? packageRef(
          { version: v.version, sha256: v.sha256, size: v.size, signature: v.signature },
          storage,
          publicUrl,
        )
      : null
  const iv = r.iv
  return {
    slug: r.slug,
    title: r.title,
    author: r.author,
    genre: r.genre,
    packageId: r.packageId ?? null,
    instruction: r.instruction ?? null,
    series: r.series ?? null,
    seriesPosition: r.seriesPosition ?? null,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    metadata: r.metadata ?? null,
    package: ref(r),
    cover: r.coverKey ? fileUrl(storage, publicUrl, r.coverKey) : null,
    instructionPackage:
      r.instruction !== null
        ? {
            slug: r.instruction,
            title: iv?.title ?? (r.instructionTitle as string),
            package: iv ? ref(iv) : null,
          }
        : null,
  }
}

/** The query of one catalog page with its values bound (`bench/api` prints its plan). */
export function catalogPageQuery(db: Db, f: CatalogFilters) {
  const values: Record<string, unknown> = { ...params(f), limit: f.limit, offset: (f.page - 1) * f.limit }
  return catalogQuery(db, shapeOf(f), false, (name) => values[name])
}

/** A page of the public catalog, newest first: one prepared query (a second, for the total, past the last page). */
export async function listCatalogStories(db: Db, storage: FileStorage, publicUrl: string, f: CatalogFilters) {
  const rows: Row[] = await preparedQuery(db, f, false).execute({
    ...params(f),
    limit: f.limit,
    offset: (f.page - 1) * f.limit,
  })
  let total = Number(rows[0]?.total ?? 0)
  if (rows.length === 0 && f.page > 1) {
    const [n] = await db
      .select({ n: count() })
      .from(stories)
      .leftJoin(pv, eq(stories.publishedVersionId, pv.id))
      .leftJoin(ser, eq(stories.seriesId, ser.id))
      .where(conditions(shapeOf(f)))
      .execute(params(f))
    total = Number(n?.n ?? 0)
  }
  return { items: rows.map((r) => toItem(storage, publicUrl, r)), page: f.page, limit: f.limit, total }
}

/** One published story of the catalog with its content (one prepared query), or undefined. */
export async function getCatalogStory(db: Db, storage: FileStorage, publicUrl: string, slug: string) {
  const [row]: Row[] = await preparedQuery(db, { slug }, true).execute({ slug, limit: 1, offset: 0 })
  if (!row) return undefined
  return { ...toItem(storage, publicUrl, row), content: (row as { content?: string }).content ?? '' }
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
