/**
 * Sparse loading for `peekPackageFile`: a buffer the size of the file (zero pages cost nothing
 * until written) into which only the end of the ZIP structure is read (the tail with the end
 * records and the central directory), then entry data on demand. The peek reads no local header
 * up front: the manifest's, and each entry's when `readBytes` asks, are read from disk as they
 * are checked (see `zip/header-reader.ts`), in small read-ahead chunks, so they never fault in
 * pages of the big buffer. The safe directory reader checks the result exactly as it checks a fully read
 * file: a structure this prefetch missed reads as zeros and is refused, never trusted.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { u32, u64 } from '../zip/bytes'
import { findEndRecord } from '../zip/find-end-record'
import { type HeaderReader, setHeaderReader } from '../zip/header-reader'

const EOCD = 0x06054b50
const LOCATOR64 = 0x07064b50
/** End record, its longest comment, the ZIP64 locator and end record. */
const TAIL = 22 + 0xffff + 20 + 56
/** Bytes read at once for local headers: neighbouring small entries come in one read. */
const CHUNK = 512

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
 * larger than `maxBytes` (nothing read). The descriptor stays open until `close()`; later reads
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
    /** Reads the file's `[start, end)` into `into` at `at`; returns the bytes read. */
    const read = (into: Uint8Array, at: number, start: number, end: number): number => {
      const f = fd ?? openSync(path, 'r')
      let s = start
      try {
        while (s < end) {
          const n = readSync(f, into, at + s - start, end - s, s)
          if (n === 0) break
          s += n
        }
      } finally {
        if (f !== fd) closeSync(f)
      }
      return s - start
    }
    const bytes = new Uint8Array(size)
    const fill = (start: number, end: number) => {
      const s = Math.max(0, Math.min(size, start))
      const e = Math.max(s, Math.min(size, end))
      if (s < e) read(bytes, s, s, e)
    }
    prefetch(bytes, fill)
    setHeaderReader(bytes, chunkedReader(size, read))
    return { bytes, fill, close }
  } catch (e) {
    close()
    throw e
  }
}

/** Reads ranges of the file into one reused buffer, `CHUNK` bytes ahead; missing bytes read as zeros. */
function chunkedReader(
  size: number,
  read: (into: Uint8Array, at: number, start: number, end: number) => number,
): HeaderReader {
  let start = 0
  let end = 0
  const reader = {
    buffer: new Uint8Array(CHUNK),
    at(from: number, to: number): number {
      if (from >= start && to <= end) return from - start
      const want = Math.max(to - from, CHUNK)
      if (reader.buffer.length < want) reader.buffer = new Uint8Array(want)
      const s = Math.max(0, Math.min(size, from))
      const got = read(reader.buffer, 0, s, Math.min(size, s + want))
      reader.buffer.fill(0, got, Math.max(got, to - from))
      start = from
      end = from + Math.max(got, to - from)
      return 0
    },
  }
  return reader
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
  if (end) fill(end.cdOffset, end.cdEnd)
}
