/**
 * Reading state between sessions, `/api/progress/:storyId`: the saved state (the @spkg/manifest ReadingState
 * schema) with its revision in `ETag`, conditional headers, and the size bounds of a saved state.
 */
import { ReadingStateSchema } from '@spkg/manifest/schemas'
import { z } from 'zod'
import { TimestampSchema } from './common'

/** `{ storyId }` path parameters: the key of a saved state. */
export const StoryIdParamsSchema = z.strictObject({
  storyId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'storyId must not contain control characters')
    .refine((s) => s !== '.' && s !== '..', 'storyId must not be . or ..')
    .meta({
      description: 'the key of the saved state (the story id of the manifest)',
      examples: ['9b2f…-uuid'],
    }),
})

/** `If-Match` and `If-None-Match` of the progress writes. */
export const ConditionalHeadersSchema = z.object({
  'if-match': z.string().max(100).optional().meta({ description: '"<revision>" read before; * matches any' }),
  'if-none-match': z.string().max(100).optional().meta({ description: '* for a first save' }),
})

/** Answer of a save: the new revision. */
export const ProgressSavedSchema = z
  .object({ storyId: z.string(), revision: z.number().int(), updatedAt: TimestampSchema })
  .meta({
    id: 'ProgressSaved',
    examples: [{ storyId: 'lighthouse', revision: 2, updatedAt: '2026-11-23T10:00:00.000Z' }],
  })

/** Answer of GET /api/progress: the caller's saved states, without their bodies. */
export const ProgressListSchema = z
  .object({
    items: z.array(z.object({ key: z.string(), revision: z.number().int(), updatedAt: TimestampSchema })),
  })
  .meta({
    examples: [{ items: [{ key: 'lighthouse', revision: 3, updatedAt: '2026-11-23T10:00:00.000Z' }] }],
  })

/** The reading-state schema of @spkg/manifest, with an example for the documentation. */
export const ProgressStateSchema = ReadingStateSchema.meta({
  id: 'ProgressState',
  description: 'A saved reading state (the @spkg/manifest ReadingState schema)',
  examples: [
    {
      format: 1,
      id: '6f1c2d9a-7b1e-4c55-9a51-3c2e8f0b9d10',
      savedAt: '2026-11-23T10:00:00.000Z',
      variables: { gold: 3, name: 'Mara' },
      choices: { 'inn-door': ['enter'] },
      visitedChoiceGroups: ['inn-door'],
      rng: { algorithm: 'mulberry32', seed: 42, state: 1_234_567 },
      currentPart: 'story/0002-forest.sty',
      visitedParts: ['story/0001-inn.sty'],
      renderedParagraph: 7,
    },
  ],
})

/**
 * Largest reading state body: 700 KiB. The largest real state measured, the engine bench's after 75,000 choices
 * over 2,000 sections (bench/story), is 539 KiB with 94,268 JSON values: this leaves it 30% room.
 */
export const READING_STATE_MAX_BYTES = 700 * 1024

/**
 * Most JSON values in a reading state body (every variable, list item, choice entry, ... counts one): 125,000,
 * 1.33× the 94,268 of the largest real state. Parsing and validating cost in proportion to this count, whatever
 * the bytes: the API checks it before `JSON.parse`.
 */
export const READING_STATE_MAX_VALUES = 125_000

/**
 * Most object members (keys) in a reading state body: 12,500, 3.2× the 3,922 of the largest real state (1,962
 * variables, 1,960 choice groups): a story of about 6,000 sections (a visit counter and a group each) fits. Keys
 * cost several times a list item to parse, validate and store.
 */
export const READING_STATE_MAX_MEMBERS = 12_500
