/**
 * Whole-archive encryption into a `.spkg.enc` container: sign first, then encrypt the finished
 * ZIP, so `META-PKG/` travels inside the ciphertext and no entry is ever encrypted on its own.
 */
import { concatBytes, ownBytes } from '../internal/bytes'
import {
  buildHeader,
  DEFAULT_CHUNK_LOG2,
  derivePayloadKey,
  KEY_SIZE,
  keyIdOf,
  MAX_CHUNK_LOG2,
  MIN_CHUNK_LOG2,
  nonce,
} from './container'

/** Options of {@link encryptPackage}. */
export interface EncryptOptions {
  /** log2 of the chunk size; 16 (64 KiB) is the format's default and what readers expect. @default 16 */
  chunkSizeLog2?: number
  /** 16-byte salt; random by default. Pass one only to make reproducible test vectors. */
  salt?: Uint8Array
}

/**
 * Encrypts a finished package archive with a 32-byte key supplied out of band.
 *
 * @throws TypeError when the key is not 32 bytes, the salt not 16 bytes, or the chunk size out of range
 * @example
 * const key = generateEncryptionKey()
 * const sealed = await encryptPackage(zipBytes, key) // write as story.spkg.enc
 */
export async function encryptPackage(
  zipBytes: Uint8Array,
  key: Uint8Array,
  options: EncryptOptions = {},
): Promise<Uint8Array> {
  if (!(key instanceof Uint8Array) || key.length !== KEY_SIZE)
    throw new TypeError(`the encryption key must be ${KEY_SIZE} bytes`)
  const log2 = options.chunkSizeLog2 ?? DEFAULT_CHUNK_LOG2
  if (!Number.isInteger(log2) || log2 < MIN_CHUNK_LOG2 || log2 > MAX_CHUNK_LOG2)
    throw new TypeError(`chunkSizeLog2 must be an integer from ${MIN_CHUNK_LOG2} to ${MAX_CHUNK_LOG2}`)
  const salt = options.salt ?? crypto.getRandomValues(new Uint8Array(16))
  if (salt.length !== 16) throw new TypeError('the salt must be 16 bytes')
  const header = buildHeader(log2, salt, await keyIdOf(key))
  const payloadKey = await derivePayloadKey(key, salt, 'encrypt')
  const chunkSize = 2 ** log2
  const count = Math.max(1, Math.ceil(zipBytes.length / chunkSize))
  const plain = ownBytes(zipBytes)
  const sealed = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const part = plain.subarray(i * chunkSize, Math.min((i + 1) * chunkSize, plain.length))
      const out = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv: nonce(i, i === count - 1), additionalData: header },
        payloadKey,
        part,
      )
      return new Uint8Array(out)
    }),
  )
  return concatBytes(header, ...sealed)
}

/**
 * A fresh random 32-byte key for {@link encryptPackage}.
 *
 * @example
 * const key = generateEncryptionKey() // Uint8Array(32)
 */
export function generateEncryptionKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(KEY_SIZE))
}
