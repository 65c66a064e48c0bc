/**
 * /api/stories: story records, their create and update bodies and answers.
 */
import { LIMITS } from '@spkg/manifest'
import { z } from 'zod'
import { pageOf, SlugSchema, TimestampSchema } from './common'

const Title = z.string().trim().min(1).max(200)
const Author = z.string().trim().min(1).max(100)
const Genre = z.string().trim().min(1).max(50)
const Content = z.string().max(LIMITS.maxStoryContentChars)
const InstructionLink = SlugSchema.nullable().meta({
  description: 'slug of the instruction package this story links (package type `instruction`); null unlinks',
})

const example = {
  slug: 'the-lighthouse',
  title: 'The Lighthouse',
  author: 'Ada Example',
  genre: 'mystery',
  content: '# The Lighthouse\n\nThe lamp went dark at midnight.',
}

/** Body of POST /api/stories. */
export const CreateStorySchema = z
  .strictObject({
    slug: SlugSchema,
    title: Title,
    author: Author,
    genre: Genre,
    content: Content,
    type: z
      .enum(['story', 'instruction'])
      .default('story')
      .meta({ description: 'package type; instruction records never appear in lists or the catalog' }),
    instruction: InstructionLink.optional(),
  })
  .meta({ id: 'CreateStory', examples: [{ ...example, instruction: 'lighthouse-howto' }] })

/** Body of PUT /api/stories/:slug: any of the create fields except `slug` and `type`. */
export const UpdateStorySchema = z
  .strictObject({
    title: Title.optional(),
    author: Author.optional(),
    genre: Genre.optional(),
    content: Content.optional(),
    instruction: InstructionLink.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'at least one field to change')
  .meta({ id: 'UpdateStory', examples: [{ title: 'The Lighthouse (revised)' }] })

const summaryExample = {
  slug: 'the-lighthouse',
  title: 'The Lighthouse',
  author: 'Ada Example',
  genre: 'mystery',
  type: 'story' as const,
  owner: 'user-123',
  instruction: null,
  published: false,
  series: null,
  seriesPosition: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
}

/** A story record without its content, as lists give it. */
export const StorySummarySchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    author: z.string(),
    genre: z.string(),
    type: z.enum(['story', 'instruction']),
    owner: z.string().meta({ description: '`sub` of the creator' }),
    instruction: z.string().nullable(),
    published: z.boolean(),
    series: z.string().nullable(),
    seriesPosition: z.number().int().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'StorySummary', examples: [summaryExample] })

/** A story record with its content. */
export const StorySchema = StorySummarySchema.extend({ content: z.string() }).meta({
  id: 'Story',
  examples: [{ ...summaryExample, content: example.content }],
})

/** Answer of GET /api/stories: a page of {@link StorySummarySchema}. */
export const StoryPageSchema = pageOf(StorySummarySchema, summaryExample)
