/**
 * The quick look of a Blob or File (and, through {@link peekRanges}, of a file on disk for
 * `peekPackageFile`) without reading it whole: through `Blob.slice`, the head and
 * the tail (end records) at once, then whatever of the central directory the tail missed, then the
 * manifest's local header and data when the head missed them. No buffer the size of the file is
 * made: the readers get the tail from the central directory on (`zip/archive-window.ts`), and the
 * other ranges kept beside it. `readBytes` slices what it reads. The directory reader checks the
 * result exactly as it checks a whole file; when the structure is not where the end record says
 * (a ZIP64 end record away from the tail, a refusal of any kind, an encrypted package, a split
 * archive), the Blob is read whole and peeked as before, so the verdict and its diagnostics are
 * the whole peek's.
 */
import { isSpkgError, LIMITS, SpkgError } from '@spkg/manifest'
import {
  archiveRange,
  findEndRecord,
  setArchiveWindow,
  u16,
  u32,
  windowHolds,
  type ZipEntry,
} from '@spkg/zip'
import type { ReaderBackend } from '../zip/backend'
import { isEncrypted } from './encrypted-magic'
import { archiveTooLarge, blobReadFailed, maxArchiveBytes, maxInputBytes } from './input'
import { peekArchive } from './open-archive'
import type { PeekOptions, PeekResult } from './types'

/** End record, its longest comment, the ZIP64 locator and end record. */
const TAIL = 22 + 0xffff + 20 + 56
/**
 * Bytes read from the start, with the tail: the first local header's signature (a stub, a split
 * archive), and usually the manifest, which packers write first.
 */
const HEAD = 64 * 1024
/** Room read for a local header's name and extra field, before knowing their lengths. */
const HEADER_GUESS = 1024
/** A data descriptor's largest size (ZIP64, with its signature). */
const DESCRIPTOR = 24
/** The signature a split archive's first part starts with. */
const SPLIT = 0x08074b50

/**
 * {@link peekArchive} of a Blob, reading only what the quick look needs (see the module comment).
 * Never rejects on bad input: a Blob that cannot be read is `pkg/fetch-failed`.
 */
export function peekBlob(blob: Blob, options: PeekOptions, backend: ReaderBackend): Promise<PeekResult> {
  const slice = async (start: number, end: number): Promise<Uint8Array> => {
    try {
      return new Uint8Array(await blob.slice(start, end).arrayBuffer())
    } catch (err) {
      const d = blobReadFailed(blob, err)
      throw new SpkgError(d.code, d.message, { diagnostics: [d] })
    }
  }
  return peekRanges(blob.size, slice, () => peekArchive(blob, options, backend), options, backend)
}

/**
 * The quick look of an archive of `size` bytes read by ranges: `read(start, end)` gives those
 * bytes (or throws a `SpkgError` carrying its diagnostics); `whole()` is the peek of the archive
 * read whole, taken for what the ranges do not settle (see the module comment). Used for a Blob
 * (`Blob.slice`) and for a file on disk (`peekPackageFile`, positioned reads): neither makes a
 * buffer the size of the file.
 */
export async function peekRanges(
  size: number,
  read: (start: number, end: number) => Promise<Uint8Array>,
  whole: () => Promise<PeekResult>,
  options: PeekOptions,
  backend: ReaderBackend,
): Promise<PeekResult> {
  const maxBytes = options.limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes
  const max = maxInputBytes(maxBytes)
  if (size > max) return { ok: false, diagnostics: [archiveTooLarge(size, max)] }
  // A small file costs less read at once than in several slices; a file too large for an archive
  // (only an encrypted one may be) gets the whole peek's verdict.
  if (size <= TAIL + HEAD || size > maxArchiveBytes(maxBytes)) return whole()
  const slice = read
  try {
    const tailStart = size - TAIL
    const [head, tail] = await Promise.all([slice(0, HEAD), slice(tailStart, size)])
    // Encrypted or a split archive's part: the whole peek says what it is.
    if (isEncrypted(head) || u32(head, 0) === SPLIT) return whole()
    const end = findEndRecord(tail, [], tailStart)
    if (!end || end.cdOffset > tailStart + tail.length) return whole()
    // The window: the archive from its central directory (or the tail, when that starts earlier).
    let base = tailStart
    let bytes = tail
    if (end.cdOffset < tailStart) {
      const cd = await slice(end.cdOffset, tailStart)
      bytes = new Uint8Array(size - end.cdOffset)
      bytes.set(cd)
      bytes.set(tail, cd.length)
      base = end.cdOffset
    }
    const ranges = [{ start: 0, data: head }]
    setArchiveWindow(bytes, { base, size, ranges })
    /** Reads `[start, end)` (clipped) unless the window holds it already. */
    const fill = async (start: number, end: number) => {
      const s = Math.max(0, Math.min(size, start))
      const e = Math.max(s, Math.min(size, end))
      if (s === e || windowHolds(bytes, s, e)) return
      ranges.push({ start: s, data: await slice(s, e) })
    }
    // An entry's local header, data and data descriptor: with room for a usual name and extra
    // field first, then exactly what the header says when that room was too small.
    const fillHeader = async (e: ZipEntry) => {
      const at = e.localHeaderOffset
      const rest = e.compressedSize + DESCRIPTOR
      await fill(at, Math.min(end.cdOffset, at + 30 + HEADER_GUESS + rest))
      const h = archiveRange(bytes, at, at + 30)
      if (h.length === 30) await fill(at, Math.min(end.cdOffset, at + 30 + u16(h, 26) + u16(h, 28) + rest))
    }
    const peek = await peekArchive(bytes, options, backend, { fill, fillHeader })
    return peek.ok ? peek : whole()
  } catch (e) {
    if (!isSpkgError(e)) throw e
    return { ok: false, diagnostics: [...e.diagnostics] }
  }
}
