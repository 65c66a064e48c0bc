/**
 * The `.spkg.enc` v1 container, all WebCrypto-native (the reasoning is in the package README):
 *
 * ```
 * 0   8  magic   "SPKGENC\0"
 * 8   1  version = 1
 * 9   1  suite   = 1 (HKDF-SHA-256 → AES-256-GCM)
 * 10  1  log2(chunk size) = 16 (64 KiB)
 * 11  1  reserved = 0
 * 12 16  salt (random per file)
 * 28  8  key id = SHA-256(master key)[0..8]
 * 36  …  chunks: AES-256-GCM(ciphertext ≤ chunk size ‖ 16-byte tag)
 * ```
 *
 * payload key = HKDF-SHA-256(master key, salt, info "spkg-enc/v1"); nonce = 88-bit big-endian
 * chunk index ‖ 0x01 on the last chunk, else 0x00; additional data = the 36-byte header. Every
 * chunk is full except the last, which holds 1..chunk bytes (0 only for an empty plaintext).
 */
import { SpkgError } from '@spkg/manifest'
import { bytesEqual, ownBytes, toHex } from '../internal/bytes'
import { hasMagic, MAGIC } from './magic'

export { hasMagic, MAGIC }
export const VERSION = 1
export const SUITE = 1
export const HEADER_SIZE = 36
export const TAG_SIZE = 16
export const KEY_SIZE = 32
export const DEFAULT_CHUNK_LOG2 = 16
export const MIN_CHUNK_LOG2 = 10
export const MAX_CHUNK_LOG2 = 24
// Marked pure: a consumer of the bundled `dist/encrypt.js` that imports only `isEncryptedPackage` drops it.
const INFO = /* @__PURE__ */ (() => new TextEncoder().encode('spkg-enc/v1'))()

/** The parsed fixed header. */
export interface ContainerHeader {
  /** The 36 header bytes, authenticated as additional data of every chunk. */
  bytes: Uint8Array<ArrayBuffer>
  chunkSize: number
  salt: Uint8Array
  keyId: Uint8Array
}

/** Where the chunks lie for a container of a given total size. */
export interface ContainerLayout {
  /** Plaintext size in bytes. */
  size: number
  chunkCount: number
  chunkSize: number
}

export function decryptFailed(message: string, cause?: unknown): SpkgError {
  return new SpkgError('pkg/decrypt-failed', message, cause === undefined ? {} : { cause })
}

/** First 8 bytes of SHA-256 of the master key. */
export async function keyIdOf(key: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', ownBytes(key))).slice(0, 8)
}

/** Checks the master key's type and length. */
export function checkKey(key: unknown): asserts key is Uint8Array {
  if (key === undefined || key === null)
    throw new SpkgError('pkg/key-required', 'the package is encrypted and no decryption key was supplied')
  if (!(key instanceof Uint8Array) || key.length !== KEY_SIZE)
    throw decryptFailed(`the decryption key must be ${KEY_SIZE} bytes`)
}

/** Builds the 36-byte header. */
export function buildHeader(chunkLog2: number, salt: Uint8Array, keyId: Uint8Array): Uint8Array<ArrayBuffer> {
  const h = new Uint8Array(HEADER_SIZE)
  h.set(MAGIC, 0)
  h[8] = VERSION
  h[9] = SUITE
  h[10] = chunkLog2
  h[11] = 0
  h.set(salt, 12)
  h.set(keyId, 28)
  return h
}

/** Parses and checks the header against `key`: magic, version, suite, chunk size, key id. */
export async function readHeader(bytes: Uint8Array, key: Uint8Array): Promise<ContainerHeader> {
  if (bytes.length < HEADER_SIZE || !hasMagic(bytes))
    throw decryptFailed('not an encrypted spkg container (missing "SPKGENC" header)')
  const version = bytes[8]!
  const suite = bytes[9]!
  const log2 = bytes[10]!
  if (version !== VERSION)
    throw decryptFailed(`unsupported container version ${version} (this reader knows 1)`)
  if (suite !== SUITE) throw decryptFailed(`unsupported cipher suite ${suite} (this reader knows 1)`)
  if (log2 < MIN_CHUNK_LOG2 || log2 > MAX_CHUNK_LOG2 || bytes[11] !== 0)
    throw decryptFailed('invalid container header (chunk size or reserved byte)')
  const header: ContainerHeader = {
    bytes: new Uint8Array(bytes.subarray(0, HEADER_SIZE)),
    chunkSize: 2 ** log2,
    salt: bytes.slice(12, 28),
    keyId: bytes.slice(28, 36),
  }
  const expected = await keyIdOf(key)
  if (!bytesEqual(expected, header.keyId))
    throw decryptFailed(
      `wrong key: the package was encrypted with key id ${toHex(header.keyId)}, this key has id ${toHex(expected)}`,
    )
  return header
}

/** The AES-256-GCM payload key for this file. */
export async function derivePayloadKey(
  master: Uint8Array,
  salt: Uint8Array,
  usage: KeyUsage,
): Promise<CryptoKey> {
  const hkdf = await crypto.subtle.importKey('raw', ownBytes(master), 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: ownBytes(salt), info: INFO },
    hkdf,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  )
}

/** 12-byte nonce: 88-bit big-endian chunk index, then the last-chunk flag. */
export function nonce(index: number, last: boolean): Uint8Array<ArrayBuffer> {
  const n = new Uint8Array(12)
  let v = index
  for (let i = 10; i >= 0 && v > 0; i--) {
    n[i] = v % 256
    v = Math.floor(v / 256)
  }
  n[11] = last ? 1 : 0
  return n
}

/** Plaintext size and chunk count of a container of `totalSize` bytes, or a `pkg/decrypt-failed`. */
export function layoutOf(totalSize: number, chunkSize: number): ContainerLayout {
  const payload = totalSize - HEADER_SIZE
  const stride = chunkSize + TAG_SIZE
  if (payload < TAG_SIZE) throw decryptFailed('the encrypted package is truncated (no final chunk)')
  const chunkCount = Math.ceil(payload / stride)
  const lastStored = payload - (chunkCount - 1) * stride
  if (lastStored < TAG_SIZE || (lastStored === TAG_SIZE && chunkCount > 1))
    throw decryptFailed('the encrypted package is truncated or has trailing bytes')
  return { size: payload - chunkCount * TAG_SIZE, chunkCount, chunkSize }
}

/** Byte range `[start, end)` of chunk `index` inside the container. */
export function chunkRange(layout: ContainerLayout, index: number): [number, number] {
  const start = HEADER_SIZE + index * (layout.chunkSize + TAG_SIZE)
  const plain = index === layout.chunkCount - 1 ? layout.size - index * layout.chunkSize : layout.chunkSize
  return [start, start + plain + TAG_SIZE]
}

/** Decrypts one stored chunk (ciphertext ‖ tag). */
export async function openChunk(
  key: CryptoKey,
  header: ContainerHeader,
  layout: ContainerLayout,
  index: number,
  stored: Uint8Array,
): Promise<Uint8Array> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: nonce(index, index === layout.chunkCount - 1), additionalData: header.bytes },
      key,
      ownBytes(stored),
    )
    return new Uint8Array(plain)
  } catch (e) {
    throw decryptFailed(
      `chunk ${index + 1} of ${layout.chunkCount} failed authentication: the package was tampered with, truncated or reordered`,
      e,
    )
  }
}
