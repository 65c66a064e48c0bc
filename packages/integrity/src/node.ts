/**
 * `@spkg/integrity/node`: the same SHA-256 helpers as the main entry, backed by `node:crypto`,
 * which hashes many small entries faster than WebCrypto on Node (no promise and thread-pool hop
 * per call; see bench/integrity). Results are identical.
 */
import { createHash } from 'node:crypto'

/**
 * SHA-256 digest of `bytes` (32 bytes), computed with `node:crypto`.
 *
 * @example
 * import { sha256 } from '@spkg/integrity/node'
 * const digest = await sha256(bytes)
 */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return sha256Sync(bytes)
}

/**
 * SHA-256 digest of `bytes` as 64 lowercase hex digits, computed with `node:crypto`.
 *
 * @example
 * import { sha256Hex } from '@spkg/integrity/node'
 * await sha256Hex(new TextEncoder().encode('abc')) // 'ba7816bf…'
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return sha256HexSync(bytes)
}

/**
 * Synchronous SHA-256 digest (Node only), for hot loops that hash entry after entry.
 *
 * @example
 * const digest = sha256Sync(bytes) // Uint8Array(32)
 */
export function sha256Sync(bytes: Uint8Array): Uint8Array {
  const d = createHash('sha256').update(bytes).digest()
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength)
}

/**
 * Synchronous SHA-256 as lowercase hex (Node only).
 *
 * @example
 * sha256HexSync(new TextEncoder().encode('abc')) // 'ba7816bf…'
 */
export function sha256HexSync(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
