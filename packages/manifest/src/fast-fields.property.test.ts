/**
 * Property: the zod-free fast path of `parseManifest` accepts a field exactly when the zod path
 * accepts it without a diagnostic, and then returns the identical value (same key order); the
 * whole parse gives identical manifests and diagnostics with the fast path on and off, and with
 * an owned input (reused, not copied) too.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import type { Diagnostic } from './diagnostic'
import { fastField } from './fast-fields'
import { derivePartName, normalizeField } from './normalize'
import { parseManifestWith, validateFieldWithZod } from './parse-manifest'
import { MANIFEST_FIELD_NAMES, type ManifestField } from './schema'

const json = fc.jsonValue({ maxDepth: 2 })
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'name', 'file', 'id', 'x'))
// Control characters too: the title and author names are checked for them after either path.
const str = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('', 'story/0001-a.sty', 'assets/a.png', 'a\u0000b', '\u001b[31m', 'x\u0085', '\u007f'),
)
const num = fc.oneof(fc.integer({ min: -3, max: 9 }), fc.double(), fc.constant(-0))
const bool = fc.boolean()
const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 63, maxLength: 65 })
const junk = fc.oneof(json, fc.constant(null), fc.constant([]), fc.constant({}))

/** Mostly valid, sometimes junk: both sides of every check get exercised. */
const maybe = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: junk, weight: 1 })
const list = <T>(item: fc.Arbitrary<T>) => maybe(fc.array(maybe(item), { maxLength: 4 }))
/** An object with some of `shape`'s keys (in random order) and some others. */
const obj = (shape: Record<string, fc.Arbitrary<unknown>>) =>
  maybe(
    fc
      .tuple(fc.record(shape, { requiredKeys: [] }), fc.dictionary(key, json, { maxKeys: 2 }), fc.boolean())
      .map(([known, extra, knownFirst]) => (knownFirst ? { ...known, ...extra } : { ...extra, ...known })),
  )

const section = obj({ enabled: maybe(bool), label: maybe(str), icon: maybe(str) })
const FIELD: Record<ManifestField, fc.Arbitrary<unknown>> = {
  story_lang: maybe(str),
  manifest: maybe(str),
  type: maybe(fc.constantFrom('story', 'instruction', 'other')),
  id: maybe(str),
  title: maybe(str),
  intro: maybe(str),
  cover: maybe(str),
  author: fc.oneof(list(obj({ name: maybe(str), id: maybe(str) })), str, list(str)),
  version: maybe(str),
  language: maybe(str),
  direction: maybe(fc.constantFrom('ltr', 'rtl', 'ttb')),
  date: maybe(str),
  description: maybe(str),
  genre: maybe(str),
  tags: fc.oneof(list(str), str),
  license: maybe(str),
  // Looser forms too (bare strings, a missing name), which parseManifest normalises first.
  parts: list(fc.oneof(obj({ file: maybe(str), name: maybe(str) }), str)),
  assets: list(fc.oneof(obj({ file: maybe(str), name: maybe(str) }), str)),
  instruction: maybe(str),
  stories: list(str),
  readers: fc.oneof(list(num), num),
  age: obj({ min: maybe(num), max: maybe(num) }),
  content_warnings: list(str),
  series: maybe(str),
  season: maybe(fc.oneof(num, str)),
  entry: maybe(fc.oneof(num, str)),
  series_name: maybe(str),
  season_name: maybe(str),
  duration: maybe(num),
  sensors: list(str),
  accessibility: list(str),
  allowed_urls: list(obj({ alias: maybe(str), url: maybe(str), params: maybe(fc.dictionary(key, json)) })),
  extensions: list(str),
  requires: list(str),
  loading: maybe(fc.constantFrom('progressive', 'eager')),
  preload: list(str),
  locked: list(str),
  offline: maybe(bool),
  preview: maybe(bool),
  integrity: maybe(
    fc.dictionary(
      key,
      maybe(
        fc.oneof(
          hex,
          hex.map((h) => ` ${h.toUpperCase()}`),
          fc.constant(`sha256-${btoa('x'.repeat(32))}`),
        ),
      ),
      { maxKeys: 4 },
    ),
  ),
  solo_mode: maybe(fc.constantFrom('all_roles', 'single_role', 'none')),
  storage: maybe(fc.constantFrom('none', 'local', 'cloud', 'remote')),
  reader: obj({
    tabBar: obj({
      enabled: maybe(bool),
      priorityHand: maybe(fc.constantFrom('reader', 'left', 'right', 'up')),
      help: section,
      map: section,
      bag: section,
      character: section,
      actions: section,
    }),
  }),
  build: obj({ minified: maybe(bool), names_map: maybe(str) }),
  signed: maybe(bool),
  signature: maybe(str),
}

/** Inputs the fast path leaves to zod on purpose, whatever zod says about them. */
function leftToZod(field: ManifestField, value: unknown): boolean {
  const walk = (v: unknown): boolean =>
    typeof v === 'object' && v !== null && Object.entries(v).some(([k, x]) => k === '__proto__' || walk(x))
  if (walk(value)) return true
  return (
    field === 'allowed_urls' &&
    Array.isArray(value) &&
    value.some((u) => typeof u === 'object' && u !== null && 'params' in u)
  )
}

describe('manifest fast path', () => {
  for (const field of MANIFEST_FIELD_NAMES)
    test.prop([FIELD[field]], { numRuns: 200 })(
      `${field}: accepted exactly when zod accepts it cleanly, with the identical value`,
      (value) => {
        const out: Diagnostic[] = []
        const slow = validateFieldWithZod(field, value, { [field]: value }, 'manifest.json', out)
        const zodAccepts = slow.ok && out.length === 0
        const fast = fastField(field, value)
        if (fast) {
          expect(zodAccepts).toBe(true)
          expect(fast.value).toStrictEqual(slow.value)
          expect(JSON.stringify(fast.value)).toBe(JSON.stringify(slow.value))
          if (fast.same) expect(JSON.stringify(fast.value)).toBe(JSON.stringify(value))
        } else if (!leftToZod(field, value)) expect(zodAccepts).toBe(false)
      },
    )

  const manifest = fc
    .tuple(
      fc.record(FIELD, { requiredKeys: [] }),
      fc.dictionary(key, json, { maxKeys: 2 }),
      fc.constantFrom('123e4567-e89b-12d3-a456-426614174000', 'not-a-uuid'),
    )
    .map(([fields, extra, id]) => ({ id, ...extra, ...fields }))

  test.prop([manifest], { numRuns: 300 })('parseManifest gives the same result with and without it', (m) => {
    const fast = parseManifestWith(m, {}, true)
    const slow = parseManifestWith(m, {}, false)
    expect(fast).toStrictEqual(slow)
    expect(JSON.stringify(fast)).toBe(JSON.stringify(slow))
  })

  for (const field of MANIFEST_FIELD_NAMES)
    test.prop([FIELD[field]], { numRuns: 200 })(
      `${field}: owned input gives the identical value, and normalizeField returns a new value exactly when the JSON changes`,
      (value) => {
        const copy = () => structuredClone(value)
        const fast = fastField(field, copy())
        const owned = fastField(field, copy(), true)
        expect(owned).toStrictEqual(fast)
        const normalized = normalizeField(field, value)
        expect(!Object.is(normalized, value)).toBe(JSON.stringify(normalized) !== JSON.stringify(value))
      },
    )

  test.prop([manifest], { numRuns: 300 })('an owned (JSON.parse) input gives the same result as zod', (m) => {
    const text = JSON.stringify(m)
    const owned = parseManifestWith(JSON.parse(text), {}, true, true)
    const slow = parseManifestWith(JSON.parse(text), {}, false)
    expect(owned).toStrictEqual(slow)
    expect(JSON.stringify(owned)).toBe(JSON.stringify(slow))
  })

  test('an owned input is reused, not copied; a caller-held input is copied', () => {
    const parts = [{ file: 'story/0001-inn.sty', name: 'Inn' }]
    const integrity = { 'story/0001-inn.sty': 'a'.repeat(64) }
    expect(fastField('parts', parts, true)?.value).toBe(parts)
    expect(fastField('integrity', integrity, true)?.value).toBe(integrity)
    expect(fastField('parts', parts)?.value).not.toBe(parts)
    expect(fastField('integrity', integrity)?.value).not.toBe(integrity)
    // Reordered keys are copied into shape order even when owned.
    const reordered = [{ name: 'Inn', file: 'story/0001-inn.sty' }]
    expect(fastField('parts', reordered, true)?.value).not.toBe(reordered)
  })

  test('a canonical manifest is taken without zod and a bad field still gets zod wording', () => {
    const m = {
      id: '123e4567-e89b-12d3-a456-426614174000',
      parts: [{ name: 'Inn', file: 'story/0001-inn.sty' }],
      integrity: { 'story/0001-inn.sty': 'a'.repeat(64) },
    }
    expect(fastField('parts', m.parts)?.value).toEqual([{ file: 'story/0001-inn.sty', name: 'Inn' }])
    expect(fastField('integrity', { x: 'A'.repeat(64) })).toBeUndefined()
    const bad = parseManifestWith({ ...m, direction: 'up' }, {}, true)
    expect(bad.diagnostics.map((d) => d.code)).toContain('manifest/invalid-direction')
  })
})

describe('derivePartName', () => {
  /** The regular-expression form it replaced (split, then strip the extension by pattern). */
  const reference = (file: string): string => {
    const base = file.split('/').pop() ?? file
    const stem = base.replace(/\.[^.]+$/, '')
    const words = stem
      .replace(/^\d+(?:[-_. ]+|$)/, '')
      .replace(/[-_]+/g, ' ')
      .trim()
    const name = words.length > 0 ? words : stem
    return name.length > 0 ? name.charAt(0).toUpperCase() + name.slice(1) : base
  }
  // Digits (ASCII and one \d does not match), every prefix separator, whitespace trim() removes.
  const file = fc.string({ unit: fc.constantFrom(...'aB09/.-_ \n\t\u00a0\u0663'), maxLength: 16 })
  test.prop([file], { numRuns: 5000 })('names a part exactly as the pattern form did', (f) => {
    expect(derivePartName(f)).toBe(reference(f))
  })
})
