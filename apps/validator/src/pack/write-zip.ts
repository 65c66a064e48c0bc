/**
 * The archive writer of `spkg pack` and `spkg sign`: `@spkg/zip`'s deterministic `writeZip`
 * (fixed timestamp 1980-01-01 00:00, Unix mode 0644, names flagged UTF-8 when not printable
 * ASCII) with Node's zlib as its deflate, so the same files give the same bytes.
 * Sizes stay far below 4 GiB (the package limit is 50 MiB), so ZIP64 is never needed.
 */
import { deflateRawSync } from 'node:zlib'
import { type ZipFile as ArchiveFile, type WrittenEntry, writeZip as writeArchive } from '@spkg/zip'

export type { WrittenEntry } from '@spkg/zip'

/** One file to write: `method` 0 stores the bytes, 8 deflates them (stored when deflate would not shrink them). */
export type ZipFile = ArchiveFile & { method: 0 | 8 }

/**
 * Writes `files` in the given order as one ZIP archive.
 *
 * @param options.level deflate level 0-9 for method 8 entries (default 6, zlib's: level 9 measured 5x slower on story text for little gain)
 * @returns the archive bytes and what each entry became
 * @example
 * const { bytes } = writeZip([{ path: 'manifest.json', data, method: 8 }])
 */
export function writeZip(
  files: readonly ZipFile[],
  options: { level?: number } = {},
): { bytes: Uint8Array; entries: WrittenEntry[] } {
  const level = options.level ?? 6
  return writeArchive(files, { deflate: (data) => deflateRawSync(data, { level }) })
}
