/** Archive paths with a special role in integrity and signing. */

/** The checksum file: lists every other file except the signature. */
export const CHECKSUM_PATH = 'META-PKG/checksum.sha256'
/** The signify signature over the exact bytes of the checksum file. */
export const SIGNATURE_PATH = 'META-PKG/signature.sig'
/** The signer's public key (a hint only: trust comes from the embedder's keys). */
export const PUBLIC_KEY_PATH = 'META-PKG/author.pub'
/** The manifest, which cannot list its own hash. */
export const MANIFEST_PATH = 'manifest.json'

/** True for paths `manifest.integrity` never covers: `manifest.json` and everything under `META-PKG/`. */
export function isOutsideIntegrity(path: string): boolean {
  return path === MANIFEST_PATH || path.startsWith('META-PKG/')
}

/** True for the two files the checksum file cannot cover: itself and the signature over it. */
export function isOutsideChecksum(path: string): boolean {
  return path === CHECKSUM_PATH || path === SIGNATURE_PATH
}

/** Iterates a `Map` or a plain record as `[key, value]` pairs. */
export function entriesOf(
  input: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
): Iterable<[string, string]> {
  return input instanceof Map ? input.entries() : Object.entries(input)
}
