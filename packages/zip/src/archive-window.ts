/**
 * An archive held in part (the quick look of a Blob): the array the readers get holds the file's
 * bytes `[base, size)` (its tail: the end records and the central directory), and the other
 * ranges read so far (the head, the manifest, a cover) are kept beside it. No file-sized buffer
 * is allocated: in Chromium a 48 MiB one cost about 5 ms (zeroing and the garbage collector's
 * external-memory bookkeeping) of a quick look that otherwise takes about as much
 * (bench/reader-browser). Registered per array, as `header-reader.ts` does; an array
 * without a window is the whole archive.
 */
import { type HeaderReader, setHeaderReader } from './header-reader'

/** Where a windowed array sits in its archive, and the archive's other ranges read so far. */
export interface ArchiveWindow {
  /** The archive offset of the array's first byte. */
  readonly base: number
  /** The whole archive's size. */
  readonly size: number
  /** Other ranges of the archive, each `data` holding the bytes from `start`. */
  readonly ranges: Array<{ start: number; data: Uint8Array }>
}

const windows = new WeakMap<Uint8Array, ArchiveWindow>()
const EMPTY = new Uint8Array(0)

/** Registers `tail` as the bytes `[window.base, window.size)` of a larger archive. */
export function setArchiveWindow(tail: Uint8Array, window: ArchiveWindow): void {
  windows.set(tail, window)
  setHeaderReader(tail, windowReader(tail, window))
}

/** The window of `bytes`, or undefined when `bytes` is the whole archive. */
export function archiveWindow(bytes: Uint8Array): ArchiveWindow | undefined {
  return windows.get(bytes)
}

/** A view of `[start, end)` when one held range covers it whole. */
function held(tail: Uint8Array, w: ArchiveWindow, start: number, end: number): Uint8Array | undefined {
  if (start >= w.base) return end <= w.size ? tail.subarray(start - w.base, end - w.base) : undefined
  for (const r of w.ranges)
    if (r.start <= start && end <= r.start + r.data.length)
      return r.data.subarray(start - r.start, end - r.start)
  return undefined
}

/**
 * The archive's bytes `[start, end)`: a view into `bytes`, or into its window's ranges (empty when
 * no range holds them whole, so whatever reads them finds them wrong and refuses).
 */
export function archiveRange(bytes: Uint8Array, start: number, end: number): Uint8Array {
  const w = windows.get(bytes)
  if (!w) return bytes.subarray(start, end)
  return held(bytes, w, start, end) ?? EMPTY
}

/** True when the window holds `[start, end)` (clipped to the archive). */
export function windowHolds(bytes: Uint8Array, start: number, end: number): boolean {
  const w = windows.get(bytes)
  return !w || held(bytes, w, start, Math.min(end, w.size)) !== undefined
}

/** Local headers from the held ranges; a range not held reads as zeros (no header there). */
function windowReader(tail: Uint8Array, w: ArchiveWindow): HeaderReader {
  const reader = {
    buffer: EMPTY as Uint8Array,
    at(start: number, end: number): number {
      reader.buffer = held(tail, w, start, end) ?? new Uint8Array(Math.max(0, end - start))
      return 0
    },
  }
  return reader
}
