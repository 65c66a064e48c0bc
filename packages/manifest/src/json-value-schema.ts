/**
 * The zod schema of a JSON value (`@spkg/manifest/schemas`): the source of the compiled check
 * `parseSession` and `parseReadingState` run, and of the JSON Schemas.
 */
import { z } from 'zod'
import type { JsonValue } from './json'

/** The zod schema of a JSON value (finite numbers only; no `undefined`, functions or cycles). */
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().refine(Number.isFinite, 'must be a finite number'),
    z.boolean(),
    z.null(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
)
