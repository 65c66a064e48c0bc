/**
 * `manifest.integrity` check: every listed file must exist with the same SHA-256, and in the
 * packaged layout every file except `manifest.json` and `META-PKG/*` must be listed (closed world).
 */
import { createDiagnostic, type Diagnostic, toPointer } from '@spkg/manifest'
import { entriesOf, isOutsideIntegrity } from './internal/paths'
import { normalizeDigest } from './normalize-digest'

/** Options of {@link verifyIntegrity}. */
export interface VerifyIntegrityOptions {
  /**
   * Archive layout. `packaged` (root `manifest.json`) applies the closed-world rule: a file that
   * `integrity` omits is an error. `flat` only checks the listed files.
   * @default 'packaged'
   */
  layout?: 'packaged' | 'flat'
}

/**
 * Checks recomputed hashes against `manifest.integrity`. Never throws on bad input.
 *
 * - a differing hash: `pkg/integrity-mismatch` (fatal), naming the file;
 * - a listed file absent from the archive: `pkg/integrity-missing-file` (fatal);
 * - a value that is not a SHA-256 digest: `pkg/integrity-mismatch` (fatal): the listed file cannot
 *   match a hash that cannot be read, so the author's request for verification refuses it;
 * - `manifest.json` or `META-PKG/*` listed: `pkg/integrity-excluded-entry` (warning, ignored);
 * - packaged layout, a file not listed: `pkg/integrity-unlisted-file` (error);
 * - `integrity` not an object (a string, a number, an array): one `pkg/integrity-malformed`
 *   (fatal) for the field. An absent map (`undefined` or `null`) declares nothing: no diagnostic.
 *
 * @param hashes every regular file of the archive mapped to its lowercase-hex SHA-256
 * @param integrity the manifest's `integrity` map (hex in any case or `sha256-<base64>`), or
 *   `undefined` when the manifest has none
 * @returns the diagnostics, in archive order of `integrity` then `hashes`; empty when all is well
 * @example
 * const diagnostics = verifyIntegrity(new Map([['story/a.sty', hex]]), { 'story/a.sty': hex })
 * // []
 */
export function verifyIntegrity(
  hashes: ReadonlyMap<string, string>,
  integrity: Readonly<Record<string, string>> | undefined,
  options: VerifyIntegrityOptions = {},
): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  if (integrity === undefined || integrity === null) return diagnostics
  if (typeof integrity !== 'object' || Array.isArray(integrity)) {
    diagnostics.push(
      createDiagnostic(
        'pkg/integrity-malformed',
        `integrity must be an object mapping archive paths to SHA-256 digests, got ${Array.isArray(integrity) ? 'an array' : `a ${typeof integrity}`}, so no file can be verified`,
        { path: 'manifest.json', field: '/integrity' },
      ),
    )
    return diagnostics
  }
  const listed = new Set<string>()
  for (const [path, value] of entriesOf(integrity)) {
    // Built only for a diagnostic: most files pass.
    const at = () => ({ path, field: toPointer(['integrity', path]) })
    listed.add(path)
    if (isOutsideIntegrity(path)) {
      diagnostics.push(
        createDiagnostic(
          'pkg/integrity-excluded-entry',
          `integrity lists '${path}', which it never covers (manifest.json and META-PKG/ are covered by the checksum file); the entry is ignored`,
          at(),
        ),
      )
      continue
    }
    const actual = hashes.get(path)
    // The usual file: the manifest holds the canonical digest (what tools write and the manifest
    // parser normalises to) and it equals the recomputed one, so there is nothing to normalise.
    if (actual === value && typeof value === 'string' && value.length === 64) continue
    const expected = normalizeDigest(value)
    if (expected === undefined) {
      diagnostics.push(
        createDiagnostic(
          'pkg/integrity-mismatch',
          `integrity value for '${path}' is not a SHA-256 digest (64 hex digits or sha256-<base64>), so the file cannot be verified`,
          at(),
        ),
      )
      continue
    }
    if (actual === undefined) {
      diagnostics.push(
        createDiagnostic(
          'pkg/integrity-missing-file',
          `'${path}' is listed in integrity but absent from the archive, so it cannot be verified`,
          at(),
        ),
      )
    } else if (normalizeDigest(actual) !== expected) {
      diagnostics.push(
        createDiagnostic(
          'pkg/integrity-mismatch',
          `SHA-256 of '${path}' does not match integrity: expected ${expected}, got ${actual}`,
          at(),
        ),
      )
    }
  }
  if ((options.layout ?? 'packaged') === 'packaged') {
    for (const path of hashes.keys()) {
      if (listed.has(path) || isOutsideIntegrity(path)) continue
      diagnostics.push(
        createDiagnostic(
          'pkg/integrity-unlisted-file',
          `'${path}' is in the archive but not in integrity; every packaged file must be listed`,
          { path, field: '/integrity' },
        ),
      )
    }
  }
  return diagnostics
}
