import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  AuthorSchema,
  DiagnosticSchema,
  MANIFEST_FIELD_NAMES,
  MANIFEST_FIELDS,
  ManifestSchema,
  PartSchema,
  ReadingStateSchema,
  SessionSchema,
  SeveritySchema,
} from './index'
import { lazyRecord, lazySchema } from './lazy-schema'

describe('lazySchema', () => {
  it('builds on first use, once', () => {
    let builds = 0
    const S = lazySchema(
      () => {
        builds++
        return z.object({ a: z.string() })
      },
      { id: 'LazyTestA', description: 'a test schema' },
    )
    expect(builds).toBe(0)
    expect(S.parse({ a: 'x' })).toEqual({ a: 'x' })
    expect(S.safeParse({ a: 1 }).success).toBe(false)
    expect(builds).toBe(1)
  })

  it('still parses when zod internals are not the ones it initialises (a later zod): it delegates', () => {
    const S = lazySchema(() => {
      const s = z.object({ a: z.string() })
      // As if a later zod kept its constructor elsewhere.
      ;(s._zod as unknown as { constr: unknown }).constr = undefined
      return s
    })
    expect(S.parse({ a: 'x' })).toEqual({ a: 'x' })
    expect(S.safeParse({ a: 1 }).success).toBe(false)
    expect(z.object({ s: S }).parse({ s: { a: 'y' } })).toEqual({ s: { a: 'y' } })
    expect(S instanceof z.ZodObject).toBe(true)
  })

  it('is the schema zod sees: instanceof, meta, composition, JSON Schema', () => {
    const Inner = lazySchema(() => z.object({ n: z.number() }), { id: 'LazyTestInner' })
    expect(Inner instanceof z.ZodObject).toBe(true)
    expect(Inner instanceof z.ZodString).toBe(false)
    expect(Object.getPrototypeOf(Inner)).toBe(Object.getPrototypeOf(z.object({})))
    expect(Inner.meta()).toEqual({ id: 'LazyTestInner' })
    expect(z.globalRegistry.get(Inner)?.id).toBe('LazyTestInner')
    expect(Object.keys(Inner.shape)).toEqual(['n'])
    const Outer = z.object({ a: Inner, b: Inner.optional(), c: z.array(Inner) })
    expect(Outer.parse({ a: { n: 1 }, c: [{ n: 2 }] })).toEqual({ a: { n: 1 }, c: [{ n: 2 }] })
    expect(Outer.safeParse({ a: { n: 'x' }, c: [] }).error?.issues[0]?.path).toEqual(['a', 'n'])
    const json = z.toJSONSchema(Outer) as {
      $defs: Record<string, unknown>
      properties: Record<string, unknown>
    }
    expect(Object.keys(json.$defs)).toEqual(['LazyTestInner'])
    expect(json.properties.a).toEqual({ $ref: '#/$defs/LazyTestInner' })
    // A further .meta() clones it like any schema, with it as the parent.
    const Renamed = Inner.meta({ id: 'LazyTestRenamed' })
    expect(Renamed._zod.parent).toBe(Inner)
    expect(Renamed.meta()?.id).toBe('LazyTestRenamed')
    expect(Renamed.parse({ n: 3 })).toEqual({ n: 3 })
  })

  it('gives the same JSON Schema as the eager schema it stands for', () => {
    const build = () =>
      z.looseObject({ x: z.string().min(1).meta({ description: 'x' }), y: z.enum(['a', 'b']) })
    const eager = build().meta({ title: 'T', description: 'D' })
    const lazy = lazySchema(build, { title: 'T', description: 'D' })
    expect(z.toJSONSchema(lazy)).toEqual(z.toJSONSchema(eager))
  })
})

describe('lazyRecord', () => {
  it('lists its keys without building, then holds plain data properties', () => {
    let builds = 0
    const r = lazyRecord(['a', 'b'], () => {
      builds++
      return { a: 1, b: 2 }
    })
    expect(Object.keys(r)).toEqual(['a', 'b'])
    expect(builds).toBe(0)
    expect(r.b).toBe(2)
    expect({ ...r }).toEqual({ a: 1, b: 2 })
    expect(builds).toBe(1)
    expect(Object.getOwnPropertyDescriptor(r, 'a')).toEqual({
      value: 1,
      writable: true,
      enumerable: true,
      configurable: true,
    })
  })
})

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
    expect(SeveritySchema.options).toEqual(['fatal', 'error', 'warning', 'info'])
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
