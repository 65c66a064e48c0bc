/**
 * The catalog: public read-only `/catalog/*` (published stories, their metadata, genres and
 * series) and moderator/administrator writes (publication, series). Instruction records never
 * appear here and cannot be published.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Db } from '../db/index'
import {
  deleteSeries,
  getSeries,
  insertSeries,
  listSeries,
  listSeriesStories,
  updateSeries,
} from '../db/series'
import { findStoryRef, getStory, listGenres, listStories, updateStory } from '../db/stories'
import { ApiError, errorResponses, sqlState } from '../errors'
import { withRole } from './route-auth'
import { PageQuerySchema, pageOf, SlugParamsSchema, SlugSchema, TimestampSchema } from './shared-schemas'
import { throttle } from './throttle'

const catalogExample = {
  slug: 'the-lighthouse',
  title: 'The Lighthouse',
  author: 'Ada Example',
  genre: 'mystery',
  instruction: 'lighthouse-howto',
  series: 'harbour-tales',
  seriesPosition: 1,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
}

const CatalogStorySchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    author: z.string(),
    genre: z.string(),
    instruction: z.string().nullable().meta({ description: 'slug of the linked instruction package' }),
    series: z.string().nullable(),
    seriesPosition: z.number().int().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'CatalogStory', examples: [catalogExample] })

const CatalogStoryDetailSchema = CatalogStorySchema.extend({ content: z.string() }).meta({
  id: 'CatalogStoryDetail',
  examples: [{ ...catalogExample, content: '# The Lighthouse\n\nThe lamp went dark at midnight.' }],
})

const CatalogQuerySchema = PageQuerySchema.extend({
  genre: z.string().max(50).optional(),
  series: SlugSchema.optional(),
})

const SeriesSchema = z
  .object({ slug: z.string(), title: z.string(), description: z.string(), stories: z.number().int() })
  .meta({
    id: 'Series',
    examples: [{ slug: 'harbour-tales', title: 'Harbour Tales', description: '', stories: 3 }],
  })

const SeriesDetailSchema = SeriesSchema.extend({
  items: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      author: z.string(),
      genre: z.string(),
      position: z.number().int().nullable(),
    }),
  ),
}).meta({
  id: 'SeriesDetail',
  examples: [
    {
      slug: 'harbour-tales',
      title: 'Harbour Tales',
      description: 'Stories by the sea',
      stories: 1,
      items: [
        {
          slug: 'the-lighthouse',
          title: 'The Lighthouse',
          author: 'Ada Example',
          genre: 'mystery',
          position: 1,
        },
      ],
    },
  ],
})

/** Body of POST /catalog/series. */
export const CreateSeriesSchema = z
  .strictObject({
    slug: SlugSchema,
    title: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
  })
  .meta({ id: 'CreateSeries', examples: [{ slug: 'harbour-tales', title: 'Harbour Tales' }] })

const UpdateSeriesSchema = z
  .strictObject({
    title: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'at least one field to change')
  .meta({ id: 'UpdateSeries', examples: [{ description: 'Stories by the sea' }] })

/** Body of PUT /catalog/stories/:slug: publication and series placement. */
export const CatalogPlacementSchema = z
  .strictObject({
    published: z.boolean().optional(),
    series: SlugSchema.nullable()
      .optional()
      .meta({ description: 'series slug; null removes the story from its series' }),
    seriesPosition: z.number().int().min(1).max(10_000).nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'at least one field to change')
  .meta({
    id: 'CatalogPlacement',
    examples: [{ published: true, series: 'harbour-tales', seriesPosition: 1 }],
  })

const toCatalog = <T extends { type?: unknown; owner?: unknown; published?: unknown }>(s: T) => {
  const { type: _t, owner: _o, published: _p, ...rest } = s
  return rest
}

const read = throttle('catalog-read')
const write = throttle('catalog-write')

/** The catalog routes. */
export const catalogRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/catalog/stories',
    {
      ...read,
      schema: {
        tags: ['catalog'],
        summary: 'Published stories',
        description: 'Public. Newest first; filter by `genre` or `series`. Throttled at 5/s and 30/min.',
        querystring: CatalogQuerySchema,
        response: { 200: pageOf(CatalogStorySchema, catalogExample), ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      const { page, limit, genre, series } = request.query
      const r = await listStories(db, { page, limit, genre, seriesSlug: series, publishedOnly: true })
      return { ...r, items: r.items.map(toCatalog) }
    },
  )

  app.get(
    '/catalog/stories/:slug',
    {
      ...read,
      schema: {
        tags: ['catalog'],
        summary: 'One published story with its content',
        params: SlugParamsSchema,
        response: { 200: CatalogStoryDetailSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      const story = await getStory(db, request.params.slug, { publishedOnly: true })
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      return { ...toCatalog(story), content: story.content ?? '' }
    },
  )

  app.get(
    '/catalog/genres',
    {
      ...read,
      schema: {
        tags: ['catalog'],
        summary: 'Genres of published stories with their counts',
        response: {
          200: z
            .object({ items: z.array(z.object({ genre: z.string(), stories: z.number().int() })) })
            .meta({ examples: [{ items: [{ genre: 'mystery', stories: 12 }] }] }),
          ...errorResponses(429),
        },
      },
    },
    async () => ({ items: await listGenres(db) }),
  )

  app.get(
    '/catalog/series',
    {
      ...read,
      schema: {
        tags: ['catalog'],
        summary: 'Series with their number of published stories',
        response: {
          200: z.object({ items: z.array(SeriesSchema) }).meta({
            examples: [
              { items: [{ slug: 'harbour-tales', title: 'Harbour Tales', description: '', stories: 3 }] },
            ],
          }),
          ...errorResponses(429),
        },
      },
    },
    async () => ({ items: await listSeries(db) }),
  )

  app.get(
    '/catalog/series/:slug',
    {
      ...read,
      schema: {
        tags: ['catalog'],
        summary: 'One series with its published stories in order',
        params: SlugParamsSchema,
        response: { 200: SeriesDetailSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      const s = await getSeries(db, request.params.slug)
      if (!s) throw new ApiError(404, 'NOT_FOUND', 'Series not found')
      const { id, ...rest } = s
      return { ...rest, items: await listSeriesStories(db, id) }
    },
  )

  const moderators = withRole(app, 'moderator', 'administrator')

  app.put(
    '/catalog/stories/:slug',
    {
      ...write,
      onRequest: moderators,
      schema: {
        tags: ['catalog'],
        summary: 'Publish, unpublish or place a story in a series',
        description:
          'Moderator or administrator. Instruction records cannot be published. Throttled by the catalog-write tier.',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        body: CatalogPlacementSchema,
        response: {
          200: CatalogStorySchema.extend({ published: z.boolean() }).meta({
            examples: [{ ...catalogExample, published: true }],
          }),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      const { slug } = request.params
      const ref = await findStoryRef(db, slug)
      if (!ref) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      if (ref.type === 'instruction') {
        throw new ApiError(400, 'VALIDATION_FAILED', 'Instruction packages never appear in the catalog')
      }
      const b = request.body
      let seriesId: string | null | undefined
      if (b.series === null) seriesId = null
      else if (b.series !== undefined) {
        const s = await getSeries(db, b.series)
        if (!s) throw new ApiError(400, 'VALIDATION_FAILED', `No series with slug "${b.series}"`)
        seriesId = s.id
      }
      await updateStory(db, slug, {
        ...(b.published !== undefined && { published: b.published }),
        ...(seriesId !== undefined && { seriesId }),
        ...(seriesId === null && { seriesPosition: null }),
        ...(b.seriesPosition !== undefined && { seriesPosition: b.seriesPosition }),
      })
      const story = await getStory(db, slug)
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      const { content: _c, ...rest } = story
      return { ...toCatalog(rest), published: story.published }
    },
  )

  app.post(
    '/catalog/series',
    {
      ...write,
      onRequest: moderators,
      schema: {
        tags: ['catalog'],
        summary: 'Create a series',
        description: 'Moderator or administrator. A duplicate slug is 409 SERIES_EXISTS.',
        security: [{ bearerAuth: [] }],
        body: CreateSeriesSchema,
        response: { 201: SeriesSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      try {
        await insertSeries(db, request.body)
      } catch (err) {
        if (sqlState(err) === '23505') {
          throw new ApiError(409, 'SERIES_EXISTS', `Series "${request.body.slug}" exists already`)
        }
        throw err
      }
      const s = await getSeries(db, request.body.slug)
      if (!s) throw new ApiError(404, 'NOT_FOUND', 'Series not found')
      const { id: _id, ...rest } = s
      return reply.code(201).send(rest)
    },
  )

  app.put(
    '/catalog/series/:slug',
    {
      ...write,
      onRequest: moderators,
      schema: {
        tags: ['catalog'],
        summary: 'Rename or describe a series',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        body: UpdateSeriesSchema,
        response: { 200: SeriesSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      if (!(await updateSeries(db, request.params.slug, request.body))) {
        throw new ApiError(404, 'NOT_FOUND', 'Series not found')
      }
      const s = await getSeries(db, request.params.slug)
      if (!s) throw new ApiError(404, 'NOT_FOUND', 'Series not found')
      const { id: _id, ...rest } = s
      return rest
    },
  )

  app.delete(
    '/catalog/series/:slug',
    {
      ...write,
      onRequest: moderators,
      schema: {
        tags: ['catalog'],
        summary: 'Delete a series (its stories stay, unassigned)',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      if (!(await deleteSeries(db, request.params.slug)))
        throw new ApiError(404, 'NOT_FOUND', 'Series not found')
      return reply.code(204).send(null)
    },
  )
}
