import { buildArchive, type EntrySpec } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import type { ZipCode } from './diagnostic'
import { readZipDirectory } from './read-zip-directory'

const file = (name: string, data = 'x', more: Partial<EntrySpec> = {}): EntrySpec => ({ name, data, ...more })
const codes = (bytes: Uint8Array) => readZipDirectory(bytes).diagnostics.map((d) => d.code)
const fatal = (bytes: Uint8Array) => readZipDirectory(bytes).diagnostics.filter((d) => d.severity === 'fatal')

describe('readZipDirectory accepts well-formed archives', () => {
  it('lists entries in central-directory order with checked offsets', () => {
    const { directory, diagnostics } = readZipDirectory(
      buildArchive({ 'a.txt': 'alpha', 'dir/': '', 'dir/b.txt': 'b' }),
    )
    expect(diagnostics).toEqual([])
    expect(directory?.entries.map((e) => [e.name, e.isDirectory, e.size])).toEqual([
      ['a.txt', false, 5],
      ['dir/', true, 0],
      ['dir/b.txt', false, 1],
    ])
  })

  it('reads data descriptors with and without their signature, and ZIP64 records', () => {
    const bytes = buildArchive(
      [
        file('a', 'aaa', { dataDescriptor: true }),
        file('b', 'bb', { dataDescriptor: 'no-signature' }),
        file('c', 'c', { zip64: true, dataDescriptor: true }),
      ],
      { zip64End: true },
    )
    const { directory, diagnostics } = readZipDirectory(bytes)
    expect(diagnostics).toEqual([])
    expect(directory?.zip64).toBe(true)
    expect(directory?.entries.map((e) => e.size)).toEqual([3, 2, 1])
  })

  it('warns about zero padding after the end record and loads', () => {
    const r = readZipDirectory(buildArchive([file('a')], { append: new Uint8Array(512) }))
    expect(r.directory).toBeDefined()
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([['pkg/trailing-padding', 'warning']])
  })

  it('reads names without the UTF-8 flag as UTF-8 when they are valid UTF-8', () => {
    const r = readZipDirectory(buildArchive([file('café.sty', 'x', { flags: 0 })]))
    expect(r.directory?.entries[0]?.name).toBe('café.sty')
    expect(r.diagnostics).toEqual([])
  })

  it('reads other unflagged names as CP437 with a warning', () => {
    const r = readZipDirectory(
      buildArchive([file('x', 'x', { name: new Uint8Array([0x63, 0x61, 0x66, 0x82]) })]),
    )
    expect(r.directory?.entries[0]?.name).toBe('café')
    expect(r.diagnostics[0]).toMatchObject({ code: 'pkg/cp437-name', severity: 'warning', path: 'café' })
  })

  it('marks macOS clutter as ignored with an info diagnostic', () => {
    const r = readZipDirectory(
      buildArchive([file('a.sty'), file('__MACOSX/._a.sty'), file('.DS_Store'), file('d/._x')]),
    )
    expect(r.directory?.entries.map((e) => e.ignored)).toEqual([false, true, true, true])
    expect(r.diagnostics.map((d) => d.code)).toEqual(Array(3).fill('pkg/ignored-entry'))
  })

  it('accepts a matching Info-ZIP Unicode Path field', () => {
    expect(codes(buildArchive([file('é.sty', 'x', { unicodePath: 'é.sty' })]))).toEqual([])
  })
})

/** `zip` with 4 zero bytes inserted at `at` (the archive's offsets already count them). */
function hideBytesAt(zip: Uint8Array, at: number): Uint8Array {
  const out = new Uint8Array(zip.length + 4)
  out.set(zip.subarray(0, at))
  out.set(zip.subarray(at), at + 4)
  return out
}

/** Two stored entries with 4 hidden bytes spliced between them (offsets adjusted to match). */
function withGap(): Uint8Array {
  const first = 30 + 1 + 1
  const zip = buildArchive(
    [file('a', 'x', { method: 0 }), file('b', 'y', { method: 0, offset: first + 4 })],
    {
      end: { cdOffset: 2 * first + 4 },
    },
  )
  return hideBytesAt(zip, first)
}

/** One stored entry with 4 hidden bytes spliced between its data and the central directory. */
function withGapBeforeDirectory(): Uint8Array {
  const first = 30 + 1 + 1
  return hideBytesAt(buildArchive([file('a', 'x', { method: 0 })], { end: { cdOffset: first + 4 } }), first)
}

/**
 * A quoted overlap (the trick of the overlapping-entry zip bombs): stored entry "a" carries a
 * whole local entry "b" as its data, and the directory points "b" at it, so both end on the same
 * byte and every local header agrees with its record.
 */
function quotedOverlap(): Uint8Array {
  const inner = buildArchive([file('b', 'y', { method: 0 })]).slice(0, 30 + 1 + 1)
  return buildArchive([
    file('a', 'x', { method: 0, data: inner }),
    file('b', 'y', { method: 0, offset: 30 + 1, omitLocal: true }),
  ])
}

const refusals: [string, ZipCode, () => Uint8Array][] = [
  ['random bytes', 'pkg/not-zip', () => new Uint8Array(100).fill(7)],
  ['an empty input', 'pkg/not-zip', () => new Uint8Array(0)],
  ['a truncated archive', 'pkg/corrupt-archive', () => buildArchive([file('a', 'abc')]).subarray(0, 40)],
  [
    'a prepended stub',
    'pkg/unexpected-data',
    () => buildArchive([file('a')], { prepend: new Uint8Array([1, 2, 3]) }),
  ],
  [
    'a prepended stub with adjusted offsets',
    'pkg/unexpected-data',
    () =>
      buildArchive([file('a', 'x', { offset: 3 })], {
        prepend: new Uint8Array(3),
        end: { cdOffset: 3 + 30 + 1 + 3 },
      }),
  ],
  [
    'non-zero bytes after the end record',
    'pkg/unexpected-data',
    () => buildArchive([file('a')], { append: new Uint8Array([0, 1]) }),
  ],
  [
    'a multi-disk end record',
    'pkg/split-archive',
    () => buildArchive([file('a')], { end: { disk: 1, cdDisk: 1 } }),
  ],
  ['an entry on another disk', 'pkg/split-archive', () => buildArchive([file('a', 'x', { diskStart: 2 })])],
  [
    'a split-archive marker',
    'pkg/split-archive',
    () => new Uint8Array([0x50, 0x4b, 0x07, 0x08, ...buildArchive([file('a')])]),
  ],
  [
    'an end record counting fewer entries',
    'pkg/corrupt-archive',
    () => buildArchive([file('a'), file('b')], { end: { totalEntries: 1, entriesOnDisk: 1 } }),
  ],
  [
    'an end record counting more entries',
    'pkg/corrupt-archive',
    () => buildArchive([file('a')], { end: { totalEntries: 2, entriesOnDisk: 2 } }),
  ],
  [
    '501 entries',
    'pkg/too-many-entries',
    () => buildArchive(Array.from({ length: 501 }, (_, i) => file(`f${i}`, '', { method: 0 }))),
  ],
  [
    'declared sizes over the limit',
    'pkg/too-large',
    () => buildArchive([file('a', 'x', { size: 60 * 2 ** 20 })]),
  ],
  ['an encrypted entry', 'pkg/unsupported-entry', () => buildArchive([file('a', 'x', { flags: 1 })])],
  ['strong encryption', 'pkg/unsupported-entry', () => buildArchive([file('a', 'x', { flags: 0x40 })])],
  [
    'method 12 (bzip2)',
    'pkg/unsupported-entry',
    () => buildArchive([file('a', 'x', { method: 12, payload: new Uint8Array(1) })]),
  ],
  ['a FIFO', 'pkg/unsupported-entry', () => buildArchive([file('a', 'x', { unixMode: 0o010644 })])],
  ['a symlink', 'pkg/unsafe-path', () => buildArchive([file('a', 'story/x.sty', { unixMode: 0o120777 })])],
  ['../ names', 'pkg/unsafe-path', () => buildArchive([file('../evil.sty')])],
  ['a .. that stays inside', 'pkg/unsafe-path', () => buildArchive([file('story/../a.sty')])],
  ['./manifest.json', 'pkg/unsafe-path', () => buildArchive([file('./manifest.json')])],
  ['absolute names', 'pkg/unsafe-path', () => buildArchive([file('/etc/passwd')])],
  ['drive letters', 'pkg/unsafe-path', () => buildArchive([file('C:/x.sty')])],
  ['backslashes', 'pkg/unsafe-path', () => buildArchive([file('story\\a.sty')])],
  ['NUL', 'pkg/unsafe-path', () => buildArchive([file('a\u0000.sty')])],
  ['a C0 control character (U+0001)', 'pkg/unsafe-path', () => buildArchive([file('a\u0001.sty')])],
  ['a tab', 'pkg/unsafe-path', () => buildArchive([file('a\t.sty')])],
  ['a newline', 'pkg/unsafe-path', () => buildArchive([file('story/a\n.sty')])],
  ['an escape (U+001B)', 'pkg/unsafe-path', () => buildArchive([file('\u001b[2Ja.sty')])],
  ['U+001F', 'pkg/unsafe-path', () => buildArchive([file('a\u001f.sty')])],
  ['DEL', 'pkg/unsafe-path', () => buildArchive([file('a\u007f.sty')])],
  ['a C1 control character (U+0085)', 'pkg/unsafe-path', () => buildArchive([file('a\u0085.sty')])],
  [
    'a C1 control character (U+009B, CSI)',
    'pkg/unsafe-path',
    () => buildArchive([file('story/\u009b2J.sty')]),
  ],
  ['empty names', 'pkg/unsafe-path', () => buildArchive([file('')])],
  ['doubled slashes', 'pkg/unsafe-path', () => buildArchive([file('story//a.sty')])],
  [
    'invalid UTF-8 flagged UTF-8',
    'pkg/invalid-name',
    () => buildArchive([file('x', 'x', { name: new Uint8Array([0xff, 0x41]), flags: 0x800 })]),
  ],
  [
    'a disagreeing Unicode Path field',
    'pkg/invalid-name',
    () => buildArchive([file('a.sty', 'x', { unicodePath: 'b.sty' })]),
  ],
  [
    'exact duplicate names',
    'pkg/duplicate-entry',
    () => buildArchive([file('a.sty', '1'), file('a.sty', '2')]),
  ],
  [
    'names equal after case folding',
    'pkg/duplicate-entry',
    () => buildArchive([file('Story.sty'), file('story.STY')]),
  ],
  [
    'names equal after NFC',
    'pkg/duplicate-entry',
    () => buildArchive([file('e\u0301.sty'), file('\u00e9.sty')]),
  ],
  [
    'names equal after full case folding (capital sharp s is ss)',
    'pkg/duplicate-entry',
    () => buildArchive([file('stra\u1e9ee.sty'), file('STRASSE.sty')]),
  ],
  [
    'a file that is also a folder',
    'pkg/duplicate-entry',
    () => buildArchive([file('story'), file('story/a.sty')]),
  ],
  [
    'two records pointing at the same data',
    'pkg/duplicate-entry',
    () => buildArchive([file('a')], { repeatRecords: [0] }),
  ],
  [
    'two differently named records for one entry',
    'pkg/overlapping-entries',
    () => buildArchive([file('a', 'x'), file('b', 'x', { offset: 0, omitLocal: true })]),
  ],
  [
    'a local name that differs',
    'pkg/header-mismatch',
    () => buildArchive([file('a.sty', 'x', { local: { name: 'b.sty' } })]),
  ],
  [
    'a local method that differs',
    'pkg/header-mismatch',
    () => buildArchive([file('a', 'x', { local: { method: 0 } })]),
  ],
  [
    'local flags that differ',
    'pkg/header-mismatch',
    () => buildArchive([file('a', 'x', { local: { flags: 0x800 } })]),
  ],
  [
    'a local CRC that differs',
    'pkg/header-mismatch',
    () => buildArchive([file('a', 'x', { local: { crc: 5 } })]),
  ],
  [
    'local sizes that differ',
    'pkg/header-mismatch',
    () => buildArchive([file('a', 'x', { local: { size: 9 } })]),
  ],
  [
    'a data descriptor that differs',
    'pkg/header-mismatch',
    () => buildArchive([file('a', 'x', { dataDescriptor: true, descriptor: { crc: 1 } })]),
  ],
  [
    'a stored entry with two sizes',
    'pkg/corrupt-entry',
    () => buildArchive([file('a', 'x', { method: 0, compressedSize: 0 })]),
  ],
  ['hidden bytes between entries', 'pkg/unexpected-data', withGap],
  ['hidden bytes before the central directory', 'pkg/unexpected-data', withGapBeforeDirectory],
  ['an entry quoted inside the data of the one before', 'pkg/overlapping-entries', quotedOverlap],
]

describe('readZipDirectory refuses', () => {
  for (const [what, code, make] of refusals)
    it(`${what} with ${code}`, () => {
      const found = fatal(make())
      expect(found.map((d) => d.code)).toContain(code)
      expect(readZipDirectory(make()).directory).toBeUndefined()
    })

  it('reports every unsafe name at once, each with its path', () => {
    const d = fatal(buildArchive([file('../a'), file('/b')]))
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['pkg/unsafe-path', '../a'],
      ['pkg/unsafe-path', '/b'],
    ])
    expect(d[0]?.message).toBe('Entry name "../a" has a ".." segment.')
  })

  it('names the entry that overlaps, and says where hidden bytes sit', () => {
    expect(fatal(quotedOverlap()).map((d) => [d.code, d.message, d.path])).toEqual([
      ['pkg/overlapping-entries', '"b" overlaps the entry before it.', 'b'],
    ])
    expect(fatal(withGapBeforeDirectory()).map((d) => d.message)).toEqual([
      '4 bytes of unknown data sit before the central directory.',
    ])
  })

  it('checks names before anything else (an unsafe name in a corrupt archive is reported as unsafe)', () => {
    expect(codes(buildArchive([file('../a', 'x', { local: { crc: 1 } })]))).toEqual(['pkg/unsafe-path'])
  })

  it('counts directory records toward the entry limit', () => {
    const names = Array.from({ length: 250 }, (_, i) => [file(`d${i}/`, ''), file(`d${i}/f`, '')]).flat()
    expect(codes(buildArchive([...names, file('x/')]))).toEqual(['pkg/too-many-entries'])
  })
})

describe('readZipDirectory quick mode (local headers checked on demand)', () => {
  const lazy = (bytes: Uint8Array) => readZipDirectory(bytes, {}, { localHeaders: 'lazy' })
  const eocdAt = (b: Uint8Array) => b.length - 22
  const u16 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8)
  const u32 = (b: Uint8Array, o: number) => (u16(b, o) | (u16(b, o + 2) << 16)) >>> 0

  /** The archive with its central-directory records in reverse order (end record unchanged). */
  function reversedDirectory(bytes: Uint8Array): Uint8Array {
    const cd = u32(bytes, eocdAt(bytes) + 16)
    const records: Uint8Array[] = []
    for (let p = cd; p < eocdAt(bytes); ) {
      const len = 46 + u16(bytes, p + 28) + u16(bytes, p + 30) + u16(bytes, p + 32)
      records.push(bytes.slice(p, p + len))
      p += len
    }
    const out = bytes.slice()
    let p = cd
    for (const r of records.reverse()) {
      out.set(r, p)
      p += r.length
    }
    return out
  }

  it('reads a central directory listed out of file order, entries in directory order', () => {
    const bytes = reversedDirectory(buildArchive([file('a', 'alpha'), file('b', 'bb'), file('c', 'c')]))
    const r = lazy(bytes)
    expect(r.diagnostics).toEqual([])
    expect(r.directory?.entries.map((e) => e.name)).toEqual(['c', 'b', 'a'])
    for (const e of r.directory!.entries) expect(r.checkLocal?.(e, [])?.dataOffset).toBeGreaterThan(0)
  })

  it('refuses an entry whose declared data runs into the next entry', () => {
    const r = lazy(buildArchive([file('a', 'alpha', { method: 0, size: 9, compressedSize: 9 }), file('b')]))
    expect(r.directory).toBeUndefined()
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['pkg/overlapping-entries', '"a" runs into "b".'],
    ])
  })

  it('refuses a last entry whose declared data runs into the central directory', () => {
    const r = lazy(buildArchive([file('a'), file('b', 'bb', { method: 0, size: 3, compressedSize: 3 })]))
    expect(r.directory).toBeUndefined()
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['pkg/overlapping-entries', '"b": its data runs into the central directory.'],
    ])
  })

  it('refuses two records that point at the same data', () => {
    const r = lazy(buildArchive([file('a'), file('b', 'x', { offset: 0 })]))
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['pkg/overlapping-entries', 'b']])
    expect(r.directory).toBeUndefined()
  })

  it('finds the end record before an archive comment, and refuses bytes after one', () => {
    const withComment = buildArchive([file('a')], { comment: 'a comment' })
    expect(lazy(withComment).diagnostics).toEqual([])
    expect(lazy(withComment).directory?.entries.map((e) => e.name)).toEqual(['a'])
    const appended = buildArchive([file('a')], { append: new Uint8Array([1, 2, 3]) })
    expect(lazy(appended).diagnostics.map((d) => d.code)).toEqual(['pkg/unexpected-data'])
  })
})
