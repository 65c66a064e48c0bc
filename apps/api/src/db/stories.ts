/**
 * Story records: the queries behind /api/stories and the catalog. Instruction records
 * (`type = 'instruction'`) are excluded from every list; they are reached by slug or by link.
 */
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from './connection'
import { series, stories } from './schema'

/** A story record as the API shows it (without `content` in lists). */
export interface StoryRecord {
  slug: string
  title: string
  author: string
  genre: string
  type: 'story' | 'instruction'
  owner: string
  instruction: string | null
  published: boolean
  series: string | null
  seriesPosition: number | null
  createdAt: string
  updatedAt: string
  content?: string
}

const instr = alias(stories, 'instr')
const ser = alias(series, 'ser')

const summaryColumns = {
  slug: stories.slug,
  title: stories.title,
  author: stories.author,
  genre: stories.genre,
  type: stories.type,
  owner: stories.ownerSub,
  instruction: instr.slug,
  published: stories.published,
  series: ser.slug,
  seriesPosition: stories.seriesPosition,
  createdAt: stories.createdAt,
  updatedAt: stories.updatedAt,
}

type Row = {
  [K in keyof typeof summaryColumns]: unknown
} & { content?: string }

function toRecord(r: Row): StoryRecord {
  return {
    slug: r.slug as string,
    title: r.title as string,
    author: r.author as string,
    genre: r.genre as string,
    type: r.type as StoryRecord['type'],
    owner: r.owner as string,
    instruction: (r.instruction as string | null) ?? null,
    published: r.published as boolean,
    series: (r.series as string | null) ?? null,
    seriesPosition: (r.seriesPosition as number | null) ?? null,
    createdAt: new Date(r.createdAt as Date).toISOString(),
    updatedAt: new Date(r.updatedAt as Date).toISOString(),
    ...(r.content !== undefined && { content: r.content }),
  }
}

const base = (db: Db, withContent: boolean) =>
  db
    .select(withContent ? { ...summaryColumns, content: stories.content } : summaryColumns)
    .from(stories)
    .leftJoin(instr, eq(stories.instructionId, instr.id))
    .leftJoin(ser, eq(stories.seriesId, ser.id))

/** Options of {@link listStories}. */
export interface ListStoriesOptions {
  page: number
  limit: number
  /** Only published stories (the catalog). */
  publishedOnly?: boolean
  genre?: string
  seriesSlug?: string
}

/** A page of story records (never instructions), newest first, with the total. */
export async function listStories(db: Db, o: ListStoriesOptions) {
  const conds: SQL[] = [eq(stories.type, 'story')]
  if (o.publishedOnly) conds.push(eq(stories.published, true))
  if (o.genre) conds.push(eq(stories.genre, o.genre))
  if (o.seriesSlug) conds.push(eq(ser.slug, o.seriesSlug))
  const where = and(...conds)
  const rows = await base(db, false)
    .where(where)
    .orderBy(desc(stories.createdAt), asc(stories.slug))
    .limit(o.limit)
    .offset((o.page - 1) * o.limit)
  const [totalRow] = await db
    .select({ n: count() })
    .from(stories)
    .leftJoin(ser, eq(stories.seriesId, ser.id))
    .where(where)
  return { items: rows.map(toRecord), page: o.page, limit: o.limit, total: Number(totalRow?.n ?? 0) }
}

/** One record by slug, with content; `publishedOnly` hides unpublished records and instructions. */
export async function getStory(db: Db, slug: string, o: { publishedOnly?: boolean } = {}) {
  const conds: SQL[] = [eq(stories.slug, slug)]
  if (o.publishedOnly) conds.push(eq(stories.published, true), eq(stories.type, 'story'))
  const [row] = await base(db, true)
    .where(and(...conds))
    .limit(1)
  return row ? (toRecord(row) as StoryRecord & { content: string }) : undefined
}

/** Id, owner and type of a record, for permission checks and links. */
export async function findStoryRef(db: Db, slug: string) {
  const [row] = await db
    .select({ id: stories.id, owner: stories.ownerSub, type: stories.type })
    .from(stories)
    .where(eq(stories.slug, slug))
    .limit(1)
  return row
}

/** Fields of a new record. */
export interface NewStory {
  slug: string
  title: string
  author: string
  genre: string
  content: string
  type: 'story' | 'instruction'
  ownerSub: string
  instructionId: string | null
}

/** Inserts a record; a duplicate slug raises SQLSTATE 23505. */
export async function insertStory(db: Db, s: NewStory) {
  await db.insert(stories).values(s)
}

/** Fields a story update may change. */
export interface StoryChanges {
  title?: string
  author?: string
  genre?: string
  content?: string
  instructionId?: string | null
  published?: boolean
  seriesId?: string | null
  seriesPosition?: number | null
}

/** Updates a record; returns false when it does not exist. */
export async function updateStory(db: Db, slug: string, changes: StoryChanges): Promise<boolean> {
  const rows = await db
    .update(stories)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(stories.slug, slug))
    .returning({ id: stories.id })
  return rows.length > 0
}

/** Deletes a record; returns false when it does not exist. */
export async function deleteStory(db: Db, slug: string): Promise<boolean> {
  const rows = await db.delete(stories).where(eq(stories.slug, slug)).returning({ id: stories.id })
  return rows.length > 0
}

/** Published stories per genre (catalog). */
export async function listGenres(db: Db) {
  const rows = await db
    .select({ genre: stories.genre, stories: count() })
    .from(stories)
    .where(and(eq(stories.published, true), eq(stories.type, 'story')))
    .groupBy(stories.genre)
    .orderBy(asc(stories.genre))
  return rows.map((r) => ({ genre: r.genre, stories: Number(r.stories) }))
}
