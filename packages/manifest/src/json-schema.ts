/**
 * JSON Schemas generated from the zod schemas, so editors can autocomplete `manifest.json`
 * and `session.json`. The committed files are checked against these in CI.
 */
import { z } from 'zod'
import { MANIFEST_LIMITS, type ManifestBound } from './manifest-limits'
import { VERSION_PATTERN } from './rules'
import { ManifestSchema } from './schema'
import { SessionSchema } from './session-schema'

const SCHEMA_BASE = 'urn:spkg:schema'

function generate(schema: z.ZodType, id: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'output' })
  return { $schema: json.$schema, $id: `${SCHEMA_BASE}:${id}`, ...json }
}

// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema node as z.toJSONSchema writes it
type JsonSchemaNode = Record<string, any>

/**
 * Writes the bound `b` of {@link MANIFEST_LIMITS} into the JSON Schema node `node` (following
 * `$ref`s into `defs`), so an editor shows what the parser enforces: `maxLength`, `maxItems`,
 * `maxProperties` (known keys plus the others allowed) and `propertyNames.maxLength`.
 */
function applyBound(node: JsonSchemaNode | undefined, b: ManifestBound, defs: JsonSchemaNode): void {
  if (!node) return
  if (typeof node.$ref === 'string') {
    applyBound(defs[node.$ref.split('/').pop()!], b, defs)
    return
  }
  const types: string[] = Array.isArray(node.type) ? node.type : [node.type]
  if (types.includes('string') && b.maxLength !== undefined) node.maxLength = b.maxLength
  if (types.includes('array')) {
    if (b.maxItems !== undefined) node.maxItems = b.maxItems
    if (b.item) applyBound(node.items, b.item, defs)
  }
  if (types.includes('object')) {
    const named = Object.keys(node.properties ?? {}).length
    node.maxProperties = named + (b.maxOtherKeys ?? MANIFEST_LIMITS.other.maxOtherKeys)
    node.propertyNames = { ...node.propertyNames, maxLength: MANIFEST_LIMITS.maxKeyLength }
    for (const [k, v] of Object.entries(b.properties ?? {})) applyBound(node.properties?.[k], v, defs)
    if (b.other && node.additionalProperties && typeof node.additionalProperties === 'object')
      applyBound(node.additionalProperties, b.other, defs)
  }
}

/** The JSON Schema of the canonical manifest (`manifest.schema.json`), with the bounds of `MANIFEST_LIMITS`. */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = generate(ManifestSchema, 'manifest:1.0') as JsonSchemaNode
  const defs = schema.$defs as JsonSchemaNode
  const manifest = defs.Manifest
  for (const [field, b] of Object.entries(MANIFEST_LIMITS.fields))
    applyBound(manifest.properties[field], b, defs)
  manifest.properties.version.pattern = VERSION_PATTERN.source
  // The known fields, the unknown ones allowed, and the editor hint `$schema`.
  manifest.maxProperties = Object.keys(manifest.properties).length + MANIFEST_LIMITS.maxUnknownFields + 1
  manifest.propertyNames = { maxLength: MANIFEST_LIMITS.maxKeyLength }
  return schema
}

/** The JSON Schema of `session.json` (`session.schema.json`). */
export function sessionJsonSchema(): Record<string, unknown> {
  return generate(SessionSchema, 'session:1.0')
}
