/**
 * The central directory of an archive field for field, as `encodeZipRecords` takes it back: for
 * a caller that rewrites an archive it has read and must keep what a `ZipEntry` does not carry
 * (version made by, times, attributes, the name's raw bytes) and the archive comment. It parses
 * no more than the records' fixed layout: the checks are `readZipDirectory`'s, which should have
 * accepted the archive first. Kept apart from the reader's modules so that a bundle that only
 * reads archives leaves it out.
 */
import { u16, u32, u64 } from './bytes'
import type { EndRecord } from './find-end-record'
import type { ZipCentralFields } from './write-zip'

const CDH = 0x02014b50
const EOCD = 0x06054b50
const LOCATOR64 = 0x07064b50

/** What {@link readCentralRecords} returns. */
export interface CentralRecords {
  /**
   * Each central-directory record in directory order, as written: sizes and offset are the
   * 32-bit fields (0xFFFFFFFF where a ZIP64 field in `extra` holds the value), `name`, `extra`
   * and `comment` views of the archive's bytes.
   */
  records: ZipCentralFields[]
  /** The archive comment (the end record's), a view of the archive's bytes. */
  comment: Uint8Array
}

/**
 * The records of the central directory `end` locates in the whole archive `bytes` (not a tail:
 * see `archive-window.ts`), and the archive comment; undefined when a record is missing or runs
 * past the directory. Never throws.
 *
 * @example
 * const end = findEndRecord(bytes, [])
 * const raw = end && readCentralRecords(bytes, end)
 * raw?.records[0]?.externalAttributes // 0o100644 * 0x10000 for a Unix file
 */
export function readCentralRecords(bytes: Uint8Array, end: EndRecord): CentralRecords | undefined {
  const stop = end.cdOffset + end.cdSize
  if (stop > bytes.length) return undefined
  const records: ZipCentralFields[] = []
  let o = end.cdOffset
  for (let i = 0; i < end.totalEntries; i++) {
    if (o + 46 > stop || u32(bytes, o) !== CDH) return undefined
    const nameAt = o + 46
    const extraAt = nameAt + u16(bytes, o + 28)
    const commentAt = extraAt + u16(bytes, o + 30)
    const next = commentAt + u16(bytes, o + 32)
    if (next > stop) return undefined
    records.push({
      versionMadeBy: u16(bytes, o + 4),
      versionNeeded: u16(bytes, o + 6),
      flags: u16(bytes, o + 8),
      method: u16(bytes, o + 10),
      time: u16(bytes, o + 12),
      date: u16(bytes, o + 14),
      crc: u32(bytes, o + 16),
      compressedSize: u32(bytes, o + 20),
      size: u32(bytes, o + 24),
      name: bytes.subarray(nameAt, extraAt),
      extra: bytes.subarray(extraAt, commentAt),
      comment: bytes.subarray(commentAt, next),
      diskStart: u16(bytes, o + 34),
      internalAttributes: u16(bytes, o + 36),
      externalAttributes: u32(bytes, o + 38),
      offset: u32(bytes, o + 42),
    })
    o = next
  }
  const at = endRecordAt(bytes, end)
  const comment = at < 0 ? bytes.subarray(0, 0) : bytes.subarray(at + 22, at + 22 + u16(bytes, at + 20))
  return { records, comment }
}

/**
 * Where the classic end record starts. Without ZIP64 the directory ends there. With ZIP64 it
 * follows the locator that points at the ZIP64 end record; among such records the one
 * `findEndRecord` took: the last whose comment ends the input, else the last followed by zero
 * bytes only. -1 when there is none.
 */
function endRecordAt(b: Uint8Array, end: EndRecord): number {
  const fits = (p: number) => p + 22 <= b.length && u32(b, p) === EOCD && p + 22 + u16(b, p + 20) <= b.length
  if (!end.zip64) return fits(end.cdEnd) ? end.cdEnd : -1
  let padded = -1
  for (let p = b.length - 22; p >= end.cdEnd + 20 && p >= b.length - 22 - 0xffff; p--) {
    if (!fits(p) || u32(b, p - 20) !== LOCATOR64 || u64(b, p - 12) !== end.cdEnd) continue
    const stop = p + 22 + u16(b, p + 20)
    if (stop === b.length) return p
    if (padded < 0 && b.subarray(stop).every((x) => x === 0)) padded = p
  }
  return padded
}
