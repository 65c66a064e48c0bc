/**
 * SHA-256 through WebCrypto (`crypto.subtle`), available in browsers, workers, Deno, Bun and Node.
 * The Node entry `@spkg/integrity/node` exports the same names backed by `node:crypto`.
 */
import { ownBytes, toHex } from './internal/bytes'

/**
 * SHA-256 digest of `bytes` (32 bytes).
 *
 * @example
 * const digest = await sha256(new TextEncoder().encode('abc')) // Uint8Array(32)
 */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', ownBytes(bytes)))
}

/**
 * SHA-256 digest of `bytes` as 64 lowercase hex digits (the form of `manifest.integrity`).
 *
 * @example
 * await sha256Hex(new TextEncoder().encode('abc'))
 * // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(await sha256(bytes))
}
