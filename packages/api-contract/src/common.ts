/**
 * Request pieces shared by several routes: slugs, page/limit clamping, the list envelope and timestamps.
 */
import { z } from 'zod'

/** Story and series slugs: lower-case words joined by single hyphens, 3-100 characters. */
export const SlugSchema = z
  .string()
  .min(3, 'Invalid slug: at least 3 characters')
  .max(100, 'Invalid slug: at most 100 characters')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Invalid slug: lower-case letters, digits and single hyphens only')
  .meta({ description: 'lower-case words joined by single hyphens', examples: ['the-lighthouse'] })

/** `{ slug }` path parameters. */
export const SlugParamsSchema = z.strictObject({ slug: SlugSchema })

/** An integer query value clamped to [lo, hi]; anything unreadable gives the default. */
export const clampedInt = (lo: number, hi: number, fallback: number) =>
  z.coerce
    .number()
    .int()
    .catch(fallback)
    .transform((n) => Math.min(hi, Math.max(lo, n)))
    .optional()
    .transform((n) => n ?? fallback)

/** `page` (>= 1) and `limit` (1-100) of paginated lists; out-of-range values are clamped, not refused. */
export const PageQuerySchema = z.object({
  page: clampedInt(1, 1_000_000, 1).meta({ description: 'page number, clamped to >= 1', examples: [1] }),
  limit: clampedInt(1, 100, 20).meta({ description: 'page size, clamped to 1-100', examples: [20] }),
})

/** The envelope of a paginated list; `example` is one item. */
export const pageOf = <T extends z.ZodType>(item: T, example: z.infer<T>) =>
  z
    .object({
      items: z.array(item),
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int().meta({ description: 'number of matching records over all pages' }),
    })
    .meta({ examples: [{ items: [example], page: 1, limit: 20, total: 1 }] })

/** ISO 8601 timestamp in responses. */
export const TimestampSchema = z.string().meta({ examples: ['2026-11-23T10:00:00.000Z'] })
