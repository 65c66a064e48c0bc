/**
 * JSON Schemas generated from the zod schemas, so editors can autocomplete `manifest.json`
 * and `session.json`. The committed files are checked against these in CI.
 */
import { z } from 'zod'
import { ManifestSchema } from './schema'
import { SessionSchema } from './session-schema'

const SCHEMA_BASE = 'urn:spkg:schema'

function generate(schema: z.ZodType, id: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'output' })
  return { $schema: json.$schema, $id: `${SCHEMA_BASE}:${id}`, ...json }
}

/** The JSON Schema of the canonical manifest (`manifest.schema.json`). */
export function manifestJsonSchema(): Record<string, unknown> {
  return generate(ManifestSchema, 'manifest:1.0')
}

/** The JSON Schema of `session.json` (`session.schema.json`). */
export function sessionJsonSchema(): Record<string, unknown> {
  return generate(SessionSchema, 'session:1.0')
}
