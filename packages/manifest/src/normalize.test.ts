import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { derivePartName, normalizeDigest, parseManifest, serializeManifest } from './index'
import { derivePartNameGeneral } from './normalize'

const ID = '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14'

describe('derivePartName', () => {
  it.each([
    ['story/0002-forest-edge.sty', 'Forest edge'],
    ['story/0001_the_inn.sty', 'The inn'],
    ['story/inn.sty', 'Inn'],
    ['story/12.sty', '12'],
    ['story/ch-3.sty', 'Ch 3'],
    ['story/0003-élan.sty', 'Élan'],
    ['story/0004-p.sty', 'P'],
    ['story/0005.x', '0005'],
    ['story/0006-.sty', '0006-'],
    ['story/7 Zed.sty.', 'Zed.sty.'],
    ['a/b/.sty', '.sty'],
    ['story/', ''],
  ])('%s → %s', (file, name) => expect(derivePartName(file)).toBe(name))

  // The common case is computed by a scan; the general path defines the result.
  const char = fc.oneof(
    fc.constantFrom(
      '/',
      '.',
      '-',
      '_',
      ' ',
      '0',
      '7',
      '9',
      'a',
      'z',
      'A',
      'é',
      'ß',
      '\t',
      '\u00a0',
      '~',
      '!',
    ),
    fc.string({ maxLength: 1, unit: 'binary' }),
  )
  test.prop([fc.array(char, { maxLength: 14 }).map((cs) => cs.join(''))], { numRuns: 2000 })(
    'equals the general derivation on any file name',
    (file) => {
      expect(derivePartName(file)).toBe(derivePartNameGeneral(file))
    },
  )
})

describe('normalizeDigest', () => {
  const hex = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
  it('accepts lowercase and uppercase hex and SRI sha256', () => {
    expect(normalizeDigest(hex.toUpperCase())).toBe(hex)
    expect(normalizeDigest('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=')).toBe(hex)
  })
  it('refuses other algorithms and malformed values', () => {
    for (const v of ['sha384-abc', 'sha256-short=', hex.slice(1), `${hex}0`, 'md5:x'])
      expect(normalizeDigest(v)).toBeUndefined()
  })
  test.prop([fc.uint8Array({ minLength: 32, maxLength: 32 })])(
    'is idempotent and maps SRI to the same hex',
    (bytes) => {
      const h = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
      const sri = `sha256-${btoa(String.fromCharCode(...bytes))}`
      expect(normalizeDigest(sri)).toBe(h)
      expect(normalizeDigest(normalizeDigest(sri)!)).toBe(h)
    },
  )
})

describe('loose input becomes the canonical shape', () => {
  it('normalises bare-string parts, assets, authors and single strings for lists', () => {
    const { manifest, diagnostics } = parseManifest({
      id: ID,
      author: 'Ann Author',
      parts: ['story/0001-the-inn.sty', { file: 'story/0002-road.sty' }],
      assets: ['assets/inn.webp'],
      tags: 'fantasy',
      readers: 2,
    })
    expect(manifest).toMatchObject({
      author: [{ name: 'Ann Author' }],
      parts: [
        { file: 'story/0001-the-inn.sty', name: 'The inn' },
        { file: 'story/0002-road.sty', name: 'Road' },
      ],
      assets: [{ file: 'assets/inn.webp' }],
      tags: ['fantasy'],
      readers: [2],
    })
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['manifest/normalized', '/author'],
      ['manifest/normalized', '/tags'],
      ['manifest/normalized', '/parts'],
      ['manifest/normalized', '/assets'],
      ['manifest/normalized', '/readers'],
    ])
  })
  it('turns an {name} author object into the array form', () => {
    expect(parseManifest({ id: ID, author: { name: 'Ann', id: 'ann' } }).manifest?.author).toEqual([
      { name: 'Ann', id: 'ann' },
    ])
  })
  it('keeps valid list members when one member is bad', () => {
    const { manifest, diagnostics } = parseManifest({ id: ID, parts: ['story/a.sty', 5, 'story/b.sty'] })
    expect(manifest?.parts?.map((p) => p.file)).toEqual(['story/a.sty', 'story/b.sty'])
    expect(diagnostics).toMatchObject([{ code: 'manifest/invalid-type', field: '/parts/1' }])
  })
  it('is idempotent: the canonical form parses to itself with no normalisation', () => {
    const first = parseManifest({
      id: ID,
      author: 'Ann',
      parts: ['story/0001-inn.sty'],
      assets: ['assets/x.png'],
    })
    const second = parseManifest(JSON.parse(serializeManifest(first.manifest!)))
    expect(second.manifest).toEqual(first.manifest)
    expect(second.diagnostics).toEqual([])
  })
})

describe('unknown fields', () => {
  it('are preserved untouched through parse and serialise, nested ones included', () => {
    const input = {
      id: ID,
      x_custom: { deep: [1, { a: null }] },
      parts: [{ file: 'story/0001-inn.sty', name: 'Inn', music: 'assets/a.ogg' }],
      reader: { tabBar: { enabled: true, bag: { enabled: true, coins: 5 } }, theme: 'dark' },
      zz: 'last',
    }
    const { manifest, diagnostics } = parseManifest(input)
    const out = JSON.parse(serializeManifest(manifest!))
    expect(out).toEqual(input)
    expect(Object.keys(out)).toEqual(['id', 'parts', 'reader', 'x_custom', 'zz'])
    expect(diagnostics.map((d) => d.code)).toEqual(['manifest/unknown-field', 'manifest/unknown-field'])
  })
})

describe('the parser never throws', () => {
  test.prop([fc.jsonValue()], { numRuns: 500 })('any JSON value gives diagnostics or a manifest', (value) => {
    const r = parseManifest(value)
    expect(r.manifest !== undefined || r.diagnostics.some((d) => d.severity === 'fatal')).toBe(true)
  })
  test.prop(
    [
      fc.dictionary(
        fc.constantFrom(
          'id',
          'parts',
          'assets',
          'author',
          'integrity',
          'age',
          'readers',
          'reader',
          'build',
          'allowed_urls',
          'preload',
          'tags',
          'type',
          'season',
        ),
        fc.jsonValue({ maxDepth: 3 }),
      ),
    ],
    { numRuns: 500 },
  )('objects with known fields of any shape give diagnostics or a manifest', (value) => {
    const r = parseManifest({ id: ID, ...value })
    if (typeof value.id === 'string' && value.id.trim() !== '') expect(r.manifest).toBeDefined()
    if (r.manifest) expect(() => serializeManifest(r.manifest!)).not.toThrow()
  })
  test.prop([fc.string()])('any text gives diagnostics or a manifest', (text) => {
    expect(() => parseManifest(text)).not.toThrow()
  })
})
