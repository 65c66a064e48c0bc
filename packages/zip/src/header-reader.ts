/**
 * How the directory reader reaches the local headers (and data descriptors) of an archive. For
 * bytes in memory they are read in place; a sparsely loaded file (see `peekPackageFile`)
 * registers a reader that fetches them from disk on demand, so the headers scattered through a
 * large file cost small reads instead of faulting in pages of the file-sized buffer.
 */

/** Random access to byte ranges of the archive. */
export interface HeaderReader {
  /** Where {@link HeaderReader.at} put the range; read it before the next call. */
  readonly buffer: Uint8Array
  /** Makes the archive's bytes `[start, end)` readable in `buffer` and returns their offset there. */
  at(start: number, end: number): number
}

const readers = new WeakMap<Uint8Array, HeaderReader>()

/** Registers how to read the headers of a sparsely loaded archive `bytes`. */
export function setHeaderReader(bytes: Uint8Array, reader: HeaderReader): void {
  readers.set(bytes, reader)
}

/** The reader for `bytes`: the registered one, or the bytes themselves. */
export function headerReader(bytes: Uint8Array): HeaderReader {
  return readers.get(bytes) ?? { buffer: bytes, at: (start) => start }
}
