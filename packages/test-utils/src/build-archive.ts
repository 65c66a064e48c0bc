/**
 * Fixture archives with full control over every header field, for valid fixtures and for the
 * hostile archives a reader must refuse (lying sizes, duplicated records, raw name bytes...).
 * This layer only turns an {@link EntrySpec} into the fields of a record (defaults, overrides);
 * `@spkg/zip`'s `encodeZipRecords` lays the bytes out. Nothing here validates, on purpose.
 */
import {
  crc32,
  encodeZipRecords,
  type ZipHeaderFields,
  type ZipLayout,
  type ZipRecord,
  zipExtraField,
} from '@spkg/zip'
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
  end?: ZipLayout['end']
  /** Deflate level. @default 6 */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
}

const enc = new TextEncoder()
const EMPTY = new Uint8Array(0)
const toBytes = (c: Content | undefined): Uint8Array =>
  c === undefined ? EMPTY : typeof c === 'string' ? enc.encode(c) : c
const isAscii = (b: Uint8Array) => b.every((x) => x < 0x80)

function unicodePathExtra(headerName: Uint8Array, name: string): Uint8Array {
  const text = enc.encode(name)
  const body = new Uint8Array(5 + text.length)
  body[0] = 1 // version
  new DataView(body.buffer).setUint32(1, crc32(headerName), true)
  body.set(text, 5)
  return zipExtraField(0x7075, body)
}

/** `a` then `b` in one array (an extra field's Unicode path record before the spec's own extra bytes). */
const join = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Normalises the two input shapes of {@link buildArchive} into entry specs (directories end with `/`). */
export function toEntrySpecs(files: Record<string, Content> | readonly EntrySpec[]): EntrySpec[] {
  return Array.isArray(files)
    ? [...files]
    : Object.entries(files as Record<string, Content>).map(([name, data]) => ({ name, data }))
}

/** The record of one spec: real values where the spec says nothing, its overrides where it does. */
function toRecord(spec: EntrySpec, level: BuildArchiveOptions['level']): ZipRecord {
  const nameBytes = toBytes(spec.name)
  const data = toBytes(spec.data)
  const isDir = nameBytes.length > 0 && nameBytes[nameBytes.length - 1] === 0x2f
  const method = spec.method ?? (isDir ? 0 : 8)
  const payload = spec.payload ?? (method === 8 ? deflateSync(data, { level: level ?? 6 }) : data)
  const crc = spec.crc ?? crc32(data)
  const size = spec.size ?? data.length
  const csize = spec.compressedSize ?? payload.length
  const descriptor = spec.dataDescriptor ?? false
  let flags =
    spec.flags ?? (typeof spec.name === 'string' && !isAscii(nameBytes) ? 0x800 : 0) | (descriptor ? 8 : 0)
  if (spec.flags === undefined && descriptor) flags |= 8
  const uni = spec.unicodePath === undefined ? EMPTY : unicodePathExtra(nameBytes, spec.unicodePath)
  const zip64 = spec.zip64 ?? false
  const shared = { versionNeeded: zip64 ? 45 : 20, time: 0, date: 0x21, zip64 }
  const l = spec.local ?? {}
  const local: ZipHeaderFields = {
    ...shared,
    flags: l.flags ?? flags,
    method: l.method ?? method,
    crc: l.crc ?? (descriptor ? 0 : crc),
    compressedSize: l.compressedSize ?? (descriptor ? 0 : csize),
    size: l.size ?? (descriptor ? 0 : size),
    name: l.name === undefined ? nameBytes : toBytes(l.name),
    extra: join(uni, spec.localExtra ?? EMPTY),
  }
  const dd = spec.descriptor ?? {}
  return {
    ...(spec.omitLocal ? {} : { local }),
    payload,
    ...(descriptor
      ? {
          descriptor: {
            signature: descriptor !== 'no-signature',
            crc: dd.crc ?? crc,
            compressedSize: dd.compressedSize ?? csize,
            size: dd.size ?? size,
            zip64,
          },
        }
      : {}),
    central: {
      ...shared,
      versionMadeBy: spec.versionMadeBy ?? (spec.unixMode !== undefined ? 0x031e : 0x0014),
      flags,
      method,
      crc,
      compressedSize: csize,
      size,
      name: nameBytes,
      extra: join(uni, spec.extra ?? EMPTY),
      diskStart: spec.diskStart ?? 0,
      externalAttributes:
        spec.externalAttributes ?? (spec.unixMode !== undefined ? spec.unixMode * 0x10000 : isDir ? 0x10 : 0),
      ...(spec.offset === undefined ? {} : { offset: spec.offset }),
    },
  }
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
  return encodeZipRecords(
    toEntrySpecs(files).map((spec) => toRecord(spec, options.level)),
    {
      ...(options.prepend ? { prepend: options.prepend } : {}),
      ...(options.append ? { append: options.append } : {}),
      comment: toBytes(options.comment),
      ...(options.repeatRecords ? { repeatRecords: options.repeatRecords } : {}),
      ...(options.zip64End ? { zip64End: true } : {}),
      ...(options.end ? { end: options.end } : {}),
    },
  )
}
