/**
 * The one ZIP writer, in two layers:
 * - {@link writeZip} writes files as a deterministic archive (stored or deflated entries, fixed
 *   timestamp 1980-01-01 00:00, Unix mode 0644, no extra fields, no data descriptors, no
 *   directory records): the same files and the same deflate give the same bytes.
 * - {@link encodeZipRecords} lays out records whose every field the caller gives: local header,
 *   payload, data descriptor, central-directory record and end records. It checks nothing and
 *   writes what it is told, so it also writes the hostile archives a reader's tests need (sizes
 *   that lie, records that disagree, ZIP64 fields, bytes around the archive).
 *
 * Isomorphic: Web APIs only (Uint8Array, DataView, TextEncoder). Compression is the caller's:
 * pass a raw DEFLATE function (`node:zlib`'s `deflateRawSync`, fflate's `deflateSync`, ...);
 * the output is as deterministic as that function.
 */
import { crc32 } from './crc32'

/** The fields a local header and a central-directory record share. Values are written as given. */
export interface ZipHeaderFields {
  /** Version needed to extract (20 for deflate, 45 for ZIP64). */
  versionNeeded: number
  /** General-purpose flags (bit 3: data descriptor, bit 11: UTF-8 name). */
  flags: number
  /** Compression method (0 stored, 8 deflate). */
  method: number
  /** MS-DOS time (0 is 00:00:00). */
  time: number
  /** MS-DOS date (0x21 is 1980-01-01). */
  date: number
  crc: number
  compressedSize: number
  size: number
  /** Name bytes as written (UTF-8, CP437 or anything else). */
  name: Uint8Array
  /** Extra field bytes, after the ZIP64 field when `zip64` is set. */
  extra?: Uint8Array
  /**
   * Writes 0xFFFFFFFF in the size fields (and the central record's offset) and the real values
   * in a ZIP64 extra field (0x0001) placed first in the extra field.
   */
  zip64?: boolean
}

/** A central-directory record: the shared fields and those only it carries. */
export interface ZipCentralFields extends ZipHeaderFields {
  /** Version made by: high byte the host (0 MS-DOS, 3 Unix), low byte the version. */
  versionMadeBy: number
  comment?: Uint8Array
  /** @default 0 */
  diskStart?: number
  /** @default 0 */
  internalAttributes?: number
  /** For a Unix host, the mode in the high 16 bits. @default 0 */
  externalAttributes?: number
  /** Local header offset. @default where this record's local header was written */
  offset?: number
}

/** A data descriptor written after the payload. */
export interface ZipDataDescriptor {
  /** Write the optional signature 0x08074b50. */
  signature: boolean
  crc: number
  compressedSize: number
  size: number
  /** 8-byte sizes. */
  zip64?: boolean
}

/** One entry of {@link encodeZipRecords}. */
export interface ZipRecord {
  /** The local header; absent, neither it, the payload nor the descriptor is written. */
  local?: ZipHeaderFields
  /** The entry's data as stored (compressed when the method says so). @default empty */
  payload?: Uint8Array
  descriptor?: ZipDataDescriptor
  central: ZipCentralFields
}

/** What {@link encodeZipRecords} writes around the records. Absent fields take the real values. */
export interface ZipLayout {
  /** Bytes before the first local header (a self-extractor stub). */
  prepend?: Uint8Array
  /** Bytes after the end record. */
  append?: Uint8Array
  /** The archive comment. */
  comment?: Uint8Array
  /** Central-directory records written again after all of them, by record index. */
  repeatRecords?: readonly number[]
  /** Write the ZIP64 end record and locator, and 0xFFFF / 0xFFFFFFFF in the classic end record. */
  zip64End?: boolean
  /** Overrides of the end record's fields. */
  end?: {
    disk?: number
    cdDisk?: number
    entriesOnDisk?: number
    totalEntries?: number
    cdSize?: number
    cdOffset?: number
  }
}

const LOCAL_SIGNATURE = 0x04034b50
const CENTRAL_SIGNATURE = 0x02014b50
const DESCRIPTOR_SIGNATURE = 0x08074b50
const END_SIGNATURE = 0x06054b50
const END64_SIGNATURE = 0x06064b50
const LOCATOR_SIGNATURE = 0x07064b50
const MAX32 = 0xffffffff
const EMPTY = /* @__PURE__ */ new Uint8Array(0)

/**
 * An extra-field block: 2-byte id, 2-byte length, body.
 *
 * @example
 * zipExtraField(0x7075, body) // an Info-ZIP Unicode Path field
 */
export function zipExtraField(id: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + body.length)
  const v = new DataView(out.buffer)
  v.setUint16(0, id, true)
  v.setUint16(2, body.length, true)
  out.set(body, 4)
  return out
}

function zip64Extra(values: readonly number[]): Uint8Array {
  const body = new Uint8Array(8 * values.length)
  const v = new DataView(body.buffer)
  for (let i = 0; i < values.length; i++) v.setBigUint64(8 * i, BigInt(values[i]!), true)
  return zipExtraField(0x0001, body)
}

/** The extra field as written: the ZIP64 block first when asked for, then the caller's bytes. */
function extraOf(h: ZipHeaderFields, zip64Values: readonly number[]): Uint8Array {
  const extra = h.extra ?? EMPTY
  if (!h.zip64) return extra
  const z = zip64Extra(zip64Values)
  if (extra.length === 0) return z
  const out = new Uint8Array(z.length + extra.length)
  out.set(z)
  out.set(extra, z.length)
  return out
}

/** Sequential little-endian writes into a buffer sized beforehand. */
class Cursor {
  readonly out: Uint8Array
  private readonly view: DataView
  at = 0
  constructor(size: number) {
    this.out = new Uint8Array(size)
    this.view = new DataView(this.out.buffer)
  }
  u16(v: number): void {
    this.view.setUint16(this.at, v, true)
    this.at += 2
  }
  u32(v: number): void {
    this.view.setUint32(this.at, v, true)
    this.at += 4
  }
  u64(v: number): void {
    this.view.setBigUint64(this.at, BigInt(v), true)
    this.at += 8
  }
  bytes(b: Uint8Array): void {
    this.out.set(b, this.at)
    this.at += b.length
  }
}

/** Writes the fields from the version needed to the extra length: the part both headers share. */
function writeShared(c: Cursor, h: ZipHeaderFields, extraLength: number): void {
  c.u16(h.versionNeeded)
  c.u16(h.flags)
  c.u16(h.method)
  c.u16(h.time)
  c.u16(h.date)
  c.u32(h.crc)
  c.u32(h.zip64 ? MAX32 : h.compressedSize)
  c.u32(h.zip64 ? MAX32 : h.size)
  c.u16(h.name.length)
  c.u16(extraLength)
}

const descriptorLength = (d: ZipDataDescriptor | undefined): number =>
  d ? (d.signature ? 4 : 0) + (d.zip64 ? 20 : 12) : 0

/**
 * Lays out `records` as one archive: for each record its local header, payload and data
 * descriptor, then the central directory (and the repeated records), the ZIP64 end record and
 * locator when asked for, the end record and the appended bytes. Nothing is checked or derived
 * but the offsets and the directory's size and count.
 *
 * @example
 * const bytes = encodeZipRecords([{ local, payload, central }], { comment })
 */
export function encodeZipRecords(records: readonly ZipRecord[], layout: ZipLayout = {}): Uint8Array {
  const prepend = layout.prepend ?? EMPTY
  const append = layout.append ?? EMPTY
  const comment = layout.comment ?? EMPTY
  const repeats = layout.repeatRecords ?? []
  // First pass: where each local header goes, and each central record's extra field (a ZIP64
  // field carries the offset, known only once the sections before it are counted).
  const offsets: number[] = []
  const localExtras: Uint8Array[] = []
  const centralExtras: Uint8Array[] = []
  let at = prepend.length
  for (const r of records) {
    offsets.push(at)
    if (r.local) {
      const extra = extraOf(r.local, [r.local.size, r.local.compressedSize])
      localExtras.push(extra)
      at +=
        30 + r.local.name.length + extra.length + (r.payload ?? EMPTY).length + descriptorLength(r.descriptor)
    } else localExtras.push(EMPTY)
    const c = r.central
    const offset = c.offset ?? offsets[offsets.length - 1]!
    centralExtras.push(extraOf(c, [c.size, c.compressedSize, offset]))
  }
  const cdStart = at
  const centralLength = (i: number) =>
    46 +
    records[i]!.central.name.length +
    centralExtras[i]!.length +
    (records[i]!.central.comment ?? EMPTY).length
  let cdSize = 0
  for (let i = 0; i < records.length; i++) cdSize += centralLength(i)
  for (const i of repeats) cdSize += centralLength(i)
  const size = cdStart + cdSize + (layout.zip64End ? 76 : 0) + 22 + comment.length + append.length

  const c = new Cursor(size)
  c.bytes(prepend)
  records.forEach((r, i) => {
    if (!r.local) return
    c.u32(LOCAL_SIGNATURE)
    writeShared(c, r.local, localExtras[i]!.length)
    c.bytes(r.local.name)
    c.bytes(localExtras[i]!)
    c.bytes(r.payload ?? EMPTY)
    const d = r.descriptor
    if (!d) return
    if (d.signature) c.u32(DESCRIPTOR_SIGNATURE)
    c.u32(d.crc)
    if (d.zip64) {
      c.u64(d.compressedSize)
      c.u64(d.size)
    } else {
      c.u32(d.compressedSize)
      c.u32(d.size)
    }
  })
  const writeCentral = (i: number) => {
    const h = records[i]!.central
    const extra = centralExtras[i]!
    const entryComment = h.comment ?? EMPTY
    c.u32(CENTRAL_SIGNATURE)
    c.u16(h.versionMadeBy)
    writeShared(c, h, extra.length)
    c.u16(entryComment.length)
    c.u16(h.diskStart ?? 0)
    c.u16(h.internalAttributes ?? 0)
    c.u32(h.externalAttributes ?? 0)
    c.u32(h.zip64 ? MAX32 : (h.offset ?? offsets[i]!))
    c.bytes(h.name)
    c.bytes(extra)
    c.bytes(entryComment)
  }
  for (let i = 0; i < records.length; i++) writeCentral(i)
  for (const i of repeats) writeCentral(i)

  const e = layout.end ?? {}
  const count = records.length + repeats.length
  if (layout.zip64End) {
    const end64 = c.at
    c.u32(END64_SIGNATURE)
    c.u64(44) // size of the rest of this record
    c.u16(45) // made by
    c.u16(45) // needed
    c.u32(e.disk ?? 0)
    c.u32(e.cdDisk ?? 0)
    c.u64(e.entriesOnDisk ?? count)
    c.u64(e.totalEntries ?? count)
    c.u64(e.cdSize ?? cdSize)
    c.u64(e.cdOffset ?? cdStart)
    c.u32(LOCATOR_SIGNATURE)
    c.u32(0) // disk of the ZIP64 end record
    c.u64(end64)
    c.u32(1) // total disks
  }
  c.u32(END_SIGNATURE)
  c.u16(e.disk ?? 0)
  c.u16(e.cdDisk ?? 0)
  c.u16(layout.zip64End ? 0xffff : (e.entriesOnDisk ?? count))
  c.u16(layout.zip64End ? 0xffff : (e.totalEntries ?? count))
  c.u32(layout.zip64End ? MAX32 : (e.cdSize ?? cdSize))
  c.u32(layout.zip64End ? MAX32 : (e.cdOffset ?? cdStart))
  c.u16(comment.length)
  c.bytes(comment)
  c.bytes(append)
  return c.out
}

/** One file of {@link writeZip}. */
export interface ZipFile {
  /** The entry name, written as UTF-8. */
  path: string
  data: Uint8Array
  /** 0 stores the bytes, 8 deflates them (stored when deflate would not shrink them). @default 0 */
  method?: 0 | 8
}

/** One written entry, as a listing shows it. */
export interface WrittenEntry {
  path: string
  size: number
  compressedSize: number
  method: 0 | 8
}

/** Options of {@link writeZip}. */
export interface WriteZipOptions {
  /** Raw DEFLATE (no zlib header), used for method 8 entries; required when there are any. */
  deflate?: (data: Uint8Array) => Uint8Array
  /**
   * When the UTF-8 flag (bit 11) is set: on `'always'`, or on `'non-ascii'` only for names that
   * are not all printable ASCII (0x20-0x7E). @default 'non-ascii'
   */
  utf8Flag?: 'always' | 'non-ascii'
  /** Version made by. @default 0x0314 (Unix, 2.0: the external attributes carry the file mode) */
  versionMadeBy?: number
}

/** Why {@link writeZip} refused: an archive without ZIP64 holds 65,535 entries and 4 GiB. */
export class ZipWriteError extends Error {
  readonly code: 'pkg/too-many-entries' | 'pkg/too-large' | 'pkg/unsupported-entry'
  constructor(code: ZipWriteError['code'], message: string) {
    super(message)
    this.name = 'ZipWriteError'
    this.code = code
  }
}

/** DOS date 1980-01-01, the earliest a ZIP can say; the time is 00:00:00. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1
const VERSION = 20
const FILE_MODE = 0o100644
const UTF8_FLAG = 0x0800
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/
const encoder = /* @__PURE__ */ new TextEncoder()

/**
 * Writes `files` in the order given as one deterministic archive (see the module comment).
 *
 * @returns the archive bytes and what each entry became
 * @throws ZipWriteError `pkg/too-many-entries` past 65,535 entries, `pkg/too-large` past 4 GiB,
 *   `pkg/unsupported-entry` for a method 8 entry without `options.deflate`
 * @example
 * import { deflateRawSync } from 'node:zlib'
 * const { bytes } = writeZip([{ path: 'manifest.json', data, method: 8 }], { deflate: (d) => deflateRawSync(d) })
 */
export function writeZip(
  files: readonly ZipFile[],
  options: WriteZipOptions = {},
): { bytes: Uint8Array; entries: WrittenEntry[] } {
  if (files.length > 0xffff)
    throw new ZipWriteError(
      'pkg/too-many-entries',
      `${files.length} files are more than one archive holds (65,535)`,
    )
  const versionMadeBy = options.versionMadeBy ?? (3 << 8) | VERSION
  const always = options.utf8Flag === 'always'
  // Sizes first, so that an archive too large is refused before any checksum is computed.
  const entries: WrittenEntry[] = []
  const payloads: Uint8Array[] = []
  const names: Uint8Array[] = []
  let total = 22
  for (const file of files) {
    let method = file.method ?? 0
    let payload = file.data
    if (method === 8) {
      if (!options.deflate)
        throw new ZipWriteError(
          'pkg/unsupported-entry',
          `${file.path} is to be deflated but no deflate was given`,
        )
      // Deflate only when it helps: a tiny or random file is stored rather than grown.
      const deflated = options.deflate(file.data)
      if (deflated.length < file.data.length) payload = deflated
      else method = 0
    }
    const name = encoder.encode(file.path)
    total += 30 + 46 + 2 * name.length + payload.length
    if (total > MAX32)
      throw new ZipWriteError('pkg/too-large', 'the files are more than one archive holds (4 GiB)')
    names.push(name)
    payloads.push(payload)
    entries.push({ path: file.path, size: file.data.length, compressedSize: payload.length, method })
  }
  const records = files.map((file, i): ZipRecord => {
    const header: ZipHeaderFields = {
      versionNeeded: VERSION,
      flags: always || !PRINTABLE_ASCII.test(file.path) ? UTF8_FLAG : 0,
      method: entries[i]!.method,
      time: 0,
      date: DOS_DATE,
      crc: crc32(file.data),
      compressedSize: payloads[i]!.length,
      size: file.data.length,
      name: names[i]!,
    }
    return {
      local: header,
      payload: payloads[i]!,
      central: { ...header, versionMadeBy, externalAttributes: (FILE_MODE << 16) >>> 0 },
    }
  })
  return { bytes: encodeZipRecords(records), entries }
}
