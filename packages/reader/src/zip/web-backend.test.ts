import { createHash } from 'node:crypto'
import type { Diagnostic } from '@spkg/manifest'
import { buildArchive, buildPackage, deflateBomb, type EntrySpec, packageFiles } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { openArchive } from '../open/open-archive'
import type { OpenOptions } from '../open/types'
import { createWebBackend, defaultWebOptions, type WebBackendOptions, webBackend } from './backend'

const codes = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'fatal').map((x) => x.code)
const prose = (n: number, seed: number) => {
  let s = ''
  for (let x = seed; s.length < n; x = (x * 1103515245 + 12345) & 0x7fffffff) s += `${x % 97} fire `
  return s
}

describe('defaultWebOptions', () => {
  it('streams from 1 KiB and hashes with WebCrypto in a browser with DecompressionStream', () => {
    expect(defaultWebOptions({ node: false, stream: true })).toEqual({ streamFrom: 1024, jsHashBelow: 0 })
  })

  it('falls back to the JavaScript inflater for every entry where DecompressionStream is missing', () => {
    expect(defaultWebOptions({ node: false, stream: false }).streamFrom).toBe(Number.POSITIVE_INFINITY)
  })

  it('never streams in Node and hashes small files in JavaScript there', () => {
    expect(defaultWebOptions({ node: true, stream: true })).toEqual({
      streamFrom: Number.POSITIVE_INFINITY,
      jsHashBelow: 16 * 1024,
    })
    expect(defaultWebOptions()).toEqual(defaultWebOptions({ node: true, stream: true }))
  })
})

describe('createWebBackend hashing', () => {
  const backend = createWebBackend({ streamFrom: 0, jsHashBelow: 100 })
  it('hashes below the threshold synchronously and from it through WebCrypto, to the same digests', async () => {
    const small = new Uint8Array(99).fill(7)
    const large = new Uint8Array(100).fill(7)
    const a = backend.sha256Hex(small)
    const b = backend.sha256Hex(large)
    expect(typeof a).toBe('string')
    expect(b).toBeInstanceOf(Promise)
    expect(a).toBe(createHash('sha256').update(small).digest('hex'))
    expect(await b).toBe(createHash('sha256').update(large).digest('hex'))
  })
})

describe('the default web backend on a cold open', () => {
  it('makes no DecompressionStream when the WebAssembly inflater takes every entry', async () => {
    const made: unknown[] = []
    const Real = globalThis.DecompressionStream
    globalThis.DecompressionStream = class extends Real {
      constructor(format: CompressionFormat) {
        super(format)
        made.push(format)
      }
    }
    try {
      const bytes = buildPackage({
        parts: { 'story/0001-a.sty': prose(4000, 1), 'story/0002-b.sty': prose(9000, 2) },
      })
      const r = await openArchive(bytes, {}, createWebBackend())
      expect(r.ok).toBe(true)
      expect(made).toEqual([])
    } finally {
      globalThis.DecompressionStream = Real
    }
  })
})

// The whole open pipeline on the stream path (every deflated entry through DecompressionStream)
// with either hasher, and on the default web backend.
const variants: Array<[string, WebBackendOptions | undefined]> = [
  ['DecompressionStream + JS SHA-256', { streamFrom: 0, jsHashBelow: Number.POSITIVE_INFINITY }],
  ['DecompressionStream + WebCrypto', { streamFrom: 0, jsHashBelow: 0 }],
  ['the default web backend', undefined],
]

describe.each(variants)('openArchive on %s', (_, options) => {
  const backend = options ? createWebBackend(options) : webBackend
  const open = (bytes: Uint8Array, opts: OpenOptions = {}) => openArchive(bytes, opts, backend)

  it('opens and verifies a package with large and small deflated entries', async () => {
    const parts = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`story/${i}-p.sty`, prose(i % 2 ? 300 : 60_000, i + 1)]),
    )
    const r = await open(buildPackage({ parts, integrity: true }))
    expect(codes(r.diagnostics)).toEqual([])
    expect(r.ok).toBe(true)
    if (r.ok) expect(await r.package.readText('story/2-p.sty')).toBe(parts['story/2-p.sty'])
  })

  it('refuses a package whose integrity hash does not match', async () => {
    const bytes = buildPackage({
      parts: { 'story/0001-start.sty': prose(20_000, 3) },
      manifest: { integrity: { 'story/0001-start.sty': 'a'.repeat(64) } },
    })
    const r = await open(bytes)
    expect(r.ok).toBe(false)
    expect(codes(r.diagnostics)).toEqual(['pkg/integrity-mismatch'])
  })

  it('stops a zip bomb that declares a small size with pkg/too-large', async () => {
    const bomb: EntrySpec = { name: 'story/bomb.sty', payload: deflateBomb(80 * 2 ** 20), size: 1000, crc: 0 }
    const entries = [...packageFiles()].map(([name, data]): EntrySpec => ({ name, data }))
    const r = await open(buildArchive([...entries, bomb]))
    expect(r.ok).toBe(false)
    expect(codes(r.diagnostics)).toEqual(['pkg/too-large'])
  })

  it.each([
    ['a bad CRC', { crc: 1234 }],
    ['a declared size larger than the data', { size: 60_000 }],
    ['a declared size smaller than the data', { size: 2 }],
    ['a stream that does not inflate', { payload: new Uint8Array(5000).fill(0xff), size: 40_000 }],
  ])('refuses %s with pkg/corrupt-entry', async (_, override) => {
    const bytes = buildPackage({
      parts: { 'story/0001-start.sty': prose(50_000, 5) },
      entry: { 'story/0001-start.sty': override },
    })
    const r = await open(bytes)
    expect(r.ok).toBe(false)
    expect(codes(r.diagnostics)).toEqual(['pkg/corrupt-entry'])
  })
})

describe('hashes in flight', () => {
  const backend = createWebBackend({ streamFrom: 4096, jsHashBelow: 0 })

  it('verifies every hash of more files than may be in flight at once', async () => {
    const parts = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`story/${i}-p.sty`, prose(200, i + 1)]),
    )
    const r = await openArchive(buildPackage({ parts, integrity: true }), {}, backend)
    expect(codes(r.diagnostics)).toEqual([])
    expect(r.ok).toBe(true)
    const bad = buildPackage({
      parts,
      manifest: { integrity: { 'story/299-p.sty': 'b'.repeat(64) } },
    })
    const refused = await openArchive(bad, {}, backend)
    expect(refused.ok).toBe(false)
    expect(codes(refused.diagnostics)).toEqual(['pkg/integrity-mismatch'])
  })

  it('verifies every hash of more bytes than may be in flight at once', async () => {
    const big = (seed: number) => new Uint8Array(7 * 2 ** 20).fill(seed)
    const assets = { 'assets/a.bin': big(1), 'assets/b.bin': big(2), 'assets/c.bin': big(3) }
    const entry = Object.fromEntries(Object.keys(assets).map((k) => [k, { method: 0 }]))
    const r = await openArchive(buildPackage({ assets, entry, integrity: true }), {}, backend)
    expect(codes(r.diagnostics)).toEqual([])
    expect(r.ok).toBe(true)
  })
})
