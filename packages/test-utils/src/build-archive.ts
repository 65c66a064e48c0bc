/**
 * A ZIP writer with full control over every header field, for valid fixtures and for the
 * hostile archives a reader must refuse (lying sizes, duplicated records, raw name bytes...).
 * It writes what it is told: nothing here validates, on purpose.
 */
import { crc32 } from 'node:zlib'
import { deflateSync } from 'fflate'

/** Bytes or UTF-8 text. */
export type Content = string | Uint8Array

/** One entry of {@link buildArchive}; every field beyond `name` is optional and overrides a default. */
export interface EntrySpec {
  /** Entry name: text (encoded as UTF-8) or raw bytes (e.g. CP437). */
  name: Content
  /** Uncompressed content. @default empty */
  data?: Content
  /** Compression method written in both headers. @default 8 (deflate) for files, 0 for directories */
  method?: number
  /** Payload written as-is instead of compressing `data` (e.g. a deflate bomb). */
  payload?: Uint8Array
  /** General-purpose flags; default sets bit 11 when the name is non-ASCII text, bit 3 with `dataDescriptor`. */
  flags?: number
  /** Declared CRC-32 (both headers). @default the real CRC of `data` */
  crc?: number
  /** Declared uncompressed size (both headers). @default the real size */
  size?: number
  /** Declared compressed size (both headers). @default the real payload size */
  compressedSize?: number
  /** Write sizes and CRC in a data descriptor after the data ('no-signature' omits its optional signature). */
  dataDescriptor?: boolean | 'no-signature'
  /** Write sizes (and offset) as ZIP64 extra fields with 0xFFFFFFFF in the headers. */
  zip64?: boolean
  /** Data-descriptor fields that disagree with the central directory. */
  descriptor?: { crc?: number; size?: number; compressedSize?: number }
  /** Extra field bytes appended to the central-directory record. */
  extra?: Uint8Array
  /** Extra field bytes appended to the local header. */
  localExtra?: Uint8Array
  /** An Info-ZIP Unicode Path extra field (0x7075) carrying this name, in both headers. */
  unicodePath?: string
  /** Unix mode (e.g. 0o120777 for a symlink), written with "made by Unix" in the external attributes. */
  unixMode?: number
  /** Raw external attributes (overrides `unixMode`). */
  externalAttributes?: number
  /** Version made by. @default 0x031e (Unix, 3.0) with `unixMode`, else 0x0014 */
  versionMadeBy?: number
  /** Disk number where the entry starts. @default 0 */
  diskStart?: number
  /** Local header fields that disagree with the central directory. */
  local?: {
    name?: Content
    flags?: number
    method?: number
    crc?: number
    size?: number
    compressedSize?: number
  }
  /** Overrides the local header offset written in the central directory. */
  offset?: number
  /** Leave the local header out (only the central-directory record points at `offset`). */
  omitLocal?: boolean
}

/** Archive-level options of {@link buildArchive}. */
export interface BuildArchiveOptions {
  /** Bytes before the first local header (a self-extractor stub). */
  prepend?: Uint8Array
  /** Bytes after the end record. */
  append?: Uint8Array
  /** Archive comment. */
  comment?: Content
  /** Write ZIP64 end records (with 0xFFFF/0xFFFFFFFF in the classic record). */
  zip64End?: boolean
  /** Central-directory records to write again, by entry index (several records, same data). */
  repeatRecords?: number[]
  /** Overrides of the end record fields. */
  end?: {
    disk?: number
    cdDisk?: number
    entriesOnDisk?: number
    totalEntries?: number
    cdSize?: number
    cdOffset?: number
  }
  /** Deflate level. @default 6 */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
}

const enc = new TextEncoder()
const toBytes = (c: Content | undefined): Uint8Array =>
  c === undefined ? new Uint8Array(0) : typeof c === 'string' ? enc.encode(c) : c
const isAscii = (b: Uint8Array) => b.every((x) => x < 0x80)

class Writer {
  private chunks: Uint8Array[] = []
  length = 0
  bytes(b: Uint8Array) {
    this.chunks.push(b)
    this.length += b.length
  }
  u16(v: number) {
    const b = new Uint8Array(2)
    new DataView(b.buffer).setUint16(0, v & 0xffff, true)
    this.bytes(b)
  }
  u32(v: number) {
    const b = new Uint8Array(4)
    new DataView(b.buffer).setUint32(0, v >>> 0, true)
    this.bytes(b)
  }
  u64(v: number) {
    const b = new Uint8Array(8)
    new DataView(b.buffer).setBigUint64(0, BigInt(v), true)
    this.bytes(b)
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length)
    let o = 0
    for (const c of this.chunks) {
      out.set(c, o)
      o += c.length
    }
    return out
  }
}

function extraField(id: number, body: Uint8Array): Uint8Array {
  const w = new Writer()
  w.u16(id)
  w.u16(body.length)
  w.bytes(body)
  return w.concat()
}

function unicodePathExtra(headerName: Uint8Array, name: string): Uint8Array {
  const w = new Writer()
  w.bytes(new Uint8Array([1]))
  w.u32(crc32(headerName))
  w.bytes(enc.encode(name))
  return extraField(0x7075, w.concat())
}

function zip64Extra(values: number[]): Uint8Array {
  const w = new Writer()
  for (const v of values) w.u64(v)
  return extraField(0x0001, w.concat())
}

const concat = (...parts: Uint8Array[]) => {
  const w = new Writer()
  for (const p of parts) w.bytes(p)
  return w.concat()
}

/** Normalises the two input shapes of {@link buildArchive} into entry specs (directories end with `/`). */
export function toEntrySpecs(files: Record<string, Content> | readonly EntrySpec[]): EntrySpec[] {
  return Array.isArray(files)
    ? [...files]
    : Object.entries(files as Record<string, Content>).map(([name, data]) => ({ name, data }))
}

/**
 * Builds ZIP bytes from `{ name: content }` or a list of {@link EntrySpec}s, with every header
 * field controllable for hostile fixtures.
 *
 * @example
 * const zip = buildArchive({ 'manifest.json': '{"id":"x"}', 'story/0001-inn.sty': 'Hello' })
 * const bad = buildArchive([{ name: '../evil', data: 'x' }], { append: new Uint8Array(4) })
 */
export function buildArchive(
  files: Record<string, Content> | readonly EntrySpec[],
  options: BuildArchiveOptions = {},
): Uint8Array {
  const specs = toEntrySpecs(files)
  const body = new Writer()
  if (options.prepend) body.bytes(options.prepend)
  const records: Uint8Array[] = []
  for (const spec of specs) {
    const nameBytes = toBytes(spec.name)
    const data = toBytes(spec.data)
    const isDir = nameBytes.length > 0 && nameBytes[nameBytes.length - 1] === 0x2f
    const method = spec.method ?? (isDir ? 0 : 8)
    const payload = spec.payload ?? (method === 8 ? deflateSync(data, { level: options.level ?? 6 }) : data)
    const crc = spec.crc ?? crc32(data)
    const size = spec.size ?? data.length
    const csize = spec.compressedSize ?? payload.length
    const descriptor = spec.dataDescriptor ?? false
    let flags =
      spec.flags ?? (typeof spec.name === 'string' && !isAscii(nameBytes) ? 0x800 : 0) | (descriptor ? 8 : 0)
    if (spec.flags === undefined && descriptor) flags |= 8
    const offset = body.length
    const uni =
      spec.unicodePath === undefined ? new Uint8Array(0) : unicodePathExtra(nameBytes, spec.unicodePath)
    // local header
    if (!spec.omitLocal) {
      const l = spec.local ?? {}
      const lname = l.name === undefined ? nameBytes : toBytes(l.name)
      const lcrc = l.crc ?? (descriptor ? 0 : crc)
      const lsize = l.size ?? (descriptor ? 0 : size)
      const lcsize = l.compressedSize ?? (descriptor ? 0 : csize)
      const lextra = concat(
        spec.zip64 ? zip64Extra([lsize, lcsize]) : new Uint8Array(0),
        uni,
        spec.localExtra ?? new Uint8Array(0),
      )
      body.u32(0x04034b50)
      body.u16(spec.zip64 ? 45 : 20)
      body.u16(l.flags ?? flags)
      body.u16(l.method ?? method)
      body.u16(0) // time
      body.u16(0x21) // date 1980-01-01
      body.u32(lcrc)
      body.u32(spec.zip64 ? 0xffffffff : lcsize)
      body.u32(spec.zip64 ? 0xffffffff : lsize)
      body.u16(lname.length)
      body.u16(lextra.length)
      body.bytes(lname)
      body.bytes(lextra)
      body.bytes(payload)
      if (descriptor) {
        if (descriptor !== 'no-signature') body.u32(0x08074b50)
        const dd = spec.descriptor ?? {}
        body.u32(dd.crc ?? crc)
        if (spec.zip64) {
          body.u64(dd.compressedSize ?? csize)
          body.u64(dd.size ?? size)
        } else {
          body.u32(dd.compressedSize ?? csize)
          body.u32(dd.size ?? size)
        }
      }
    }
    // central-directory record
    const cdOffset = spec.offset ?? offset
    const extra = concat(
      spec.zip64 ? zip64Extra([size, csize, cdOffset]) : new Uint8Array(0),
      uni,
      spec.extra ?? new Uint8Array(0),
    )
    const r = new Writer()
    r.u32(0x02014b50)
    r.u16(spec.versionMadeBy ?? (spec.unixMode !== undefined ? 0x031e : 0x0014))
    r.u16(spec.zip64 ? 45 : 20)
    r.u16(flags)
    r.u16(method)
    r.u16(0)
    r.u16(0x21)
    r.u32(crc)
    r.u32(spec.zip64 ? 0xffffffff : csize)
    r.u32(spec.zip64 ? 0xffffffff : size)
    r.u16(nameBytes.length)
    r.u16(extra.length)
    r.u16(0) // comment length
    r.u16(spec.diskStart ?? 0)
    r.u16(0) // internal attributes
    r.u32(
      spec.externalAttributes ?? (spec.unixMode !== undefined ? spec.unixMode * 0x10000 : isDir ? 0x10 : 0),
    )
    r.u32(spec.zip64 ? 0xffffffff : cdOffset)
    r.bytes(nameBytes)
    r.bytes(extra)
    records.push(r.concat())
  }
  const cdStart = body.length
  const written = [...records, ...(options.repeatRecords ?? []).map((i) => records[i]!)]
  for (const rec of written) body.bytes(rec)
  const cdSize = body.length - cdStart
  const e = options.end ?? {}
  const count = written.length
  if (options.zip64End) {
    const eocd64 = body.length
    body.u32(0x06064b50)
    body.u64(44)
    body.u16(45)
    body.u16(45)
    body.u32(e.disk ?? 0)
    body.u32(e.cdDisk ?? 0)
    body.u64(e.entriesOnDisk ?? count)
    body.u64(e.totalEntries ?? count)
    body.u64(e.cdSize ?? cdSize)
    body.u64(e.cdOffset ?? cdStart)
    body.u32(0x07064b50)
    body.u32(0)
    body.u64(eocd64)
    body.u32(1)
  }
  const comment = toBytes(options.comment)
  body.u32(0x06054b50)
  body.u16(e.disk ?? 0)
  body.u16(e.cdDisk ?? 0)
  body.u16(options.zip64End ? 0xffff : (e.entriesOnDisk ?? count))
  body.u16(options.zip64End ? 0xffff : (e.totalEntries ?? count))
  body.u32(options.zip64End ? 0xffffffff : (e.cdSize ?? cdSize))
  body.u32(options.zip64End ? 0xffffffff : (e.cdOffset ?? cdStart))
  body.u16(comment.length)
  body.bytes(comment)
  if (options.append) body.bytes(options.append)
  return body.concat()
}
