/**
 * fast-check arbitraries of manifest field values, mostly valid and sometimes junk, so both sides
 * of every check get exercised: shared by the property tests of the fast path and of the
 * compiled validators.
 */
import { fc } from '@fast-check/vitest'
import type { ManifestField } from '../../src/fields'

export const json = fc.jsonValue({ maxDepth: 2 })
export const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('__proto__', 'name', 'file', 'id', 'x'),
)
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
export const FIELD: Record<ManifestField, fc.Arbitrary<unknown>> = {
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

/** A loose manifest: some fields (each maybe junk), some unknown keys, a UUID or another id. */
export const manifest = fc
  .tuple(
    fc.record(FIELD, { requiredKeys: [] }),
    fc.dictionary(key, json, { maxKeys: 2 }),
    fc.constantFrom('123e4567-e89b-12d3-a456-426614174000', 'not-a-uuid'),
  )
  .map(([fields, extra, id]) => ({ id, ...extra, ...fields }))
