/**
 * Shapes of the safe central-directory reader: one checked record per entry.
 */
import type { ZipDiagnostic, ZipFindings } from './diagnostic'

/** One entry of the archive, as the central directory declares it and its local header confirmed. */
export interface ZipEntry {
  /** The decoded, checked name (directories keep their trailing `/`). */
  readonly name: string
  /** True for a directory entry (name ends with `/`). */
  readonly isDirectory: boolean
  /** True for `__MACOSX/`, `._*` and `.DS_Store`: verified and counted, otherwise ignored. */
  readonly ignored: boolean
  /** 0 (stored) or 8 (deflate). */
  readonly method: number
  /** General-purpose flags. */
  readonly flags: number
  /** Declared CRC-32 of the uncompressed bytes. */
  readonly crc32: number
  /** Declared uncompressed size. */
  readonly size: number
  /** Compressed size. */
  readonly compressedSize: number
  /** Offset of the local header. */
  readonly localHeaderOffset: number
  /** Offset of the compressed data (after the local header). */
  readonly dataOffset: number
  /** End of the entry's bytes (after the data and any data descriptor). */
  readonly end: number
}

/** The checked central directory of an archive. */
export interface ZipDirectory {
  /** Entries in central-directory order. */
  readonly entries: readonly ZipEntry[]
  /** Total archive size in bytes. */
  readonly size: number
  /** True when the archive uses ZIP64 end records. */
  readonly zip64: boolean
}

/** What {@link readZipDirectory} returns: the directory unless a fatal problem stopped it. */
export interface ZipDirectoryResult {
  directory?: ZipDirectory
  diagnostics: ZipDiagnostic[]
  /**
   * With `localHeaders: 'lazy'` only: checks an entry's local header (as a full read does) and
   * returns the confirmed entry (the same object, its `dataOffset` and `end` now set), or
   * undefined with the reason pushed to `out`.
   */
  checkLocal?: (entry: ZipEntry, out: ZipFindings) => ZipEntry | undefined
}

/** Limits the directory reader enforces before reading any entry data. */
export interface ZipLimits {
  /** Central-directory records, directory entries included. @default ZIP_LIMITS.maxEntries */
  maxEntries?: number
  /** Total declared uncompressed bytes. @default ZIP_LIMITS.maxUncompressedBytes */
  maxUncompressedBytes?: number
}

/**
 * The default limits: those of an spkg package (500 records, 50 MiB), which the reader's tests
 * check against `@spkg/manifest`'s `LIMITS`.
 */
export const ZIP_LIMITS: Readonly<Required<ZipLimits>> = Object.freeze({
  maxEntries: 500,
  maxUncompressedBytes: 52_428_800,
})
