import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { crc32 } from './crc32'
import type { ZipDiagnostic } from './diagnostic'
import { extractEntry } from './extract-entry'
import { boundedInflater } from './inflate'
import { readZipDirectory } from './read-zip-directory'
import {
  encodeZipRecords,
  writeZip,
  type ZipHeaderFields,
  type ZipRecord,
  ZipWriteError,
  zipExtraField,
} from './write-zip'

const enc = new TextEncoder()
const text = enc.encode('The road forks. '.repeat(50))
const noise = Uint8Array.from({ length: 64 }, (_, i) => (i * 97 + 13) % 251)
const deflate = (d: Uint8Array) => deflateRawSync(d)

/** Reads `bytes` back with this package's reader: names, methods and extracted contents. */
function readBack(bytes: Uint8Array) {
  const { directory, diagnostics } = readZipDirectory(bytes)
  expect(diagnostics).toEqual([])
  const out: ZipDiagnostic[] = []
  const budget = { remaining: 1 << 24, limit: 1 << 24 }
  const files = directory!.entries.map((e) => ({
    name: e.name,
    method: e.method,
    flags: e.flags,
    data: extractEntry(bytes, e, { inflater: boundedInflater, crc32 }, budget, out),
  }))
  expect(out).toEqual([])
  return files
}

describe('writeZip', () => {
  it('writes archives the reader reads back, deflating only what shrinks', () => {
    const { bytes, entries } = writeZip(
      [
        { path: 'manifest.json', data: text, method: 8 },
        { path: 'assets/ünïcode.png', data: noise, method: 8 },
        { path: 'story/empty.sty', data: new Uint8Array(0) },
      ],
      { deflate },
    )
    expect(entries.map((e) => [e.path, e.method, e.size])).toEqual([
      ['manifest.json', 8, text.length],
      ['assets/ünïcode.png', 0, 64],
      ['story/empty.sty', 0, 0],
    ])
    expect(entries[0]!.compressedSize).toBeLessThan(text.length)
    const files = readBack(bytes)
    expect(files.map((f) => [f.name, f.method, f.flags])).toEqual([
      ['manifest.json', 8, 0],
      ['assets/ünïcode.png', 0, 0x800],
      ['story/empty.sty', 0, 0],
    ])
    expect(files[0]!.data).toEqual(text)
    expect(files[1]!.data).toEqual(noise)
    expect(inflateRawSync(bytes.subarray(30 + 13, 30 + 13 + entries[0]!.compressedSize))).toEqual(
      Buffer.from(text),
    )
  })

  it('gives the same bytes for the same files, with the fixed time, mode and made-by', () => {
    const files = [{ path: 'a.txt', data: text, method: 8 as const }]
    const a = writeZip(files, { deflate }).bytes
    expect(writeZip(files, { deflate }).bytes).toEqual(a)
    const v = new DataView(a.buffer)
    expect([v.getUint16(10, true), v.getUint16(12, true)]).toEqual([0, 0x21])
    const cd = v.getUint32(a.length - 6, true)
    expect(v.getUint16(cd + 4, true)).toBe(0x0314)
    expect(v.getUint32(cd + 38, true) >>> 16).toBe(0o100644)
  })

  it("flags every name UTF-8 and writes the caller's made-by when asked", () => {
    const { bytes } = writeZip([{ path: 'plain.txt', data: text }], { utf8Flag: 'always', versionMadeBy: 20 })
    const v = new DataView(bytes.buffer)
    expect(v.getUint16(6, true)).toBe(0x800)
    expect(v.getUint16(v.getUint32(bytes.length - 6, true) + 4, true)).toBe(20)
  })

  it('flags names with control characters, which are ASCII but not printable', () => {
    const { bytes } = writeZip([{ path: 'a\u007fb', data: text }])
    expect(new DataView(bytes.buffer).getUint16(6, true)).toBe(0x800)
  })

  it('refuses with stable codes what one archive without ZIP64 cannot hold', () => {
    const code = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return e instanceof ZipWriteError ? e.code : 'other'
      }
      return 'none'
    }
    const empty = new Uint8Array(0)
    expect(code(() => writeZip(Array.from({ length: 0x10000 }, () => ({ path: 'a', data: empty }))))).toBe(
      'pkg/too-many-entries',
    )
    expect(code(() => writeZip(Array.from({ length: 0xffff }, () => ({ path: 'a', data: empty }))))).toBe(
      'none',
    )
    // Only the length is read before the refusal: no checksum runs over these 6 GiB.
    const huge = { length: 0x7fffffff } as Uint8Array
    expect(code(() => writeZip([0, 1, 2].map(() => ({ path: 'big', data: huge }))))).toBe('pkg/too-large')
    expect(code(() => writeZip([{ path: 'a', data: text, method: 8 }]))).toBe('pkg/unsupported-entry')
  })
})

describe('encodeZipRecords', () => {
  const header = (name: string, data: Uint8Array): ZipHeaderFields => ({
    versionNeeded: 20,
    flags: 0,
    method: 0,
    time: 0,
    date: 0x21,
    crc: crc32(data),
    compressedSize: data.length,
    size: data.length,
    name: enc.encode(name),
  })

  it('writes ZIP64 fields, data descriptors and a comment the reader accepts, and bytes before it the reader refuses', () => {
    const a = enc.encode('alpha')
    const b = enc.encode('bb')
    const records: ZipRecord[] = [
      {
        local: { ...header('a', a), versionNeeded: 45, zip64: true },
        payload: a,
        central: { ...header('a', a), versionNeeded: 45, zip64: true, versionMadeBy: 45 },
      },
      {
        local: { ...header('b', b), flags: 8, crc: 0, size: 0, compressedSize: 0 },
        payload: b,
        descriptor: { signature: true, crc: crc32(b), compressedSize: 2, size: 2 },
        central: { ...header('b', b), flags: 8, versionMadeBy: 20, comment: enc.encode('note') },
      },
    ]
    const bytes = encodeZipRecords(records, { zip64End: true, comment: enc.encode('archive') })
    expect(readZipDirectory(bytes).diagnostics).toEqual([])
    expect(readZipDirectory(bytes).directory?.zip64).toBe(true)
    expect(readBack(bytes).map((f) => [f.name, new TextDecoder().decode(f.data)])).toEqual([
      ['a', 'alpha'],
      ['b', 'bb'],
    ])
    expect(new TextDecoder().decode(bytes.subarray(-7))).toBe('archive')
    // A self-extractor stub before the first entry is written as told, and refused on reading.
    const stubbed = encodeZipRecords(records, { prepend: enc.encode('#!stub\n'), zip64End: true })
    expect(new TextDecoder().decode(stubbed.subarray(0, 7))).toBe('#!stub\n')
    expect(readZipDirectory(stubbed).diagnostics.map((d) => d.code)).toEqual(['pkg/unexpected-data'])
  })

  it('writes what it is told: a missing local header, a repeated record, a lying end record', () => {
    const a = enc.encode('alpha')
    const records = [{ payload: a, central: { ...header('a', a), versionMadeBy: 20, offset: 0 } }]
    const codes = (bytes: Uint8Array) => readZipDirectory(bytes).diagnostics.map((d) => d.code)
    expect(codes(encodeZipRecords(records))).toContain('pkg/corrupt-archive')
    const whole = [{ ...records[0]!, local: header('a', a) }]
    expect(codes(encodeZipRecords(whole, { repeatRecords: [0] }))).toContain('pkg/duplicate-entry')
    expect(codes(encodeZipRecords(whole, { end: { cdOffset: 3 } }))).not.toEqual([])
  })

  it('frames extra fields as id, length and body', () => {
    expect([...zipExtraField(0x7075, new Uint8Array([9, 8]))]).toEqual([0x75, 0x70, 2, 0, 9, 8])
  })
})
