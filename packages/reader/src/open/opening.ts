/**
 * What the open pipeline's steps share: the archive as read so far and the findings. Each step
 * (`steps/NN-*.ts`) takes what it needs from it and pushes its findings to `diagnostics`.
 */
import type { Diagnostic, Manifest } from '@spkg/manifest'
import type { ZipDirectory, ZipEntry } from '@spkg/zip'
import type { EntryStore } from './entry-store'

/**
 * For a sparsely loaded archive (see `peekPackageFile` and the quick look of a Blob): makes the
 * bytes `[start, end)` of the input present before they are read. The structure (end records,
 * central directory) is present before the directory is read.
 */
export type RangeFiller = (start: number, end: number) => void | Promise<void>

/** A sparsely loaded archive: how the quick look makes the bytes it reads present. */
export interface SparseSource {
  /** Makes an entry's data present before it is inflated. */
  fill: RangeFiller
  /**
   * Makes an entry's local header present before it is checked; undefined when the archive's
   * header reader fetches headers itself (`zip/header-reader.ts`).
   */
  fillHeader?: (entry: ZipEntry) => void | Promise<void>
}

/** The archive after steps 1 to 4 (input, directory, layout, manifest): what open and peek share. */
export interface Opening {
  bytes: Uint8Array
  directory: ZipDirectory
  store: EntryStore
  layout: 'packaged' | 'flat'
  /** The flat layout's entry: the lowest root `.sty` by code point. */
  flatEntry?: string
  manifest?: Manifest
  /** The `manifest.json` entry step 4 read (packaged layout). */
  manifestEntry?: ZipEntry
  /**
   * The `integrity` the manifest declares: the canonical map, or, when the manifest parser could
   * not read all of it (a value that is not a SHA-256, a map that is not an object), the value as
   * written, so that step 6 refuses what cannot be verified. Undefined when there is none.
   */
  integrity?: unknown
  /** The uncompressed-size budget of the whole package. */
  maxBytes: number
  /**
   * Progressive loading only: files whose data is not here yet (step 5 skips them; their
   * expected hashes stand in for step 6; they are verified when they arrive, `remote/`).
   */
  deferred?: ReadonlyMap<string, string>
  diagnostics: Diagnostic[]
  /**
   * Quick look only: confirms an entry's local header before its data is read and keeps the
   * confirmed entry in the store; undefined with the reason pushed when it disagrees.
   */
  confirm?: (entry: ZipEntry, out: Diagnostic[]) => ZipEntry | undefined
}

/** The entry part: the first manifest part, or the flat layout's lowest root `.sty`. */
export function entryOf(o: Opening): string | undefined {
  if (o.layout === 'flat') return o.flatEntry
  return o.manifest?.parts?.[0]?.file
}
