/**
 * Property: arbitrary byte mutations of valid packages (flipped bytes, truncation, inserted or
 * removed bytes) only ever produce the reader's own diagnostics: the promise resolves, every
 * code is in the catalogue, a loaded package reads back every file, and the open finishes. They
 * also never take the reader past its memory bound: whatever sizes the headers declare (seeds
 * below declare 48 MiB and 1 TiB, or hide a bomb), the bytes it inflates stay under the limit
 * and so does the memory it allocates for them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { isDiagnosticCode } from '@spkg/manifest'
import { buildArchive, buildPackage, packageFiles } from '@spkg/test-utils'
import type { InflateResult } from '@spkg/zip'
import { deflateSync } from 'fflate'
import { describe, expect } from 'vitest'
import * as web from '../index'
import * as node from '../node'
import { nodeBackend } from '../node/backend'
import { type ReaderBackend, webBackend } from '../zip/backend'
import { openArchive } from './open-archive'
import type { OpenResult } from './types'

const seeds: Uint8Array[] = [
  buildPackage({
    manifest: { title: 'Seed', extensions: ['extensions/a.xty'] },
    parts: { 'story/0001-a.sty': 'Hello there.\n'.repeat(40), 'story/0002-b.sty': 'B\n' },
    assets: { 'assets/x.png': new Uint8Array(300).map((_, i) => i % 256) },
    extensions: { 'extensions/a.xty': 'fn a() {}' },
    session: { n: 1 },
    integrity: true,
  }),
  buildPackage({ layout: 'flat', parts: { 'a.sty': 'flat story\n' }, assets: { 'b.png': 'img' } }),
  buildArchive(
    [...packageFiles()].map(([name, data]) => ({ name, data, dataDescriptor: true, zip64: true })),
    { zip64End: true },
  ),
]

const MiB = 1024 * 1024
/** The uncompressed-size limit the memory property opens with: small, so a breach is plain. */
const LIMIT = 256 * 1024
const small = { 'story/0001-a.sty': 'Hello there.\n'.repeat(40), 'story/0002-b.sty': 'B\n' }
/** Valid packages, plus archives whose headers claim far more than they hold or hold far more than they claim. */
const claimSeeds: Uint8Array[] = [
  ...seeds,
  // a bomb: declares 100 bytes, inflates to 4 MiB
  buildPackage({
    parts: small,
    files: { 'story/bomb.sty': 'x' },
    entry: { 'story/bomb.sty': { payload: deflateSync(new Uint8Array(4 * MiB)), size: 100 } },
  }),
  // declares 48 MiB (under the default limit, far over LIMIT) and holds 520 bytes
  buildPackage({ parts: small, entry: { 'story/0001-a.sty': { size: 48 * MiB } } }),
  // the same, stored
  buildPackage({ parts: small, entry: { 'story/0001-a.sty': { method: 0, size: 48 * MiB } } }),
  // ZIP64 sizes of 1 TiB
  buildArchive(
    [...packageFiles({ parts: small })].map(([name, data]) => ({
      name,
      data,
      zip64: true,
      ...(name === 'story/0001-a.sty' ? { size: 2 ** 40 } : {}),
    })),
    { zip64End: true },
  ),
]

/** What a backend saw during one open. */
interface Seen {
  /** Bytes handed to the CRC-32 check: every entry the reader materialised, inflated or stored. */
  verified: number
  /** The largest output the reader allowed the inflater for one entry. */
  largestAllowance: number
  /** The most ArrayBuffer memory in use at any check, less what was in use before the open. */
  peakArrayBuffers: number
}

const arrayBuffers = () => process.memoryUsage().arrayBuffers

/**
 * `backend` with its inflater and CRC-32 watched: what they were allowed, what they produced, and
 * the ArrayBuffer memory in use right after each entry is inflated (the entry's buffer is alive
 * then, so a reader that allocated what a header declared shows here).
 */
function watched(backend: ReaderBackend): { backend: ReaderBackend; seen: Seen } {
  const base = arrayBuffers()
  const seen: Seen = { verified: 0, largestAllowance: 0, peakArrayBuffers: 0 }
  const sample = () => {
    seen.peakArrayBuffers = Math.max(seen.peakArrayBuffers, arrayBuffers() - base)
  }
  const after = (r: InflateResult) => {
    sample()
    return r
  }
  const { inflater } = backend
  const allow = (limit: number) => {
    seen.largestAllowance = Math.max(seen.largestAllowance, limit)
  }
  return {
    seen,
    backend: {
      ...backend,
      crc32(data) {
        seen.verified += data.length
        sample()
        return backend.crc32(data)
      },
      inflater: {
        inflateRaw(input, declared, limit) {
          allow(limit)
          return after(inflater.inflateRaw(input, declared, limit))
        },
        ...(inflater.inflateRawAsync
          ? {
              inflateRawAsync(input: Uint8Array, declared: number, limit: number) {
                allow(limit)
                const r = inflater.inflateRawAsync!(input, declared, limit)
                return r instanceof Promise ? r.then(after) : after(r)
              },
            }
          : {}),
      },
    },
  }
}

type Mutation =
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: number[] }
  | { kind: 'remove'; at: number; count: number }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.nat(255) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      bytes: fc.array(fc.nat(255), { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('remove' as const),
      at: fc.nat(),
      count: fc.integer({ min: 1, max: 8 }),
    }),
  },
)

function apply(seed: Uint8Array, mutations: Mutation[]): Uint8Array {
  let b = seed.slice()
  for (const m of mutations) {
    const at = b.length === 0 ? 0 : m.at % b.length
    if (m.kind === 'set') {
      if (b.length > 0) b[at] = m.value
    } else if (m.kind === 'truncate') b = b.slice(0, at)
    else if (m.kind === 'insert') b = new Uint8Array([...b.subarray(0, at), ...m.bytes, ...b.subarray(at)])
    else b = new Uint8Array([...b.subarray(0, at), ...b.subarray(at + m.count)])
  }
  return b
}

async function check(r: OpenResult): Promise<void> {
  for (const d of r.diagnostics) expect(isDiagnosticCode(d.code), d.code).toBe(true)
  if (r.ok) {
    expect(r.diagnostics.some((d) => d.severity === 'fatal')).toBe(false)
    for (const e of r.package.entries) expect((await r.package.readBytes(e.path)).length).toBe(e.size)
    r.package.close()
  } else expect(r.diagnostics.some((d) => d.severity === 'fatal')).toBe(true)
}

describe('mutated packages', () => {
  test.prop([fc.nat(seeds.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 })], { numRuns: 300 })(
    'only ever produce the reader diagnostics, through both backends and peek',
    async (which, mutations) => {
      const bytes = apply(seeds[which]!, mutations)
      await check(await web.openPackage(bytes))
      await check(await node.openPackage(bytes))
      const peek = await web.peekPackage(bytes)
      for (const d of peek.diagnostics) expect(isDiagnosticCode(d.code), d.code).toBe(true)
    },
  )

  test.prop([fc.nat(claimSeeds.length - 1), fc.array(mutation, { maxLength: 3 })], { numRuns: 200 })(
    'never inflate or allocate past the limit, whatever sizes the headers declare',
    async (which, mutations) => {
      const bytes = apply(claimSeeds[which]!, mutations)
      for (const backend of [webBackend, nodeBackend]) {
        const w = watched(backend)
        const r = await openArchive(bytes, { limits: { maxUncompressedBytes: LIMIT } }, w.backend)
        for (const d of r.diagnostics) expect(isDiagnosticCode(d.code), d.code).toBe(true)
        if (r.ok) r.package.close()
        expect(w.seen.verified).toBeLessThanOrEqual(LIMIT)
        expect(w.seen.largestAllowance).toBeLessThanOrEqual(LIMIT)
        // Room for copies of the archive, its entries and the inflaters' own buffers (about 2.5 MiB
        // at most measured), not for a declared 48 MiB or 1 TiB nor for a bomb let loose.
        expect(w.seen.peakArrayBuffers).toBeLessThanOrEqual(16 * LIMIT + 4 * bytes.length + 8 * MiB)
      }
    },
  )

  test.prop([fc.nat(seeds.length - 1), fc.nat(), fc.nat(255)], { numRuns: 200 })(
    'a flipped byte in the data or headers never loads different content unnoticed',
    async (which, at, value) => {
      const seed = seeds[which]!
      const bytes = seed.slice()
      const i = at % bytes.length
      if (bytes[i] === value) return
      bytes[i] = value
      const before = await node.openPackage(seed)
      const after = await node.openPackage(bytes)
      if (!after.ok || !before.ok) return
      // Whatever loads must be the same files with the same bytes (a flip in a comment, an
      // unused header field or a timestamp may load; a flip in content may not).
      for (const e of after.package.entries)
        if (before.package.has(e.path))
          expect(await after.package.readBytes(e.path)).toEqual(await before.package.readBytes(e.path))
    },
  )

  const dir = mkdtempSync(join(tmpdir(), 'spkg-peek-'))
  test.prop([fc.nat(seeds.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 })], { numRuns: 150 })(
    'the sparse file peek reaches the same verdict as a peek of the whole bytes',
    async (which, mutations) => {
      const bytes = apply(seeds[which]!, mutations)
      const file = join(dir, 'p.spkg')
      writeFileSync(file, bytes)
      const whole = await node.peekPackage(bytes)
      const sparse = await node.peekPackageFile(file)
      expect(sparse.diagnostics.map((d) => d.code)).toEqual(whole.diagnostics.map((d) => d.code))
      expect(sparse.ok).toBe(whole.ok)
      if (sparse.ok && whole.ok)
        for (const e of whole.entries) {
          const a = await whole.readBytes(e.path).catch((x: { code?: string }) => x.code)
          const b = await sparse.readBytes(e.path).catch((x: { code?: string }) => x.code)
          expect(b).toEqual(a)
        }
    },
  )
})
