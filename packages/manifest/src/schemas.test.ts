/**
 * The zod schemas of `@spkg/manifest/schemas`: the source of truth of the types, the JSON Schema
 * files and the compiled checks (see compiled/validators.property.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { MANIFEST_FIELD_NAMES } from './fields'
import {
  AuthorSchema,
  DiagnosticSchema,
  MANIFEST_FIELDS,
  ManifestSchema,
  PartSchema,
  ReadingStateSchema,
  SessionSchema,
  SeveritySchema,
} from './schemas'
import { SEVERITIES } from './severity'

describe('the exported schemas', () => {
  it('MANIFEST_FIELD_NAMES are the keys of MANIFEST_FIELDS and of ManifestSchema, in order', () => {
    expect(Object.keys(MANIFEST_FIELDS)).toEqual(MANIFEST_FIELD_NAMES)
    expect(Object.keys(ManifestSchema.shape)).toEqual(MANIFEST_FIELD_NAMES)
  })

  it('keep their zod classes and ids', () => {
    expect(ManifestSchema instanceof z.ZodObject).toBe(true)
    expect(MANIFEST_FIELDS.author instanceof z.ZodArray).toBe(true)
    expect(MANIFEST_FIELDS.author.element).toBe(AuthorSchema)
    expect(SessionSchema instanceof z.ZodRecord).toBe(true)
    expect(SeveritySchema instanceof z.ZodEnum).toBe(true)
    expect(SeveritySchema.options).toEqual(SEVERITIES)
    for (const [schema, id] of [
      [ManifestSchema, 'Manifest'],
      [AuthorSchema, 'Author'],
      [PartSchema, 'Part'],
      [DiagnosticSchema, 'Diagnostic'],
      [SessionSchema, 'Session'],
      [ReadingStateSchema, 'ReadingState'],
    ] as const)
      expect(schema.meta()?.id).toBe(id)
  })

  it('parse as before', () => {
    expect(AuthorSchema.parse({ name: 'A', x: 1 })).toEqual({ name: 'A', x: 1 })
    expect(AuthorSchema.safeParse({ name: '' }).success).toBe(false)
    expect(ManifestSchema.parse({ id: 'x', parts: [{ file: 'story/a.sty', name: 'A' }] })).toEqual({
      id: 'x',
      parts: [{ file: 'story/a.sty', name: 'A' }],
    })
    expect(DiagnosticSchema.safeParse({ code: 'manifest/x', severity: 'bad', message: '' }).success).toBe(
      false,
    )
  })
})
