/**
 * The bounds of manifest.json: size before JSON.parse, nesting
 * without recursion, key and value counts, every field's strings, lists and maps, and the version
 * pattern. Both parse paths (fast and schema-only) must give the same result.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Diagnostic } from './diagnostic'
import { MANIFEST_FIELD_NAMES } from './fields'
import {
  CODES,
  checkManifestBounds,
  MANIFEST_LIMITS,
  type ManifestBound,
  parseManifest,
  parseManifestText,
  VERSION_PATTERN,
} from './index'
import { parseManifestWith } from './parse-manifest'

const ID = '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14'
const L = MANIFEST_LIMITS
/** Every test here asks for the bounds, as the validator and the platform do. */
const B = { bounds: checkManifestBounds }
const F = L.fields

const codes = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity !== 'info').map((d) => d.code)
const bound = (ds: readonly Diagnostic[]) =>
  ds
    .filter((d) => /^manifest\/too-/.test(d.code))
    .map((d) => ({
      code: d.code,
      severity: d.severity,
      ...(d.field === undefined ? {} : { field: d.field }),
    }))

/** Both paths, the same answer; the fast one returned. */
function parseBoth(value: Record<string, unknown>) {
  const fast = parseManifestWith(value, B, true)
  expect(parseManifestWith(value, B, false)).toEqual(fast)
  return fast
}

/** A list of `n` distinct strings of `length` characters under `prefix`. */
const strings = (n: number, length: number, prefix = '') =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`.padEnd(length, 'x'))

/** An `n`-level nest of arrays as text, and as a value built without recursion. */
const nestText = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`
function nestValue(n: number): unknown[] {
  const root: unknown[] = []
  let at = root
  for (let i = 1; i < n; i++) {
    const next: unknown[] = []
    at.push(next)
    at = next
  }
  return root
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('manifest.json size (item 1)', () => {
  it('refuses 40 MiB of one letter before JSON.parse, with manifest/too-large and no manifest', () => {
    const text = JSON.stringify({ id: ID, description: 'a'.repeat(40 * 1024 * 1024) })
    const parse = vi.spyOn(JSON, 'parse')
    const t0 = performance.now()
    const r = parseManifestText(text, B)
    const ms = performance.now() - t0
    expect(parse).not.toHaveBeenCalled()
    expect(r.manifest).toBeUndefined()
    expect(r.diagnostics).toMatchObject([
      { code: 'manifest/too-large', severity: 'fatal', path: 'manifest.json' },
    ])
    expect(r.diagnostics[0]?.message).toContain('1 MiB')
    // A length comparison, not a scan: recorded for the issue, not asserted (a loaded machine).
    console.info(`40 MiB manifest refused in ${ms.toFixed(2)} ms`)
  })

  it('counts UTF-8 bytes: 1 MiB of ASCII is read, 1 MiB of characters of two bytes each is not', () => {
    const wrap = (fill: string, n: number) => `{"id":"${ID}","x":"${fill.repeat(n)}"}`
    const overhead = wrap('', 0).length
    const ascii = wrap('a', L.maxBytes - overhead)
    expect(new TextEncoder().encode(ascii).length).toBe(L.maxBytes)
    expect(codes(parseManifestText(ascii, B).diagnostics)).not.toContain('manifest/too-large')
    // Half as many characters of two bytes each, plus one: one byte over.
    const twoByte = wrap('é', (L.maxBytes - overhead) / 2 + 1)
    expect(twoByte.length).toBeLessThan(L.maxBytes)
    expect(codes(parseManifestText(twoByte, B).diagnostics)).toEqual(['manifest/too-large'])
    // An astral character is 2 UTF-16 units and 4 bytes.
    const astral = wrap('😀', Math.floor((L.maxBytes - overhead) / 4) + 1)
    expect(codes(parseManifestText(astral, B).diagnostics)).toEqual(['manifest/too-large'])
  })
})

describe('nesting (items 2 and 6)', () => {
  const at = (levels: number) => `{"id":"${ID}","x":${nestText(levels)}}`

  it('reads 64 levels (the manifest object is level 1) and refuses 65, with the pointer of the first too deep', () => {
    expect(codes(parseManifestText(at(L.maxDepth - 1), B).diagnostics)).toEqual([])
    const r = parseManifestText(at(L.maxDepth), B)
    expect(r.manifest).toBeUndefined()
    expect(r.diagnostics).toMatchObject([
      { code: 'manifest/too-deep', severity: 'fatal', field: `/x${'/0'.repeat(L.maxDepth - 1)}` },
    ])
  })

  it.each([3_000, 5_000, 100_000])('refuses %i levels as text and as a value, without recursion', (n) => {
    const fromText = parseManifestText(at(n), B)
    const fromValue = parseBoth({ id: ID, x: nestValue(n) })
    expect(fromText.diagnostics).toMatchObject([{ code: 'manifest/too-deep', severity: 'fatal' }])
    // The text scan and the value walk name the same place in the same words.
    expect(fromValue).toEqual(fromText)
  })

  it('names keys and indexes on the way down; brackets inside strings do not count', () => {
    const text = `{"id":"${ID}","reader":{"a\\"[{":1,"tabBar":{"help":{"deep~/":[0,"]]",${nestText(62)}]}}}}`
    const r = parseManifestText(text, B)
    // reader 2, tabBar 3, help 4, deep~/ 5, its item 2 level 6: the 60th array of the nest is level 65.
    const expected = `/reader/tabBar/help/deep~0~1/2${'/0'.repeat(59)}`
    expect(r.diagnostics).toMatchObject([{ code: 'manifest/too-deep', field: expected }])
    expect(parseBoth(JSON.parse(text))).toEqual(r)
    const inStrings = `{"id":"${ID}","a":"${'['.repeat(100)}","b":"\\\\\\"${'{'.repeat(100)}"}`
    expect(JSON.parse(inStrings).b).toBe(`\\"${'{'.repeat(100)}`)
    expect(codes(parseManifestText(inStrings, B).diagnostics)).toEqual([])
  })

  it('a cyclic value (not JSON, but parseManifest takes any value) is refused, not walked forever', () => {
    const x: Record<string, unknown> = { a: 1 }
    x.self = x
    expect(codes(parseManifest({ id: ID, x }, B).diagnostics)).toEqual(['manifest/too-deep'])
    // Two ways back: the walk meets the value bound before the depth bound.
    x.again = x
    expect(codes(parseManifest({ id: ID, x }, B).diagnostics)).toEqual(['manifest/too-large'])
  })
})

describe('key and value counts of the whole manifest', () => {
  it(`refuses more than ${L.maxKeys} keys and more than ${L.maxValues} values (fatal, no manifest)`, () => {
    // 120 objects of 84 keys each: every object within its bound, the whole over.
    const objects = Array.from({ length: 120 }, (_, i) =>
      Object.fromEntries(Array.from({ length: 84 }, (_, k) => [`k${i}-${k}`, 0])),
    )
    const keys = parseBoth({ id: ID, x: objects })
    expect(keys.manifest).toBeUndefined()
    expect(keys.diagnostics).toMatchObject([{ code: 'manifest/too-large', severity: 'fatal' }])
    expect(keys.diagnostics[0]?.message).toContain(`${L.maxKeys} object keys`)
    // 60 lists of 900 numbers each.
    const lists = Array.from({ length: 60 }, () => Array.from({ length: 900 }, () => 0))
    const values = parseBoth({ id: ID, x: lists })
    expect(values.diagnostics).toMatchObject([{ code: 'manifest/too-large', severity: 'fatal' }])
    expect(values.diagnostics[0]?.message).toContain(`${L.maxValues} JSON values`)
  })

  it('300,000 keys are refused in one walk that stops at the bound', () => {
    const x = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, i]))
    const text = JSON.stringify({ id: ID, x })
    expect(text.length).toBeLessThan(L.maxBytes * 5)
    expect(codes(parseManifest({ id: ID, x }, B).diagnostics)).toEqual(['manifest/too-large'])
  })
})

/** A value at its bound exactly (`over`: one more character, item or key). */
function sample(b: ManifestBound, over: boolean, what: 'string' | 'list' | 'object'): unknown {
  const n = (max: number) => (over ? max + 1 : max)
  if (what === 'string') return 'a'.repeat(n(b.maxLength ?? L.other.maxLength))
  if (what === 'list') return Array.from({ length: n(b.maxItems ?? L.other.maxItems) }, () => 1)
  return Object.fromEntries(
    Array.from({ length: n(b.maxOtherKeys ?? L.other.maxOtherKeys) }, (_, i) => [`x${i}`, 1]),
  )
}

describe('every field has a bound (item 1)', () => {
  it('names every field of the SPEC table', () => {
    expect(Object.keys(F)).toEqual(MANIFEST_FIELD_NAMES)
  })

  for (const field of MANIFEST_FIELD_NAMES) {
    const b = F[field] as ManifestBound
    const kinds = [
      b.maxLength !== undefined && 'string',
      b.maxItems !== undefined && 'list',
      b.maxOtherKeys !== undefined && 'object',
    ].filter((k): k is 'string' | 'list' | 'object' => k !== false)
    if (field === 'id') continue // below: without an id there is no manifest
    for (const kind of kinds)
      it(`${field}: a ${kind} at its bound passes the bounds, one over is reported at /${field} and left out`, () => {
        const at = parseBoth({ id: ID, [field]: sample(b, false, kind) })
        expect(bound(at.diagnostics)).toEqual([])
        const keep = field === 'title' ? 'genre' : 'title'
        const over = parseBoth({ id: ID, [field]: sample(b, true, kind), [keep]: 'Kept' })
        expect(bound(over.diagnostics)).toEqual([
          {
            code: kind === 'string' ? 'manifest/too-long' : 'manifest/too-many',
            severity: 'error',
            field: `/${field}`,
          },
        ])
        expect(over.manifest && Object.hasOwn(over.manifest, field)).toBe(false)
        expect(over.manifest?.[keep]).toBe('Kept')
      })
  }

  it('id: over 100 characters is too long, and then there is no id (fatal)', () => {
    const r = parseBoth({ id: 'a'.repeat(F.id.maxLength + 1) })
    expect(r.manifest).toBeUndefined()
    expect(codes(r.diagnostics)).toEqual(['manifest/missing-id', 'manifest/too-long'])
    expect(r.diagnostics[0]?.message).toContain('at most 100 characters')
  })

  it('a list member over its bound is left out alone; the list keeps the others', () => {
    const name = 'n'.repeat(F.parts.item!.properties!.name!.maxLength! + 1)
    const r = parseBoth({
      id: ID,
      parts: ['story/0001-a.sty', { file: 'story/0002-b.sty', name }, 'story/0003-c.sty'],
      tags: ['ok', 't'.repeat(101), 'fine'],
    })
    expect(bound(r.diagnostics)).toEqual([
      { code: 'manifest/too-long', severity: 'error', field: '/tags/1' },
      { code: 'manifest/too-long', severity: 'error', field: '/parts/1/name' },
    ])
    expect(r.manifest?.parts?.map((p) => p.file)).toEqual(['story/0001-a.sty', 'story/0003-c.sty'])
    expect(r.manifest?.tags).toEqual(['ok', 'fine'])
  })

  it('integrity: 500 digests pass, 501 are too many; a key over 1,024 characters is left out alone', () => {
    const digest = 'a'.repeat(64)
    const map = (n: number) => Object.fromEntries(strings(n, 20, 'story/').map((k) => [k, digest]))
    expect(bound(parseBoth({ id: ID, integrity: map(500) }).diagnostics)).toEqual([])
    expect(bound(parseBoth({ id: ID, integrity: map(501) }).diagnostics)).toEqual([
      { code: 'manifest/too-many', severity: 'error', field: '/integrity' },
    ])
    const longKey = `assets/${'k'.repeat(L.maxKeyLength)}`
    const r = parseBoth({ id: ID, integrity: { 'story/a.sty': digest, [longKey]: digest } })
    expect(bound(r.diagnostics)).toEqual([
      { code: 'manifest/too-long', severity: 'error', field: '/integrity' },
    ])
    expect(r.diagnostics.find((d) => d.code === 'manifest/too-long')?.message.length).toBeLessThan(200)
    expect(r.manifest?.integrity).toEqual({ 'story/a.sty': digest })
  })

  it('nested free-form objects (reader.tabBar sections, build, allowed_urls params) have a key bound', () => {
    const many = sample({}, true, 'object')
    const r = parseBoth({
      id: ID,
      reader: { tabBar: { enabled: true, help: { enabled: true, ...(many as object) } } },
      allowed_urls: [
        { alias: 'a', url: 'https://a.example' },
        { alias: 'b', url: 'https://b.example', params: many },
      ],
    })
    expect(bound(r.diagnostics)).toEqual([
      { code: 'manifest/too-many', severity: 'error', field: '/reader/tabBar/help' },
      { code: 'manifest/too-many', severity: 'error', field: '/allowed_urls/1/params' },
    ])
    expect(r.manifest?.reader).toBeUndefined()
    expect(r.manifest?.allowed_urls).toEqual([{ alias: 'a', url: 'https://a.example' }])
  })

  it('unknown fields: 100 are kept, more are reported once and all left out; their content is bounded', () => {
    const unknown = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-${i}`, i]))
    const ok = parseBoth({ id: ID, title: 'T', ...unknown(100) })
    expect(bound(ok.diagnostics)).toEqual([])
    expect(Object.keys(ok.manifest!)).toHaveLength(102)
    const over = parseBoth({ id: ID, title: 'T', ...unknown(101) })
    expect(bound(over.diagnostics)).toEqual([{ code: 'manifest/too-many', severity: 'error' }])
    expect(over.manifest).toEqual({ id: ID, title: 'T' })
    const long = parseBoth({ id: ID, 'x-note': 'n'.repeat(L.other.maxLength + 1), 'x-ok': 'y' })
    expect(bound(long.diagnostics)).toEqual([
      { code: 'manifest/too-long', severity: 'error', field: '/x-note' },
    ])
    expect(long.manifest).toEqual({ id: ID, 'x-ok': 'y' })
  })

  it('100,000 tags are one finding, not 100,000', () => {
    const r = parseManifestText(JSON.stringify({ id: ID, tags: strings(100_000, 5) }), B)
    expect(codes(r.diagnostics)).toEqual(['manifest/too-many'])
    expect(r.manifest?.tags).toBeUndefined()
  })

  it('a real, large manifest (500 files, every digest, every field near its bound) has no bound finding', () => {
    const parts = strings(250, 60, 'story/').map((f) => `${f}.sty`)
    const assets = strings(249, 60, 'assets/')
    const integrity = Object.fromEntries([...parts, ...assets].map((f) => [f, 'b'.repeat(64)]))
    const manifest = {
      story_lang: '1.0',
      manifest: '1.0',
      id: ID,
      title: 'T'.repeat(200),
      intro: 'i'.repeat(2_000),
      description: 'd'.repeat(10_000),
      author: Array.from({ length: 50 }, (_, i) => ({ name: `Author ${i}`.padEnd(200, '.'), id: `a${i}` })),
      version: '2024.05.01-rc.1+build.77',
      tags: strings(100, 100),
      parts,
      assets,
      integrity,
      reader: { tabBar: { enabled: true, help: { enabled: true, label: 'Help', hints: ['a', 'b'] } } },
    }
    const text = JSON.stringify(manifest, null, 2)
    expect(text.length).toBeLessThan(L.maxBytes / 4)
    const r = parseManifestText(text, B)
    expect(codes(r.diagnostics)).toEqual([])
    expect(r.manifest?.parts).toHaveLength(250)
  })
})

describe('version pattern (item 14)', () => {
  const accepted = ['1', '1.2.3', '1.0-beta.2', '2024-05-01', 'v3', '1.0.0+build.5', 'V2_final', '0.9rc1']
  const refused = [
    '../../x',
    '1..2',
    '1.0 beta',
    ' 1.0',
    '1.0/2',
    'a\\b',
    '.1',
    '1.0-',
    '-1',
    'x\u0000',
    '1.0\n',
    'é1',
    '',
  ]
  it.each(accepted)('accepts %j', (version) => {
    expect(VERSION_PATTERN.test(version)).toBe(true)
    expect(codes(parseBoth({ id: ID, version }).diagnostics)).toEqual([])
  })
  it.each(refused)('refuses %j with manifest/invalid-version at /version, the value kept', (version) => {
    const r = parseBoth({ id: ID, version })
    expect(VERSION_PATTERN.test(version)).toBe(false)
    expect(r.diagnostics).toMatchObject([
      { code: 'manifest/invalid-version', severity: 'error', field: '/version' },
    ])
    expect(r.manifest?.version).toBe(version)
  })
  it('over 100 characters is too long (the API refused that with api/version-too-long)', () => {
    expect(codes(parseBoth({ id: ID, version: '1'.repeat(100) }).diagnostics)).toEqual([])
    expect(bound(parseBoth({ id: ID, version: '1'.repeat(101) }).diagnostics)).toEqual([
      { code: 'manifest/too-long', severity: 'error', field: '/version' },
    ])
  })
})

describe('the catalogue says the same numbers', () => {
  it('descriptions name the bounds of MANIFEST_LIMITS', () => {
    const d = (code: keyof typeof CODES) => CODES[code].description
    expect(L.maxBytes).toBe(1024 * 1024)
    expect(d('manifest/too-large')).toContain('1 MiB')
    expect(d('manifest/too-large')).toContain(L.maxKeys.toLocaleString('en-US'))
    expect(d('manifest/too-large')).toContain(L.maxValues.toLocaleString('en-US'))
    expect(d('manifest/too-deep')).toContain(`${L.maxDepth} levels`)
    expect(d('manifest/too-many')).toContain(`${L.maxUnknownFields} unknown fields`)
    expect(F.version.maxLength).toBe(100)
  })
})

describe('without the bounds option (a reader that does not ask for them)', () => {
  it('a 20,000-character description parses; with the option it is manifest/too-long', () => {
    const value = { id: ID, description: 'd'.repeat(20_000) }
    const plain = parseManifestText(JSON.stringify(value))
    expect(codes(plain.diagnostics)).toEqual([])
    expect(plain.manifest?.description).toHaveLength(20_000)
    expect(parseManifestWith(value, {}, false)).toEqual(parseManifestWith(value, {}, true))
    expect(bound(parseManifestText(JSON.stringify(value), B).diagnostics)).toEqual([
      { code: 'manifest/too-long', severity: 'error', field: '/description' },
    ])
  })

  it('the size and the nesting are still refused: 2 MiB is manifest/too-large, 5,000 levels manifest/too-deep', () => {
    const big = parseManifestText(JSON.stringify({ id: ID, description: 'a'.repeat(2 * 1024 * 1024) }))
    expect(big.manifest).toBeUndefined()
    expect(big.diagnostics).toMatchObject([{ code: 'manifest/too-large', severity: 'fatal' }])
    const text = `{"id":"${ID}","x":${nestText(5_000)}}`
    const deep = parseManifestText(text)
    expect(deep.manifest).toBeUndefined()
    // The same diagnostic as with the bounds: one guard of the nesting, before either.
    expect(deep.diagnostics).toEqual(parseManifestText(text, B).diagnostics)
    expect(deep.diagnostics).toMatchObject([
      { code: 'manifest/too-deep', severity: 'fatal', field: `/x${'/0'.repeat(L.maxDepth - 1)}` },
    ])
    expect(parseManifest({ id: ID, x: nestValue(5_000) })).toEqual(deep)
  })

  it('the version pattern is publishing policy too: checked with the bounds only', () => {
    expect(codes(parseManifest({ id: ID, version: '../../x' }).diagnostics)).toEqual([])
    expect(codes(parseManifest({ id: ID, version: '../../x' }, B).diagnostics)).toEqual([
      'manifest/invalid-version',
    ])
  })

  it('a value with shared members is refused by its count, never walked forever', () => {
    let x: Record<string, unknown> = { a: 1 }
    for (let i = 0; i < 40; i++) x = { l: x, r: x }
    expect(codes(parseManifest({ id: ID, x }).diagnostics)).toEqual(['manifest/too-large'])
  })
})
