/**
 * Closed-world check of `META-PKG/checksum.sha256` against the archive's recomputed hashes.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { parseChecksumFile } from './checksum-file'
import { CHECKSUM_PATH, isOutsideChecksum } from './internal/paths'
import { normalizeDigest } from './normalize-digest'

/**
 * Verifies the checksum file against `hashes` (every regular file of the archive → lowercase-hex
 * SHA-256). Never throws on bad input.
 *
 * - malformed lines: `pkg/checksum-malformed` (error);
 * - a differing hash: `pkg/integrity-mismatch` (fatal), naming the file;
 * - a listed file absent from the archive: `pkg/checksum-missing-file` (error);
 * - an archive file (other than the checksum and signature files) not listed: `pkg/checksum-unlisted-file` (error).
 *
 * @example
 * verifyChecksums(hashes, files.get('META-PKG/checksum.sha256')!) // [] when intact
 */
export function verifyChecksums(
  hashes: ReadonlyMap<string, string>,
  checksumBytes: Uint8Array,
): Diagnostic[] {
  const { entries, diagnostics } = parseChecksumFile(checksumBytes)
  for (const [path, expected] of entries) {
    const actual = hashes.get(path)
    if (actual === undefined) {
      diagnostics.push(
        createDiagnostic(
          'pkg/checksum-missing-file',
          `'${path}' is listed in ${CHECKSUM_PATH} but absent from the archive`,
          { path },
        ),
      )
    } else if (normalizeDigest(actual) !== expected) {
      diagnostics.push(
        createDiagnostic(
          'pkg/integrity-mismatch',
          `SHA-256 of '${path}' does not match ${CHECKSUM_PATH}: expected ${expected}, got ${actual}`,
          { path },
        ),
      )
    }
  }
  for (const path of hashes.keys()) {
    if (entries.has(path) || isOutsideChecksum(path)) continue
    diagnostics.push(
      createDiagnostic(
        'pkg/checksum-unlisted-file',
        `'${path}' is in the archive but not in ${CHECKSUM_PATH}; every file must be listed`,
        { path },
      ),
    )
  }
  return diagnostics
}
