/**
 * The zod schema of the saved reading state (`@spkg/manifest/schemas`): the source of the type,
 * of the compiled check `parseReadingState` runs, and of API documentation.
 */
import { z } from 'zod'
import { JsonValueSchema } from './json-value-schema'
import { READING_STATE_FORMAT } from './reading-state-format'

export const SAVED_AT = z.iso.datetime({ offset: true })

const uint32 = (description: string) => z.number().int().min(0).max(0xffff_ffff).meta({ description })

/** The PRNG of the story: the seed the session started from and the generator state at the save. */
export const RngStateSchema = z
  .object({
    algorithm: z.literal('mulberry32'),
    seed: uint32('seed the session started from (replay re-seeds with it)'),
    state: uint32('generator state at the save point (restored after replay)'),
  })
  .meta({ id: 'RngState', description: 'PRNG seed and generator state' })

/**
 * A saved reading state: where a reader is in a story and everything needed to replay there.
 * `variables` holds JSON values; since story language 1.1 a set value is
 * `{"$items": "Tools", "of": ["rope"]}` (and a map with a `$` key is wrapped as `{"$map": …}` so
 * that none reads back as a set): additive, any JSON was valid before and is still.
 */
export const ReadingStateSchema = z
  .object({
    format: z.literal(READING_STATE_FORMAT).meta({ description: 'reading-state format version' }),
    id: z.string().min(1).meta({ description: 'the `id` of the story (manifest) this state belongs to' }),
    version: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'the package `version` saved with; absent when the package has none' }),
    savedAt: SAVED_AT.optional().meta({ description: 'when the state was saved (ISO 8601)' }),
    variables: z.record(z.string(), JsonValueSchema).meta({
      description:
        'every story and heading-scoped variable at the save point; story_lang 1.1: a set is {"$items": "<declaration>", "of": ["<item>", …]}, and a map with a key starting "$" is saved as {"$map": {…}}',
    }),
    choices: z.record(z.string(), z.array(z.string()).min(1)).meta({
      description: 'choice-group key → one entry per resolution, in order; the last is the current selection',
    }),
    visitedChoiceGroups: z.array(z.string()).meta({
      description: 'decision keys in order of first arrival, including groups passed with no record',
    }),
    rng: RngStateSchema,
    currentPart: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'archive path of the part the reader is in; absent for single-part stories' }),
    visitedParts: z.array(z.string().min(1)).meta({
      description: 'parts entered before the current one, in order; empty for single-part stories',
    }),
    renderedParagraph: z.number().int().min(-1).meta({
      description: 'index of the last block seen since the latest entry into the current part (−1: none)',
    }),
    tunnels: z.array(z.string().min(1)).optional().meta({
      description:
        'story language 1.1: the open tunnels, outermost first, each the id of its call (`<file>:<section>-><k>`, the k-th tunnel call of its section); absent when none is open',
    }),
  })
  .meta({
    id: 'ReadingState',
    title: 'Reading state',
    description: 'A saved reading state (STORY-LANGUAGE.md §9)',
  })

/** A saved reading state; see {@link ReadingStateSchema}. */
export type ReadingState = z.infer<typeof ReadingStateSchema>
