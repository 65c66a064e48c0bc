import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildArchive, hasTool } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { readCentralRecords } from './central-records'
import { findEndRecord } from './find-end-record'
import { encodeZipRecords, type ZipCentralFields, type ZipLayout } from './write-zip'

const enc = new TextEncoder()

function read(bytes: Uint8Array) {
  const end = findEndRecord(bytes, [])
  expect(end).toBeDefined()
  return readCentralRecords(bytes, end!)
}

const field = (name: string, more: Partial<ZipCentralFields> = {}): ZipCentralFields => ({
  versionMadeBy: 0x031e,
  versionNeeded: 20,
  flags: 0x0800,
  method: 0,
  time: 0x6b3c,
  date: 0x5a21,
  crc: 0x12345678,
  compressedSize: 3,
  size: 3,
  name: enc.encode(name),
  ...more,
})

/** An archive of central records only (no local headers: the helper reads the directory alone). */
const directoryOnly = (records: ZipCentralFields[], layout: ZipLayout = {}) =>
  encodeZipRecords(
    records.map((central) => ({ central })),
    layout,
  )

describe('readCentralRecords', () => {
  it('gives back every field encodeZipRecords wrote, and the archive comment', () => {
    const written = [
      field('a.txt', { externalAttributes: 0o100755 * 0x10000, internalAttributes: 1, offset: 0 }),
      field('d\u00fcr/', {
        versionMadeBy: 0x0014,
        flags: 0,
        method: 8,
        extra: Uint8Array.of(0x55, 0x54, 1, 0, 7),
        comment: enc.encode('entry comment'),
        diskStart: 0,
        externalAttributes: 0x10,
        offset: 17,
      }),
    ]
    const bytes = directoryOnly(written, { comment: enc.encode('archive comment') })
    const raw = read(bytes)!
    expect(raw.records).toEqual(
      written.map((w) => ({
        extra: new Uint8Array(0),
        comment: new Uint8Array(0),
        diskStart: 0,
        internalAttributes: 0,
        ...w,
      })),
    )
    expect(new TextDecoder().decode(raw.comment)).toBe('archive comment')
  })

  it('keeps raw name bytes (a CP437 name) and 32-bit fields as written beside a ZIP64 field', () => {
    const cp437 = Uint8Array.of(0x81, 0x62, 0x65, 0x72) // "über" in CP437, not UTF-8
    const bytes = buildArchive([
      { name: cp437, data: 'x', flags: 0 },
      { name: 'big', data: 'yy', zip64: true },
    ])
    const raw = read(bytes)!
    expect(raw.records[0]!.name).toEqual(cp437)
    expect(raw.records[0]!.flags & 0x0800).toBe(0)
    expect([raw.records[1]!.size, raw.records[1]!.compressedSize, raw.records[1]!.offset]).toEqual([
      0xffffffff, 0xffffffff, 0xffffffff,
    ])
    expect(raw.records[1]!.extra![0]).toBe(0x01) // the ZIP64 field, for the caller to read
  })

  it('finds the comment of an archive with ZIP64 end records, also before zero padding', () => {
    const comment = enc.encode('0123456789abcdef0123456789abcdef01234567')
    const zip64 = buildArchive({ 'a.txt': 'alpha' }, { zip64End: true, comment })
    expect(findEndRecord(zip64, [])?.zip64).toBe(true)
    expect(read(zip64)?.comment).toEqual(comment)
    const padded = buildArchive({ 'a.txt': 'alpha' }, { zip64End: true, comment, append: new Uint8Array(9) })
    expect(read(padded)?.comment).toEqual(comment)
    // A classic archive with padding: the comment stops where the end record says.
    expect(read(buildArchive({ a: 'a' }, { comment, append: new Uint8Array(5) }))?.comment).toEqual(comment)
    expect(read(buildArchive({ a: 'a' }))?.comment).toEqual(new Uint8Array(0))
  })

  it('is undefined for a directory whose records are missing or run past it', () => {
    const bytes = directoryOnly([field('a'), field('b')])
    const end = findEndRecord(bytes, [])!
    expect(readCentralRecords(bytes, { ...end, totalEntries: 3 })).toBeUndefined()
    expect(readCentralRecords(bytes, { ...end, cdSize: end.cdSize - 1 })).toBeUndefined()
    expect(readCentralRecords(bytes, { ...end, cdOffset: end.cdOffset + 1 })).toBeUndefined()
    expect(readCentralRecords(bytes, { ...end, cdSize: bytes.length + 1 })).toBeUndefined()
    expect(readCentralRecords(bytes.subarray(0, 10), end)).toBeUndefined()
  })

  it.skipIf(!hasTool('zip'))('reads what Info-ZIP zip writes: Unix modes and the comment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-central-'))
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 })
    const out = join(dir, 'out.zip')
    execFileSync('zip', ['-q', '-X', out, 'run.sh'], { cwd: dir })
    execFileSync('zip', ['-q', '-z', out], { input: 'made by zip\n' })
    const raw = read(new Uint8Array(readFileSync(out)))!
    expect(raw.records.map((r) => [new TextDecoder().decode(r.name), r.versionMadeBy >> 8])).toEqual([
      ['run.sh', 3],
    ])
    expect((raw.records[0]!.externalAttributes! >>> 16) & 0o777).toBe(0o755)
    expect(new TextDecoder().decode(raw.comment)).toBe('made by zip')
  })
})
