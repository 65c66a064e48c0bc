/**
 * A copy of packages/reader/src/open/blob-peek.ts as it was at commit 60b823e, for
 * `pnpm bench reader-browser` to compare: the same reads into a buffer the size of the file.
 *
 * The quick look of a Blob or File without reading it whole: through `Blob.slice`, the head and
 * the tail (end records), the central directory, then the manifest's local header and data, into
 * a buffer the size of the file whose other bytes stay zero. `readBytes` slices what it reads.
 * The directory reader checks the result exactly as it checks a whole file; when the structure
 * is not where the end record says (a ZIP64 end record away from the tail, a refusal of any kind,
 * an encrypted package), the Blob is read whole and peeked as before, so the verdict and its
 * diagnostics are the whole peek's.
 */
import { isEncryptedPackage } from '@spkg/integrity/encrypt'
import { isSpkgError, LIMITS, SpkgError } from '@spkg/manifest'
import { archiveTooLarge, blobReadFailed, maxInputBytes } from '../../packages/reader/src/open/input'
import { peekArchive } from '../../packages/reader/src/open/open-archive'
import type { PeekOptions, PeekResult } from '../../packages/reader/src/open/types'
import type { ReaderBackend } from '../../packages/reader/src/zip/backend'
import { u16 } from '../../packages/zip/src/bytes'
import { findEndRecord } from '../../packages/zip/src/find-end-record'
import type { ZipEntry } from '../../packages/zip/src/types'

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

/**
 * {@link peekArchive} of a Blob, reading only what the quick look needs (see the module comment).
 * Never rejects on bad input: a Blob that cannot be read is `pkg/fetch-failed`.
 */
export async function peekBlobBefore(
  blob: Blob,
  options: PeekOptions,
  backend: ReaderBackend,
): Promise<PeekResult> {
  const size = blob.size
  const max = maxInputBytes(options.limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes)
  if (size > max) return { ok: false, diagnostics: [archiveTooLarge(size, max)] }
  // A small file costs less read at once than in several slices.
  if (size <= TAIL + HEAD) return peekArchive(blob, options, backend)
  const filled: Array<[number, number]> = []
  /** Starts reading `[start, end)` (clipped), unless it has been read already. */
  const read = (start: number, end: number) => {
    const s = Math.max(0, Math.min(size, start))
    const e = Math.max(s, Math.min(size, end))
    if (s === e || filled.some(([a, b]) => a <= s && e <= b)) return undefined
    let data: Promise<ArrayBuffer>
    try {
      data = blob.slice(s, e).arrayBuffer()
    } catch (err) {
      data = Promise.reject(err)
    }
    return { s, e, data }
  }
  const first = [read(0, HEAD), read(size - TAIL, size)]
  // Allocated while the first reads are in flight (zero pages: the bytes never read cost nothing).
  const bytes = new Uint8Array(size)
  const put = async (r: ReturnType<typeof read>) => {
    if (!r) return
    let data: ArrayBuffer
    try {
      data = await r.data
    } catch (err) {
      const d = blobReadFailed(blob, err)
      throw new SpkgError(d.code, d.message, { diagnostics: [d] })
    }
    bytes.set(new Uint8Array(data), r.s)
    filled.push([r.s, r.e])
  }
  const fill = (start: number, end: number) => put(read(start, end))
  try {
    await Promise.all(first.map(put))
    if (isEncryptedPackage(bytes)) return peekArchive(blob, options, backend)
    const end = findEndRecord(bytes, [])
    if (!end) return peekArchive(blob, options, backend)
    await fill(end.cdOffset, end.cdEnd)
    // An entry's local header, data and data descriptor: with room for a usual name and extra
    // field first, then exactly what the header says when that room was too small.
    const fillHeader = async (e: ZipEntry) => {
      const at = e.localHeaderOffset
      const rest = e.compressedSize + DESCRIPTOR
      await fill(at, Math.min(end.cdOffset, at + 30 + HEADER_GUESS + rest))
      if (at + 30 <= size)
        await fill(at, Math.min(end.cdOffset, at + 30 + u16(bytes, at + 26) + u16(bytes, at + 28) + rest))
    }
    const peek = await peekArchive(bytes, options, backend, { fill, fillHeader })
    return peek.ok ? peek : peekArchive(blob, options, backend)
  } catch (e) {
    if (!isSpkgError(e)) throw e
    return { ok: false, diagnostics: [...e.diagnostics] }
  }
}
