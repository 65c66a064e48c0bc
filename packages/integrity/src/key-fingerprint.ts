/**
 * The signer fingerprint written to `manifest.signature`: `ed25519:<base64 of SHA-256(raw public key)>`.
 * The manifest is covered by the signed checksum file, so it names the key instead of holding
 * the signature bytes.
 */
import { SpkgError } from '@spkg/manifest'
import { toBase64 } from './internal/bytes'
import { sha256 } from './sha256'
import { parseSignifyPublicKey } from './signify-format'

/** `ed25519:` followed by 44 characters of padded base64. */
export const FINGERPRINT_PATTERN = /^ed25519:[A-Za-z0-9+/]{43}=$/

/**
 * Fingerprint of an Ed25519 public key, given raw (32 bytes) or as a signify `.pub` file.
 *
 * @throws SpkgError `pkg/key-malformed` when `publicKey` is neither 32 bytes nor a signify public key
 * @example
 * await keyFingerprint(publicKeyText) // 'ed25519:Xr2n…='
 */
export async function keyFingerprint(publicKey: Uint8Array | string): Promise<string> {
  let raw: Uint8Array
  if (typeof publicKey === 'string') raw = parseSignifyPublicKey(publicKey).publicKey
  else if (publicKey.length === 32) raw = publicKey
  else if (publicKey.length > 32) raw = parseSignifyPublicKey(publicKey).publicKey
  else throw new SpkgError('pkg/key-malformed', 'an Ed25519 public key is 32 bytes')
  return `ed25519:${toBase64(await sha256(raw))}`
}
