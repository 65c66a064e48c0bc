/**
 * Sparse loading for `peekPackageFile`: a buffer the size of the file (zero pages cost nothing
 * until written) into which only the ZIP structure is read (the tail with the end records, the
 * central directory, each local header and data descriptor), and entry data on demand. The
 * safe directory reader then checks that buffer exactly as it checks a fully read file: a
 * structure this prefetch missed reads as zeros and is refused, never trusted.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { u16, u32, u64 } from '../zip/bytes'
import { findEndRecord } from '../zip/find-end-record'
import { readRecords } from '../zip/read-records'

const EOCD = 0x06054b50
const LOCATOR64 = 0x07064b50
/** End record, its longest comment, the ZIP64 locator and end record. */
const TAIL = 22 + 0xffff + 20 + 56
/** Bytes read past a local header's fixed part, beyond the name and extra the directory declares. */
const SLACK = 64
/** Gaps up to this size between local headers are read through rather than skipped. */
const MERGE = 16 * 1024

/** A file loaded sparsely: `bytes` holds what {@link SparseFile.fill} has read so far. */
export interface SparseFile {
  bytes: Uint8Array
  /** Reads `[start, end)` of the file into `bytes` (reopening the file after {@link close}). */
  fill(start: number, end: number): void
  /** Closes the descriptor kept open for the prefetch. */
  close(): void
}

/**
 * Opens `path` and reads its ZIP structure into a sparse buffer; `{ size }` when the file is
 * larger than `maxBytes` (nothing read). The descriptor stays open until `close()`; later fills
 * reopen the file for each read.
 *
 * @throws the file system error when the file cannot be opened or read
 */
export function openSparse(path: string, maxBytes: number): SparseFile | { size: number } {
  let fd: number | undefined = openSync(path, 'r')
  const close = () => {
    if (fd !== undefined) closeSync(fd)
    fd = undefined
  }
  try {
    const size = fstatSync(fd).size
    if (size > maxBytes) {
      close()
      return { size }
    }
    const bytes = new Uint8Array(size)
    const fill = (start: number, end: number) => {
      let s = Math.max(0, Math.min(size, start))
      const e = Math.max(s, Math.min(size, end))
      if (s >= e) return
      const f = fd ?? openSync(path, 'r')
      try {
        while (s < e) {
          const n = readSync(f, bytes, s, e - s, s)
          if (n === 0) break
          s += n
        }
      } finally {
        if (f !== fd) closeSync(f)
      }
    }
    prefetch(bytes, fill)
    return { bytes, fill, close }
  } catch (e) {
    close()
    throw e
  }
}

function prefetch(b: Uint8Array, fill: (start: number, end: number) => void): void {
  const size = b.length
  fill(0, 64)
  fill(size - TAIL, size)
  // A ZIP64 end record sits where its locator says, usually just before the locator.
  for (let p = size - 22; p >= 0 && p >= size - 22 - 0xffff; p--) {
    if (u32(b, p) !== EOCD) continue
    if (p >= 20 && u32(b, p - 20) === LOCATOR64) {
      const at = u64(b, p - 12)
      if (Number.isFinite(at)) fill(at, at + 56)
    }
    break
  }
  const end = findEndRecord(b, [])
  if (!end) return
  fill(end.cdOffset, end.cdEnd)
  const records = readRecords(b.subarray(end.cdOffset, end.cdOffset + end.cdSize), end.totalEntries, [])
  // Local headers in file order; neighbours closer than MERGE are read in one call.
  const heads = (records ?? [])
    .filter((r) => Number.isFinite(r.localHeaderOffset))
    .sort((a, b) => a.localHeaderOffset - b.localHeaderOffset)
  let spanStart = -1
  let spanEnd = -1
  const flush = () => {
    if (spanStart >= 0) fill(spanStart, spanEnd)
  }
  for (const r of heads) {
    const o = r.localHeaderOffset
    const e = o + 30 + r.nameBytes.length + SLACK
    if (spanStart >= 0 && o - spanEnd <= MERGE) spanEnd = Math.max(spanEnd, e)
    else {
      flush()
      spanStart = o
      spanEnd = e
    }
  }
  flush()
  for (const r of heads) {
    const o = r.localHeaderOffset
    const extended = o + 30 + u16(b, o + 26) + u16(b, o + 28)
    if (extended > o + 30 + r.nameBytes.length + SLACK) fill(o, extended)
    if (r.flags & 8) {
      const data = extended + r.compressedSize
      fill(data, data + 24)
    }
  }
}
