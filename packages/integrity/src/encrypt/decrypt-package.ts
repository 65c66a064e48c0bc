/**
 * Whole-container decryption of `.spkg.enc` and the cheap magic test readers use to decide
 * whether a key is needed. The decryption itself (`decrypt-whole.ts`, with the container code) is
 * loaded by a dynamic `import()` on the first encrypted package: a browser bundle keeps it in a
 * chunk that plain packages never fetch.
 */
import { hasMagic } from './magic'

/**
 * True when `bytes` starts with the `.spkg.enc` magic `SPKGENC\0` (only the first 8 bytes are read).
 *
 * @example
 * if (isEncryptedPackage(bytes)) bytes = await decryptPackage(bytes, key)
 */
export function isEncryptedPackage(bytes: Uint8Array): boolean {
  return hasMagic(bytes)
}

/**
 * Decrypts a whole `.spkg.enc` container back to the ZIP bytes, authenticating every chunk, its
 * position and the final-chunk flag.
 *
 * @throws SpkgError `pkg/key-required` when `key` is missing; `pkg/decrypt-failed` for a wrong key
 *   (key id mismatch), an unknown version or suite, a tampered header or chunk, reordered chunks,
 *   truncation or trailing bytes
 * @example
 * const zipBytes = await decryptPackage(await readFile('story.spkg.enc'), key)
 */
export async function decryptPackage(bytes: Uint8Array, key: Uint8Array | undefined): Promise<Uint8Array> {
  const { decryptWhole } = await import('./decrypt-whole')
  return decryptWhole(bytes, key)
}
