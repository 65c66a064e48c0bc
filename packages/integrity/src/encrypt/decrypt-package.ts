/**
 * Whole-container decryption of `.spkg.enc` and the cheap magic test readers use to decide
 * whether a key is needed. The container code is loaded with this module: `@spkg/reader` keeps
 * all of its encrypted-package code behind one dynamic `import()` (`open/encryption.ts`), so a
 * browser bundle of the reader holds it in one lazy chunk that plain packages never fetch
 * (bench/bundle, `pnpm check:packaging`); a lazy import here as well split that chunk in three.
 */
import { concatBytes } from '../internal/bytes'
import * as container from './container'
import { hasMagic } from './magic'

const PARALLEL = 32

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
  container.checkKey(key)
  if (bytes.length < container.HEADER_SIZE || !hasMagic(bytes))
    throw container.decryptFailed('not an encrypted spkg container (missing "SPKGENC" header)')
  const header = await container.readHeader(bytes, key)
  const layout = container.layoutOf(bytes.length, header.chunkSize)
  const payloadKey = await container.derivePayloadKey(key, header.salt, 'decrypt')
  const parts: Uint8Array[] = new Array(layout.chunkCount)
  for (let batch = 0; batch < layout.chunkCount; batch += PARALLEL) {
    const end = Math.min(batch + PARALLEL, layout.chunkCount)
    // allSettled, then the first failure in chunk order: the error names the same chunk whatever
    // order WebCrypto finishes in.
    const settled = await Promise.allSettled(
      Array.from({ length: end - batch }, async (_, j) => {
        const i = batch + j
        const [s, e] = container.chunkRange(layout, i)
        parts[i] = await container.openChunk(payloadKey, header, layout, i, bytes.subarray(s, e))
      }),
    )
    const failed = settled.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
  }
  return parts.length === 1 ? parts[0]! : concatBytes(...parts)
}
