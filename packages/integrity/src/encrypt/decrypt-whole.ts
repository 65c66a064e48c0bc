/**
 * The body of `decryptPackage`: whole-container decryption of `.spkg.enc`, in a module of its own
 * that `decrypt-package.ts` imports lazily, so that opening a plain package never loads the
 * container code.
 */
import { concatBytes } from '../internal/bytes'
import {
  checkKey,
  chunkRange,
  decryptFailed,
  derivePayloadKey,
  HEADER_SIZE,
  hasMagic,
  layoutOf,
  openChunk,
  readHeader,
} from './container'

const PARALLEL = 32

/** See `decryptPackage` in `decrypt-package.ts`. */
export async function decryptWhole(bytes: Uint8Array, key: Uint8Array | undefined): Promise<Uint8Array> {
  checkKey(key)
  if (bytes.length < HEADER_SIZE || !hasMagic(bytes))
    throw decryptFailed('not an encrypted spkg container (missing "SPKGENC" header)')
  const header = await readHeader(bytes, key)
  const layout = layoutOf(bytes.length, header.chunkSize)
  const payloadKey = await derivePayloadKey(key, header.salt, 'decrypt')
  const parts: Uint8Array[] = new Array(layout.chunkCount)
  for (let batch = 0; batch < layout.chunkCount; batch += PARALLEL) {
    const end = Math.min(batch + PARALLEL, layout.chunkCount)
    // allSettled, then the first failure in chunk order: the error names the same chunk whatever
    // order WebCrypto finishes in.
    const settled = await Promise.allSettled(
      Array.from({ length: end - batch }, async (_, j) => {
        const i = batch + j
        const [s, e] = chunkRange(layout, i)
        parts[i] = await openChunk(payloadKey, header, layout, i, bytes.subarray(s, e))
      }),
    )
    const failed = settled.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
  }
  return parts.length === 1 ? parts[0]! : concatBytes(...parts)
}
