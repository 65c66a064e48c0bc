/**
 * A stored (uncompressed) ZIP of cached files, so a cached version is opened by the very same
 * reader as a downloaded one: every check (structure, names, integrity, checksums, signature)
 * runs again on what the cache holds.
 */
import { SpkgError } from '@spkg/manifest'
import { writeZip, ZipWriteError } from '@spkg/zip'

/**
 * Writes `files` (in the order given) as a ZIP with stored entries and UTF-8 names.
 * @throws SpkgError `pkg/too-large` past 65,535 entries or 4 GiB (no ZIP64 here)
 */
export function storedZip(files: ReadonlyArray<{ path: string; bytes: Uint8Array }>): Uint8Array {
  try {
    return writeZip(
      files.map((f) => ({ path: f.path, data: f.bytes })),
      // Made by MS-DOS 2.0 and every name flagged UTF-8, as the cache's archives always were.
      { utf8Flag: 'always', versionMadeBy: 20 },
    ).bytes
  } catch (e) {
    if (!(e instanceof ZipWriteError)) throw e
    throw new SpkgError(
      'pkg/too-large',
      e.code === 'pkg/too-many-entries'
        ? 'too many cached files for one archive'
        : 'the cached package is too large for one archive',
    )
  }
}
