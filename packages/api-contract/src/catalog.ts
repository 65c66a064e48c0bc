/**
 * The catalog: published stories, genres and series, and the moderators' placement and series bodies.
 */
import { z } from 'zod'
import { PageQuerySchema, pageOf, SlugSchema, TimestampSchema } from './common'

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

/** A published story in the catalog, without its content. */
export const CatalogStorySchema = z
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

/** A published story with its content. */
export const CatalogStoryDetailSchema = CatalogStorySchema.extend({ content: z.string() }).meta({
  id: 'CatalogStoryDetail',
  examples: [{ ...catalogExample, content: '# The Lighthouse\n\nThe lamp went dark at midnight.' }],
})

/** Answer of GET /catalog/stories. */
export const CatalogStoryPageSchema = pageOf(CatalogStorySchema, catalogExample)

/** Query of GET /catalog/stories. */
export const CatalogQuerySchema = PageQuerySchema.extend({
  genre: z.string().max(50).optional(),
  series: SlugSchema.optional(),
})

/** Answer of GET /catalog/genres. */
export const GenreListSchema = z
  .object({ items: z.array(z.object({ genre: z.string(), stories: z.number().int() })) })
  .meta({ examples: [{ items: [{ genre: 'mystery', stories: 12 }] }] })

/** A series with its number of published stories. */
export const SeriesSchema = z
  .object({ slug: z.string(), title: z.string(), description: z.string(), stories: z.number().int() })
  .meta({
    id: 'Series',
    examples: [{ slug: 'harbour-tales', title: 'Harbour Tales', description: '', stories: 3 }],
  })

/** Answer of GET /catalog/series. */
export const SeriesListSchema = z.object({ items: z.array(SeriesSchema) }).meta({
  examples: [{ items: [{ slug: 'harbour-tales', title: 'Harbour Tales', description: '', stories: 3 }] }],
})

/** A series with its published stories in order. */
export const SeriesDetailSchema = SeriesSchema.extend({
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

/** Body of PUT /catalog/series/:slug. */
export const UpdateSeriesSchema = z
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

/** Answer of PUT /catalog/stories/:slug: the catalog record with its publication flag. */
export const CatalogPlacedSchema = CatalogStorySchema.extend({ published: z.boolean() }).meta({
  examples: [{ ...catalogExample, published: true }],
})
