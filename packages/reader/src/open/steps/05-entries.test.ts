import { createHash } from 'node:crypto'
import { deflateRawSync } from 'node:zlib'
import { fc, test } from '@fast-check/vitest'
import { buildPackage, deflateBomb, type EntrySpec } from '@spkg/test-utils'
import { readZipDirectory, type ZipEntry } from '@spkg/zip'
import { describe, expect, it } from 'vitest'
import { nodeBackend } from '../../node/backend'
import { type ReaderBackend, webBackend } from '../../zip/backend'
import { prepareOpening } from '../open-archive'
import type { Opening } from '../opening'
import { batchRun, verifyEntries } from './05-entries'

const sha = (s: string) => createHash('sha256').update(s).digest('hex')
const opening = async (bytes: Uint8Array, maxUncompressedBytes?: number) =>
  (await prepareOpening(
    bytes,
    maxUncompressedBytes ? { limits: { maxUncompressedBytes } } : {},
    nodeBackend,
    false,
  )) as Opening

describe.each([
  ['web', webBackend],
  ['node', nodeBackend],
])('step 5: every entry (%s backend)', (_, backend) => {
  const parts = { 'story/0002-b.sty': 'B\n', 'story/0001-a.sty': 'A\n' }

  it('hashes every visible file in archive order when asked, and none otherwise', async () => {
    const bytes = buildPackage({ parts, files: { '.DS_Store': 'd' } })
    const hashes = await verifyEntries(await opening(bytes), backend, true, undefined)
    expect([...hashes!]).toEqual([
      ['manifest.json', expect.any(String)],
      ['story/0002-b.sty', sha('B\n')],
      ['story/0001-a.sty', sha('A\n')],
    ])
    expect((await verifyEntries(await opening(bytes), backend, false, undefined))?.size).toBe(0)
  })

  it('reports text that is not UTF-8 or starts with a BOM, and reads on', async () => {
    const o = await opening(
      buildPackage({
        parts: { 'story/0001-a.sty': new Uint8Array([0x41, 0xff]), 'story/0002-b.sty': '\ufeffB' },
      }),
    )
    const before = o.diagnostics.length
    expect(await verifyEntries(o, backend, false, undefined)).toBeDefined()
    expect(o.diagnostics.slice(before).map((d) => [d.code, d.path])).toEqual([
      ['pkg/invalid-text', 'story/0001-a.sty'],
      ['pkg/text-bom', 'story/0002-b.sty'],
    ])
  })

  it('stops a bomb at the shared budget and a bad CRC-32', async () => {
    const bomb = buildPackage({
      files: { 'story/bomb.sty': 'x' },
      entry: { 'story/bomb.sty': { payload: deflateBomb(4 * 2 ** 20), size: 10, crc: 0 } },
    })
    const o = await opening(bomb, 2 ** 20)
    const before = o.diagnostics.length
    expect(await verifyEntries(o, backend, false, undefined)).toBeUndefined()
    expect(o.diagnostics.slice(before).map((d) => d.code)).toEqual(['pkg/too-large'])
    const crc = await opening(buildPackage({ entry: { 'story/0001-start.sty': { crc: 1 } } }))
    const at = crc.diagnostics.length
    expect(await verifyEntries(crc, backend, false, undefined)).toBeUndefined()
    expect(crc.diagnostics.slice(at).map((d) => d.code)).toEqual(['pkg/corrupt-entry'])
  })

  it('rejects with the reason when the signal aborts', async () => {
    const o = await opening(buildPackage({ parts }))
    await expect(verifyEntries(o, backend, true, AbortSignal.abort(new Error('stop')))).rejects.toThrow(
      'stop',
    )
  })
})

describe('step 5: hashing with WebCrypto', () => {
  it('asks for the hashes of small files together, not after each file', async () => {
    const parts = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`story/${String(i).padStart(4, '0')}-p.sty`, `part ${i}\n`]),
    )
    const o = await opening(buildPackage({ parts }))
    // Which call came when: x for an entry inflated, h for a hash asked.
    let log = ''
    const inflater = webBackend.inflater
    const backend = {
      ...webBackend,
      inflater: {
        inflateRaw: (i: Uint8Array, d: number, l: number) => {
          log += 'x'
          return inflater.inflateRaw(i, d, l)
        },
      },
      sha256Hex: async (data: Uint8Array) => {
        log += 'h'
        return sha(Buffer.from(data).toString())
      },
    }
    const hashes = await verifyEntries(o, backend, true, undefined)
    expect(hashes?.get('story/0042-p.sty')).toBe(sha('part 42\n'))
    // Every part inflated before the first hash is asked (they fit one batch), then 101 hashes
    // (the manifest's too: step 4 inflated it, and it is not inflated again).
    expect(log).toBe(`${'x'.repeat(100)}${'h'.repeat(101)}`)
  })
})

describe('step 5: runs of small entries in one call of the inflater (web backend)', () => {
  /** The web backend without its batch path: one call per entry. */
  const oneByOne: ReaderBackend = {
    ...webBackend,
    inflater: { ...webBackend.inflater, inflateBatch: undefined },
  }
  const partsOf = (n: number, size: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `story/${String(i).padStart(4, '0')}-p.sty`,
        `Part ${i}: ${'the ferry waits. '.repeat(Math.ceil(size / 17))}`.slice(0, size),
      ]),
    )

  /** Everything step 5 decides: the findings, the hashes, what every file reads back. */
  async function outcome(bytes: Uint8Array, backend: ReaderBackend, limit?: number) {
    const o = await opening(bytes, limit)
    if (!('store' in o)) return { prepared: (o as { diagnostics: unknown[] }).diagnostics }
    const before = o.diagnostics.length
    const hashes = await verifyEntries(o, backend, true, undefined)
    const files = hashes
      ? [...hashes.keys()].map((p) => [p, Buffer.from(o.store.read(p)).toString('base64')])
      : undefined
    return { diagnostics: o.diagnostics.slice(before), hashes: hashes && [...hashes], files }
  }

  it('inflates runs of small deflated entries in a few calls, with the answers of one call per entry', async () => {
    let runs = 0
    let entries = 0
    let one = 0
    const counted: ReaderBackend = {
      ...webBackend,
      inflater: {
        ...webBackend.inflater,
        inflateBatch: (...a) => {
          runs++
          entries += a[1].length
          return webBackend.inflater.inflateBatch!(...a)
        },
        inflateRawAsync: (...a) => {
          one++
          return webBackend.inflater.inflateRawAsync!(...a)
        },
      },
    }
    // 200 parts of 4 KB (800 KB: several runs of at most 256 KB), a stored asset between them.
    const bytes = buildPackage({
      parts: partsOf(200, 4096),
      assets: { 'assets/a.png': new Uint8Array(3000).map((_, i) => i) },
      entry: { 'assets/a.png': { method: 0 } },
      integrity: true,
    })
    const batched = await outcome(bytes, counted)
    expect(batched).toEqual(await outcome(bytes, oneByOne))
    expect(batched.diagnostics).toEqual([])
    expect(entries).toBe(200)
    expect(runs).toBeGreaterThanOrEqual(4)
    expect(runs).toBeLessThanOrEqual(6)
    // Nothing through the one-entry path: the manifest was verified in step 4, the asset is stored.
    expect(one).toBe(0)
  })

  it('reports a failing entry in a run as one call per entry does, and reads on after a text finding', async () => {
    const parts: Record<string, string | Uint8Array> = partsOf(30, 300)
    parts['story/0007-p.sty'] = new Uint8Array([0x41, 0xff])
    parts['story/0009-p.sty'] = '\ufeffWith a BOM'
    const texts = buildPackage({ parts })
    const t = await outcome(texts, webBackend)
    expect(t.diagnostics?.map((d) => [d.code, d.path])).toEqual([
      ['pkg/invalid-text', 'story/0007-p.sty'],
      ['pkg/text-bom', 'story/0009-p.sty'],
    ])
    expect(t).toEqual(await outcome(texts, oneByOne))
    const crc = buildPackage({ parts: partsOf(30, 300), entry: { 'story/0012-p.sty': { crc: 7 } } })
    const c = await outcome(crc, webBackend)
    expect(c.diagnostics?.map((d) => [d.code, d.path])).toEqual([['pkg/corrupt-entry', 'story/0012-p.sty']])
    expect(c).toEqual(await outcome(crc, oneByOne))
  })

  it('charges a run to the shared budget: an entry after it that inflates past its size finds it spent', async () => {
    const bytes = buildPackage({
      parts: partsOf(20, 500),
      files: { 'zz/lie.bin': 'x' },
      // Declares 10 bytes and inflates to 8,000.
      entry: { 'zz/lie.bin': { payload: deflateRawSync(new Uint8Array(8000)), size: 10 } },
    })
    const entries = readZipDirectory(bytes).directory!.entries
    expect(entries.at(-1)!.name).toBe('zz/lie.bin')
    // What the entries declare passes the directory's check; the lie's 8,000 bytes do not fit.
    const limit = entries.reduce((t, x) => t + x.size, 0) + 4000
    const r = await outcome(bytes, webBackend, limit)
    expect(r.diagnostics?.map((d) => [d.code, d.path])).toEqual([['pkg/too-large', 'zz/lie.bin']])
    expect(r).toEqual(await outcome(bytes, oneByOne, limit))
  })

  type Spoil = 'crc' | 'short' | 'long' | 'corrupt' | 'not-utf8' | 'bom' | 'stored' | 'large' | 'lie'
  test.prop(
    [
      fc.integer({ min: 2, max: 40 }),
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.constantFrom<Spoil>(
            'crc',
            'short',
            'long',
            'corrupt',
            'not-utf8',
            'bom',
            'stored',
            'large',
            'lie',
          ),
        ),
        { maxLength: 4 },
      ),
      fc.option(fc.double({ min: 0.05, max: 1.1, noNaN: true }), { nil: undefined }),
    ],
    { numRuns: 100 },
  )(
    'gives the findings, hashes and bytes of one call per entry, whatever fails and wherever the budget ends',
    async (n, spoils, share) => {
      const parts: Record<string, string | Uint8Array> = partsOf(n, 700)
      const entry: Record<string, Partial<EntrySpec>> = {}
      for (const [at, spoil] of spoils) {
        const name = `story/${String(at % n).padStart(4, '0')}-p.sty`
        const size = new TextEncoder().encode(parts[name] as string).length
        if (spoil === 'crc') entry[name] = { crc: 1 }
        if (spoil === 'short') entry[name] = { size: size - 1 }
        if (spoil === 'long') entry[name] = { size: size + 3 }
        if (spoil === 'corrupt') entry[name] = { payload: new Uint8Array(40).fill(0xff) }
        if (spoil === 'stored') entry[name] = { method: 0 }
        if (spoil === 'not-utf8') parts[name] = new Uint8Array([0x61, 0xc3])
        if (spoil === 'bom') parts[name] = `\ufeff${parts[name] as string}`
        if (spoil === 'large') parts[name] = 'x'.repeat(70_000)
        if (spoil === 'lie') entry[name] = { payload: deflateRawSync(new Uint8Array(6000)), size: 10 }
      }
      const bytes = buildPackage({ parts, entry, integrity: true })
      // What the entries declare passes the directory's check; a lie may run past the budget.
      const declared = readZipDirectory(bytes).directory!.entries.reduce((t, x) => t + x.size, 0)
      const limit = share === undefined ? undefined : declared + Math.floor(8000 * share)
      expect(await outcome(bytes, webBackend, limit)).toEqual(await outcome(bytes, oneByOne, limit))
    },
  )
})

describe('batchRun', () => {
  const e = (name: string, dataOffset: number, size: number, more: Partial<ZipEntry> = {}): ZipEntry => ({
    name,
    isDirectory: false,
    ignored: false,
    method: 8,
    flags: 0,
    crc32: 0,
    size,
    compressedSize: Math.ceil(size / 2),
    localHeaderOffset: dataOffset - 30,
    dataOffset,
    end: dataOffset + Math.ceil(size / 2),
    ...more,
  })
  const o = { bytes: new Uint8Array(2_000_000) }
  const row = [e('a', 100, 1000), e('b', 700, 1000), e('c', 1300, 1000), e('d', 1900, 1000)]

  it('takes consecutive small deflated entries, and the range that holds their inputs', () => {
    expect(batchRun(o, row, 0, 1e9)).toEqual({ entries: row, lo: 100, hi: 2400 })
    expect(batchRun(o, row, 1, 1e9)?.entries.map((x) => x.name)).toEqual(['b', 'c', 'd'])
  })

  it('stops before a stored, large, deferred entry or the manifest, and takes no run of one', () => {
    const at = (x: ZipEntry) => [row[0]!, row[1]!, x, row[3]!]
    expect(batchRun(o, at(e('s', 1300, 10, { method: 0 })), 0, 1e9)?.entries.length).toBe(2)
    expect(batchRun(o, at(e('l', 1300, 70_000)), 0, 1e9)?.entries.length).toBe(2)
    expect(batchRun({ ...o, deferred: new Map([['c', 'h']]) }, row, 0, 1e9)?.entries.length).toBe(2)
    expect(batchRun({ ...o, manifestEntry: row[2] }, row, 0, 1e9)?.entries.length).toBe(2)
    expect(batchRun({ ...o, manifestEntry: row[1] }, row, 0, 1e9)).toBeUndefined()
    expect(batchRun(o, row, 3, 1e9)).toBeUndefined()
  })

  it('stops within the budget left, 256 KiB of output, 256 KiB of input range and the archive', () => {
    expect(batchRun(o, row, 0, 3500)?.entries.length).toBe(3)
    expect(batchRun(o, row, 0, 1500)).toBeUndefined()
    const many = Array.from({ length: 100 }, (_, i) => e(`m${i}`, 100 + i * 5000, 10_000))
    expect(batchRun(o, many, 0, 1e9)?.entries.length).toBe(26)
    const far = [row[0]!, e('far', 300_000, 1000)]
    expect(batchRun(o, far, 0, 1e9)).toBeUndefined()
    expect(batchRun({ bytes: new Uint8Array(2000) }, row, 0, 1e9)?.entries.length).toBe(3)
  })
})
