/**
 * The zod schemas of the diagnostic shape (`@spkg/manifest/schemas`): for JSON Schema and for
 * hosts that validate diagnostics they receive. The type is {@link Diagnostic} in `diagnostic.ts`.
 */
import { z } from 'zod'
import type { Severity } from './severity'

/** How bad a finding is, as a zod enum. */
export const SeveritySchema = z.enum(['fatal', 'error', 'warning', 'info']) satisfies z.ZodType<Severity>

/** The JSON shape of a diagnostic (the `code` is any `area/kebab-name` string here; see `CODES`). */
export const DiagnosticSchema = z
  .object({
    code: z.string().regex(/^[a-z]+\/[a-z0-9]+(?:-[a-z0-9]+)*$/),
    severity: SeveritySchema,
    message: z.string(),
    path: z.string().optional(),
    field: z.string().optional(),
    line: z.number().int().positive().optional(),
    column: z.number().int().positive().optional(),
  })
  .meta({ id: 'Diagnostic', title: 'A finding about a package, a manifest or a story' })
