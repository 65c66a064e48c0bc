/**
 * Step 6, integrity and checksums through `@spkg/integrity`: the hashes of step 5 against the
 * manifest's `integrity` (closed world in the packaged layout), then against
 * `META-PKG/checksum.sha256` (closed world). A mismatch is fatal, so both run before anything
 * else is assembled.
 */
import { CHECKSUM_PATH, verifyChecksums, verifyIntegrity } from '@spkg/integrity'
import type { Opening } from '../opening'

/** True when step 5 must hash the files: the manifest declares `integrity` or there is a checksum file. */
export function needsHashes(o: Opening): boolean {
  return o.integrity !== undefined || o.store.files.has(CHECKSUM_PATH)
}

/** Checks the hashes against `integrity` and the checksum file, pushing the findings. */
export function checkIntegrity(o: Opening, hashes: ReadonlyMap<string, string>): void {
  if (o.integrity !== undefined)
    o.diagnostics.push(
      ...verifyIntegrity(hashes, o.integrity as Record<string, string>, { layout: o.layout }),
    )
  if (o.store.files.has(CHECKSUM_PATH))
    o.diagnostics.push(...verifyChecksums(hashes, o.store.read(CHECKSUM_PATH)))
}
