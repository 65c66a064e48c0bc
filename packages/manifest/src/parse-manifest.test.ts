import { describe, expect, it } from 'vitest'
import type { ManifestField } from './fields'
import { hasErrors, MANIFEST_FIELD_NAMES, parseManifest, parseManifestText, toPointer } from './index'

const ID = '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14'
const H = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

type Row = {
  field: ManifestField
  valid: unknown
  canonical?: unknown
  invalid: unknown
  code: string
  pointer?: string
  /** Other fields the example needs (a `preload` needs parts and progressive loading). */
  with?: Record<string, unknown>
}

const PROGRESSIVE = {
  loading: 'progressive',
  parts: [
    { file: 'story/0001-inn.sty', name: 'Inn' },
    { file: 'story/0002-road.sty', name: 'Road' },
  ],
}

// One valid and one invalid example for every field of the SPEC's Manifest table.
const ROWS: Row[] = [
  { field: 'story_lang', valid: '1.0', invalid: 1, code: 'manifest/invalid-type' },
  { field: 'manifest', valid: '1.0', invalid: true, code: 'manifest/invalid-type' },
  { field: 'type', valid: 'instruction', invalid: 'novel', code: 'manifest/invalid-value' },
  { field: 'title', valid: 'The Crooked Inn', invalid: ['x'], code: 'manifest/invalid-type' },
  { field: 'intro', valid: 'A cold night.', invalid: 3, code: 'manifest/invalid-type' },
  { field: 'cover', valid: 'assets/cover.webp', invalid: '/etc/cover.webp', code: 'manifest/unsafe-path' },
  {
    field: 'author',
    valid: [{ name: 'Ann', id: 'ann' }, 'Bo'],
    canonical: [{ name: 'Ann', id: 'ann' }, { name: 'Bo' }],
    invalid: [{ id: 'x' }],
    code: 'manifest/invalid-type',
    pointer: '/author/0/name',
  },
  { field: 'version', valid: '1.2.0', invalid: 120, code: 'manifest/invalid-type' },
  { field: 'language', valid: 'pt-BR', invalid: 'english', code: 'manifest/invalid-language' },
  { field: 'direction', valid: 'rtl', invalid: 'up', code: 'manifest/invalid-direction' },
  { field: 'date', valid: '2026-11-23', invalid: 20261123, code: 'manifest/invalid-type' },
  { field: 'description', valid: 'A synopsis.', invalid: {}, code: 'manifest/invalid-type' },
  { field: 'genre', valid: 'fantasy', invalid: null, code: 'manifest/invalid-type' },
  { field: 'tags', valid: ['inn', 'night'], invalid: [1], code: 'manifest/invalid-type', pointer: '/tags/0' },
  { field: 'license', valid: 'CC-BY-4.0', invalid: false, code: 'manifest/invalid-type' },
  {
    field: 'parts',
    valid: [{ file: 'story/0001-inn.sty', name: 'Inn' }],
    invalid: [{ file: 'inn.sty', name: 'Inn' }],
    code: 'manifest/path-outside-dir',
    pointer: '/parts/0/file',
  },
  {
    field: 'assets',
    valid: ['assets/inn.webp', { file: 'assets/theme.ogg', name: 'Theme' }],
    canonical: [{ file: 'assets/inn.webp' }, { file: 'assets/theme.ogg', name: 'Theme' }],
    invalid: ['assets\\inn.webp'],
    code: 'manifest/unsafe-path',
    pointer: '/assets/0/file',
  },
  { field: 'instruction', valid: 'inn-howto', invalid: 5, code: 'manifest/invalid-type' },
  { field: 'readers', valid: [1, 2], invalid: [0], code: 'manifest/invalid-readers', pointer: '/readers/0' },
  { field: 'age', valid: { min: 8, max: 12 }, invalid: { min: 12, max: 8 }, code: 'manifest/invalid-age' },
  { field: 'content_warnings', valid: ['violence'], invalid: 'x'.length, code: 'manifest/invalid-type' },
  { field: 'series', valid: 'Inns', invalid: 1, code: 'manifest/invalid-type' },
  { field: 'season', valid: 2, invalid: true, code: 'manifest/invalid-type' },
  { field: 'entry', valid: '3a', invalid: [3], code: 'manifest/invalid-type' },
  { field: 'series_name', valid: 'The Inns', invalid: 1, code: 'manifest/invalid-type' },
  { field: 'season_name', valid: 'Winter', invalid: 1, code: 'manifest/invalid-type' },
  { field: 'duration', valid: 25, invalid: -5, code: 'manifest/invalid-value' },
  {
    field: 'sensors',
    valid: ['geolocation'],
    invalid: [{}],
    code: 'manifest/invalid-type',
    pointer: '/sensors/0',
  },
  {
    field: 'accessibility',
    valid: ['screen-reader'],
    invalid: [2],
    code: 'manifest/invalid-type',
    pointer: '/accessibility/0',
  },
  {
    field: 'allowed_urls',
    valid: [{ alias: 'weather', url: 'https://api.example.org/w', params: { q: 'x' } }],
    invalid: [{ alias: 'weather', url: 'http://api.example.org/w' }],
    code: 'manifest/invalid-url',
    pointer: '/allowed_urls/0/url',
  },
  {
    field: 'extensions',
    valid: ['extensions/combat.xty'],
    invalid: ['extensions/combat.js'],
    code: 'manifest/invalid-value',
    pointer: '/extensions/0',
  },
  {
    field: 'preload',
    valid: ['story/0002-road.sty'],
    invalid: ['story/0003-forest.sty'],
    code: 'manifest/unknown-part',
    pointer: '/preload/0',
    with: PROGRESSIVE,
  },
  {
    field: 'locked',
    valid: ['story/0002-road.sty'],
    invalid: ['../0002-road.sty'],
    code: 'manifest/unsafe-path',
    pointer: '/locked/0',
    with: PROGRESSIVE,
  },
  {
    field: 'stories',
    valid: ['inn'],
    invalid: 'inn'.length,
    code: 'manifest/invalid-type',
    with: { type: 'instruction' },
  },
  { field: 'requires', valid: ['host'], invalid: [1], code: 'manifest/invalid-type', pointer: '/requires/0' },
  { field: 'loading', valid: 'progressive', invalid: 'lazy', code: 'manifest/invalid-value' },
  { field: 'offline', valid: true, invalid: 'yes', code: 'manifest/invalid-type' },
  { field: 'preview', valid: false, invalid: 0, code: 'manifest/invalid-type' },
  {
    field: 'integrity',
    valid: { 'story/0001-inn.sty': H.toUpperCase() },
    canonical: { 'story/0001-inn.sty': H },
    invalid: { 'story/0001-inn.sty': 'md5-abc' },
    code: 'manifest/invalid-hash',
    pointer: '/integrity/story~10001-inn.sty',
  },
  { field: 'solo_mode', valid: 'single_role', invalid: 'solo', code: 'manifest/invalid-value' },
  { field: 'storage', valid: 'cloud', invalid: 'disk', code: 'manifest/invalid-value' },
  {
    field: 'reader',
    valid: {
      tabBar: { enabled: true, priorityHand: 'left', map: { enabled: true, image: 'assets/map.webp' } },
    },
    invalid: { tabBar: { priorityHand: 'middle' } },
    code: 'manifest/invalid-value',
    pointer: '/reader/tabBar/priorityHand',
  },
  {
    field: 'build',
    valid: { minified: true, names_map: 'META-PKG/names.json' },
    invalid: { minified: 'yes' },
    code: 'manifest/invalid-type',
    pointer: '/build/minified',
  },
  { field: 'signed', valid: true, invalid: 'true', code: 'manifest/invalid-type' },
  { field: 'signature', valid: 'ed25519:abc=', invalid: 1, code: 'manifest/invalid-type' },
]

describe('every manifest field', () => {
  it.each(ROWS)('$field: accepts a valid value', ({ field, valid, canonical, with: extra }) => {
    const base: Record<string, unknown> = { id: ID, ...extra, [field]: valid }
    if (field === 'instruction') base.type = 'story'
    const { manifest, diagnostics } = parseManifest(base)
    expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
    expect(manifest?.[field]).toEqual(canonical ?? valid)
  })
  it.each(ROWS)(
    '$field: reports $code for an invalid value',
    ({ field, invalid, code, pointer, with: extra }) => {
      const { manifest, diagnostics } = parseManifest({ id: ID, ...extra, [field]: invalid })
      expect(manifest).toBeDefined()
      const d = diagnostics.find((x) => x.code === code)
      expect(d, JSON.stringify(diagnostics)).toBeDefined()
      expect(d?.field).toBe(pointer ?? `/${field}`)
      expect(d?.path).toBe('manifest.json')
      expect(d?.message).toMatch(new RegExp(field))
      expect(hasErrors(diagnostics)).toBe(d?.severity === 'error' || d?.severity === 'fatal')
    },
  )
  it('covers every known field', () => {
    expect(new Set(['id', ...ROWS.map((r) => r.field)])).toEqual(new Set(MANIFEST_FIELD_NAMES))
  })
  it('names fields whose JSON pointer needs no escaping (manifest/normalized writes it as /<field>)', () => {
    for (const field of MANIFEST_FIELD_NAMES) expect(toPointer([field])).toBe(`/${field}`)
  })
})

describe('id', () => {
  it('refuses a manifest without id', () => {
    const r = parseManifest({ title: 'x' })
    expect(r.manifest).toBeUndefined()
    expect(r.diagnostics[0]).toMatchObject({ code: 'manifest/missing-id', severity: 'fatal', field: '/id' })
  })
  it('refuses a non-string or empty id', () => {
    expect(parseManifest({ id: 42 }).diagnostics[0]?.message).toBe(
      '"id" must be a non-empty string (a UUID) of at most 100 characters, got a number.',
    )
    expect(parseManifest({ id: ' ' }).manifest).toBeUndefined()
  })
  it('warns when id is not a UUID', () => {
    const r = parseManifest({ id: 'inn' })
    expect(r.manifest?.id).toBe('inn')
    expect(r.diagnostics).toMatchObject([{ code: 'manifest/invalid-id', severity: 'warning' }])
  })
})

describe('not a manifest', () => {
  it.each([[null], [[]], ['x'], [3]])('refuses %j as not an object', (v) => {
    expect(parseManifest(v).diagnostics).toMatchObject([{ code: 'manifest/not-object', severity: 'fatal' }])
  })
  it('refuses text that is not JSON, and accepts a BOM', () => {
    expect(parseManifestText('{"id": ').diagnostics[0]?.code).toBe('manifest/not-json')
    expect(parseManifestText(`\uFEFF{"id":"${ID}"}`).manifest?.id).toBe(ID)
  })
})

describe('$schema (the editor hint the README recommends)', () => {
  const SCHEMA = './node_modules/@spkg/manifest/manifest.schema.json'
  it('is accepted silently and left out of the canonical manifest', () => {
    const r = parseManifestText(JSON.stringify({ $schema: SCHEMA, id: ID, title: 'T' }))
    expect(r.diagnostics).toEqual([])
    expect(r.manifest).toEqual({ id: ID, title: 'T' })
    expect(Object.hasOwn(r.manifest!, '$schema')).toBe(false)
  })
  it('is dropped whatever its value, in both parse entries', () => {
    for (const $schema of [SCHEMA, 42, null, { url: SCHEMA }]) {
      const r = parseManifest({ id: ID, $schema })
      expect(r.diagnostics).toEqual([])
      expect(r.manifest).toEqual({ id: ID })
    }
  })
  it('leaves other $-keys unknown fields (kept, reported)', () => {
    const r = parseManifest({ id: ID, $schemas: SCHEMA })
    expect(r.manifest).toEqual({ id: ID, $schemas: SCHEMA })
    expect(r.diagnostics).toMatchObject([{ code: 'manifest/unknown-field', field: '/$schemas' }])
  })
})

describe('values nested past the stack', () => {
  // Once kept (the deep `params`) or reported as a wrong type; now refused before JSON.parse
  // (a reply that deep could not cross from a validation thread to the API's main thread).
  const deep = `${'['.repeat(20000)}${']'.repeat(20000)}`
  it('a deep value where a field allows any JSON is refused as too deep, without a crash', () => {
    const r = parseManifestText(
      `{"id":"${ID}","allowed_urls":[{"alias":"a","url":"https://x.org","params":{"p":${deep}}}]}`,
    )
    expect(r.manifest).toBeUndefined()
    expect(r.diagnostics).toMatchObject([{ code: 'manifest/too-deep', severity: 'fatal' }])
    expect(r.diagnostics[0]?.field).toMatch(/^\/allowed_urls\/0\/params\/p(\/0)+$/)
  })
  it('a deep value where a field wants a word is refused as too deep, without a crash', () => {
    const r = parseManifestText(`{"id":"${ID}","direction":${deep}}`)
    expect(r.manifest).toBeUndefined()
    expect(r.diagnostics).toMatchObject([{ code: 'manifest/too-deep', severity: 'fatal' }])
  })
})
