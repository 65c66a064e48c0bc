/**
 * The directory reader's structural half, for a caller that rewrites an archive and keeps only
 * some of its entries (repo-import leaves out a zipball's repository files): the end record, the
 * central directory, every local header and the byte layout are checked as `readZipDirectory`
 * checks them, but a finding about one entry (its name, its file type, encryption, method) does
 * not refuse the archive, names are not compared with one another (duplicates), and the
 * findings that never refuse (a directory with data, system clutter) are not made. A finding
 * about one entry names it (`path`), for the caller to weigh against the entries it keeps; the
 * archive it writes must go through `readZipDirectory` again. Kept apart from the reader's
 * modules so that a bundle that only reads archives leaves it out.
 */
import { hasFatal, type ZipDiagnostic, zipDiagnostic } from './diagnostic'
import { findEndRecord } from './find-end-record'
import { checkLayout } from './local-headers'
import { readRecords } from './read-records'
import { ZIP_LIMITS, type ZipDirectoryResult, type ZipLimits } from './types'

/**
 * Reads the layout of the whole archive `bytes` (not a tail). `directory` is absent when the
 * archive itself is refused (a fatal finding without `path`, a record that could not be read, the
 * limits, the layout); with it, `diagnostics` may still hold fatal findings about single entries.
 * Never throws.
 *
 * @example
 * const { directory, diagnostics } = readZipLayout(zipball, { maxEntries: 1064 })
 * diagnostics.filter((d) => d.severity === 'fatal').map((d) => d.path) // ['w/README.md'] for a link
 */
export function readZipLayout(bytes: Uint8Array, limits: ZipLimits = {}): ZipDirectoryResult {
  const maxEntries = limits.maxEntries ?? ZIP_LIMITS.maxEntries
  const maxBytes = limits.maxUncompressedBytes ?? ZIP_LIMITS.maxUncompressedBytes
  const diagnostics: ZipDiagnostic[] = []
  const end = findEndRecord(bytes, diagnostics)
  if (!end) return { diagnostics }
  if (end.totalEntries > maxEntries) {
    diagnostics.push(
      zipDiagnostic(
        'pkg/too-many-entries',
        `The archive has ${end.totalEntries} entries; at most ${maxEntries} are allowed (directories included).`,
      ),
    )
    return { diagnostics }
  }
  const cd = bytes.subarray(end.cdOffset, end.cdOffset + end.cdSize)
  const records = readRecords(cd, end.totalEntries, diagnostics)
  // A record left out (a name that cannot be decoded, a malformed extra field) leaves its bytes
  // unaccounted for: the layout cannot be checked without it.
  const whole = records && records.entries.length === end.totalEntries
  if (!whole || hasFatal(diagnostics.filter((d) => d.path === undefined))) return { diagnostics }
  if (records.declared > maxBytes) {
    diagnostics.push(
      zipDiagnostic(
        'pkg/too-large',
        `The entries declare ${records.declared} uncompressed bytes; at most ${maxBytes} are allowed.`,
      ),
    )
    return { diagnostics }
  }
  const entries = checkLayout(bytes, records, end.cdOffset, diagnostics)
  if (!entries) return { diagnostics }
  return { directory: { entries, size: bytes.length, zip64: end.zip64 }, diagnostics }
}
