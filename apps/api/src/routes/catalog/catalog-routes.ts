/**
 * The catalog: public read-only `/catalog/*` (published stories, their metadata, genres and
 * series) and moderator/administrator writes (publication, series). Instruction records never
 * appear here and cannot be published.
 */
import {
  CatalogFilterQuerySchema,
  CatalogPlacedSchema,
  CatalogPublicationSchema,
  CreateSeriesSchema,
  GenreListSchema,
  PublishedCatalogPageSchema,
  PublishedCatalogStoryDetailSchema,
  SeriesDetailSchema,
  SeriesListSchema,
  SeriesSchema,
  SlugParamsSchema,
  UpdateSeriesSchema,
} from '@spkg/api-contract'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { applyPublication, getCatalogStory, listCatalogStories } from '../../db/catalog'
import type { Db } from '../../db/connection'
import {
  deleteSeries,
  getSeries,
  insertSeries,
  listSeries,
  listSeriesStories,
  updateSeries,
} from '../../db/series'
import { findStoryRef, getStory, listGenres, updateStory } from '../../db/stories'
import { ApiError, errorResponses, sqlState } from '../../errors'
import { withRole } from '../../plugins/route-auth'
import { throttle } from '../../plugins/throttle'

const toCatalog = <T extends { type?: unknown; owner?: unknown; published?: unknown }>(s: T) => {
  const { type: _t, owner: _o, published: _p, ...rest } = s
  return rest
}

const read = throttle('catalog-read')
const write = throttle('catalog-write')

/** Options of {@link catalogRoutes}. */
export interface CatalogRoutesOptions {
  db: Db
  /** `PUBLIC_URL`: the catalog's file addresses are absolute under it. */
  publicUrl: string
}

/** The catalog routes. */
export const catalogRoutes: FastifyPluginAsyncZod<CatalogRoutesOptions> = async (app, { db, publicUrl }) => {
  app.get(
    '/catalog/stories',
    {
      ...read,
      schema: {
        tags: ['catalog'],
        summary: 'Published stories',
        description:
          'Public. Newest first; filter by `genre`, `tag`, `language`, `series` (catalog series or manifest `series`) and `q` ' +
          '(text in the title or description). A story with a published version shows its manifest metadata, `package`, ' +
          '`cover` and `instructionPackage`. Throttled at 5/s and 30/min.',
        querystring: CatalogFilterQuerySchema,
        response: { 200: PublishedCatalogPageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      const { storage } = app.publishing
      return listCatalogStories(db, storage, publicUrl, request.query)
    },
  )

  app.get(
    '/catalog/stories/:slug',
    {
      ...read,
      schema: {
        tags: ['catalog'],
        summary: 'One published story with its content and package',
        params: SlugParamsSchema,
        response: { 200: PublishedCatalogStoryDetailSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      const item = await getCatalogStory(db, app.publishing.storage, publicUrl, request.params.slug)
      if (!item) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      return item
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
          200: GenreListSchema,
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
          200: SeriesListSchema,
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
          'Moderator or administrator. Instruction records cannot be published. `version` names the version to ' +
          'publish; `published: true` alone publishes the newest; a story with no valid version (nothing uploaded, or not ' +
          'the named version) is 409 NO_VALID_VERSION. Throttled by the catalog-write tier.',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        body: CatalogPublicationSchema,
        response: {
          200: CatalogPlacedSchema,
          ...errorResponses(400, 401, 403, 404, 409, 429),
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
      // The files its publication makes public now: those that stop being public go to the CDN purge hook.
      const purge =
        b.published !== undefined || b.version !== undefined
          ? await app.filePurge.before([ref.id])
          : undefined
      // `published` with a package publishes a version (`version`, default the newest).
      const handled = await applyPublication(db, ref.id, b)
      await updateStory(db, slug, {
        ...(b.published !== undefined && !handled && { published: b.published }),
        ...(seriesId !== undefined && { seriesId }),
        ...(seriesId === null && { seriesPosition: null }),
        ...(b.seriesPosition !== undefined && { seriesPosition: b.seriesPosition }),
      })
      const story = await getStory(db, slug)
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      await app.filePurge.after(purge, story.published ? 'published-version-changed' : 'unpublished', slug)
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
