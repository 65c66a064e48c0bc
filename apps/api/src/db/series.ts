/**
 * Catalog series: ordered groups of published stories.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from './connection'
import { series, stories } from './schema'

/** A series as the catalog shows it. */
export interface SeriesRecord {
  slug: string
  title: string
  description: string
  stories: number
}

// Written out in full: inside a single-table select drizzle leaves `series.id` unqualified, which
// the subquery would resolve to `stories.id`.
const publishedCount = sql<number>`(select count(*) from "stories" s where s."series_id" = "series"."id"
  and s."published" = true and s."type" = 'story')`

/** All series with their number of published stories, by title. */
export async function listSeries(db: Db): Promise<SeriesRecord[]> {
  const rows = await db
    .select({
      slug: series.slug,
      title: series.title,
      description: series.description,
      stories: publishedCount,
    })
    .from(series)
    .orderBy(asc(series.title), asc(series.slug))
  return rows.map((r) => ({ ...r, stories: Number(r.stories) }))
}

/** One series by slug. */
export async function getSeries(db: Db, slug: string) {
  const [row] = await db
    .select({
      id: series.id,
      slug: series.slug,
      title: series.title,
      description: series.description,
      stories: publishedCount,
    })
    .from(series)
    .where(eq(series.slug, slug))
    .limit(1)
  return row ? { ...row, stories: Number(row.stories) } : undefined
}

/** Published stories of a series, in series order. */
export async function listSeriesStories(db: Db, seriesId: string) {
  return db
    .select({
      slug: stories.slug,
      title: stories.title,
      author: stories.author,
      genre: stories.genre,
      position: stories.seriesPosition,
    })
    .from(stories)
    .where(and(eq(stories.seriesId, seriesId), eq(stories.published, true), eq(stories.type, 'story')))
    .orderBy(sql`${stories.seriesPosition} asc nulls last`, asc(stories.slug))
}

/** Creates a series; a duplicate slug raises SQLSTATE 23505. */
export async function insertSeries(db: Db, s: { slug: string; title: string; description: string }) {
  await db.insert(series).values(s)
}

/** Updates a series; false when it does not exist. */
export async function updateSeries(db: Db, slug: string, changes: { title?: string; description?: string }) {
  const rows = await db
    .update(series)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(series.slug, slug))
    .returning({ id: series.id })
  return rows.length > 0
}

/** Deletes a series (its stories stay, unassigned); false when it does not exist. */
export async function deleteSeries(db: Db, slug: string) {
  const rows = await db.delete(series).where(eq(series.slug, slug)).returning({ id: series.id })
  return rows.length > 0
}
