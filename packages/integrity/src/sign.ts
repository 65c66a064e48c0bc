/**
 * `@spkg/integrity/sign`: key generation and signing for publishers (the `spkg keygen` and
 * `spkg sign` commands), plus the signify file formats. Readers only need the main entry.
 */

import { toHex } from './internal/bytes'
import { ed25519PublicKey, ed25519Sign } from './internal/ed25519-sign'
import { PUBLIC_KEY_PATH } from './internal/paths'
import { keyFingerprint } from './key-fingerprint'
import { formatSignifyPublicKey, formatSignifySignature } from './signify-format'
import { formatSignifySecretKey, parseSignifySecretKey } from './signify-secret-key'

export { FINGERPRINT_PATTERN, keyFingerprint } from './key-fingerprint'
export type { SignifyPublicKey, SignifySecretKey, SignifySignature } from './signify-format'
export {
  formatSignifyPublicKey,
  formatSignifySignature,
  parseSignifyPublicKey,
  parseSignifySignature,
} from './signify-format'
export { formatSignifySecretKey, parseSignifySecretKey } from './signify-secret-key'

/** A new signing key pair in signify format and raw form. */
export interface SigningKeys {
  /** The `.pub` file: ship it as `META-PKG/author.pub` and register it with the platform. */
  publicKeyText: string
  /** The `.sec` file (no passphrase): keep it private, file mode 0600. */
  secretKeyText: string
  /** Raw 32-byte Ed25519 public key. */
  publicKey: Uint8Array
  /** Raw 32-byte Ed25519 secret seed (RFC 8032 private key). */
  seed: Uint8Array
  /** signify key number as 16 hex digits. */
  keyId: string
  /** `ed25519:<base64 SHA-256 of the public key>`, the value of `manifest.signature`. */
  fingerprint: string
}

/**
 * Generates an Ed25519 key pair with a random signify key number. The secret key file has no
 * passphrase (protect it with file permissions); `signify -S` accepts it.
 *
 * @param options.comment the comment after `untrusted comment: ` (default: signify's own wording)
 * @example
 * const keys = await generateSigningKeys()
 * await writeFile('me.pub', keys.publicKeyText)
 */
export async function generateSigningKeys(options: { comment?: string } = {}): Promise<SigningKeys> {
  const seed = crypto.getRandomValues(new Uint8Array(32))
  const keyId = crypto.getRandomValues(new Uint8Array(8))
  const publicKey = await ed25519PublicKey(seed)
  const base = options.comment
  return {
    publicKeyText: formatSignifyPublicKey({ comment: base ?? 'signify public key', keyId, publicKey }),
    secretKeyText: await formatSignifySecretKey({
      comment: base ?? 'signify secret key',
      keyId,
      seed,
      publicKey,
    }),
    publicKey,
    seed,
    keyId: toHex(keyId),
    fingerprint: await keyFingerprint(publicKey),
  }
}

/**
 * Signs the exact bytes of `META-PKG/checksum.sha256` and returns the `META-PKG/signature.sig` text
 * (signify detached signature, so `signify -V -p author.pub -x signature.sig -m checksum.sha256` accepts it).
 *
 * @param options.publicKeyName named in the comment line (`verify with <name>`)
 * @throws SpkgError `pkg/key-malformed` when `secretKeyText` is not a passphrase-less signify secret key
 * @example
 * const sigText = await signChecksum(createChecksumFile(hashes), secretKeyText)
 */
export async function signChecksum(
  checksumBytes: Uint8Array,
  secretKeyText: string | Uint8Array,
  options: { publicKeyName?: string } = {},
): Promise<string> {
  const key = await parseSignifySecretKey(secretKeyText)
  const signature = await ed25519Sign(key.seed, checksumBytes)
  const name = options.publicKeyName ?? PUBLIC_KEY_PATH.slice('META-PKG/'.length)
  return formatSignifySignature({ comment: `verify with ${name}`, keyId: key.keyId, signature })
}

/**
 * The public key file matching a secret key file (what `signify` would have written beside it).
 *
 * @throws SpkgError `pkg/key-malformed` when `secretKeyText` is not a passphrase-less signify secret key
 * @example
 * const pubText = await publicKeyFromSecret(secretKeyText)
 */
export async function publicKeyFromSecret(secretKeyText: string | Uint8Array): Promise<string> {
  const key = await parseSignifySecretKey(secretKeyText)
  return formatSignifyPublicKey({ comment: 'signify public key', keyId: key.keyId, publicKey: key.publicKey })
}
