/**
 * signify's two-line text files (OpenBSD `signify`, also read by minisign): an
 * `untrusted comment: …` line, then base64 of a binary record starting with the algorithm `Ed`
 * and an 8-byte key number that ties signatures to keys.
 *
 * - public key: `Ed` ‖ keynum(8) ‖ public key(32)
 * - signature: `Ed` ‖ keynum(8) ‖ signature(64)
 * - secret key: `Ed` ‖ kdf `BK` ‖ rounds(u32 BE) ‖ salt(16) ‖ checksum(8) ‖ keynum(8) ‖ seed(32) ‖ public key(32),
 *   where checksum = SHA-512(seed ‖ public key)[0..8] and rounds = 0 means no passphrase.
 *
 * Secret keys are read and written by `signify-secret-key.ts`, which derives public keys: only
 * `@spkg/integrity/sign` imports it, so a reader bundles no Ed25519 signing.
 */
import { SpkgError } from '@spkg/manifest'
import { asText, concatBytes, fromBase64, toBase64 } from './internal/bytes'

const COMMENT = 'untrusted comment: '
export const PKALG = [0x45, 0x64] // "Ed"

/** A signify public key: `keyId` is signify's random 8-byte key number. */
export interface SignifyPublicKey {
  comment: string
  keyId: Uint8Array
  publicKey: Uint8Array
}

/** A signify signature. */
export interface SignifySignature {
  comment: string
  keyId: Uint8Array
  signature: Uint8Array
}

/** A signify secret key without passphrase: `seed` is the RFC 8032 private key. */
export interface SignifySecretKey {
  comment: string
  keyId: Uint8Array
  seed: Uint8Array
  publicKey: Uint8Array
}

export function malformed(
  code: 'pkg/key-malformed' | 'pkg/signature-malformed',
  what: string,
  why: string,
): never {
  throw new SpkgError(code, `not a signify ${what}: ${why}`)
}

export function readRecord(
  input: string | Uint8Array,
  length: number,
  what: string,
  code: 'pkg/key-malformed' | 'pkg/signature-malformed',
): { comment: string; record: Uint8Array } {
  const text = asText(input)
  if (text === undefined) malformed(code, what, 'the file is not UTF-8 text')
  const first = text.indexOf('\n')
  if (first < 0 || !text.startsWith(COMMENT) || first <= COMMENT.length)
    malformed(code, what, `the first line must start with '${COMMENT}' and carry a comment`)
  const second = text.indexOf('\n', first + 1)
  if (second < 0) malformed(code, what, 'missing line feed after the base64 line')
  if (second !== text.length - 1) malformed(code, what, 'unexpected content after the base64 line')
  const record = fromBase64(text.slice(first + 1, second))
  if (record?.length !== length) malformed(code, what, 'the second line is not base64 of the right length')
  if (record[0] !== PKALG[0] || record[1] !== PKALG[1])
    malformed(code, what, 'unsupported algorithm (only Ed25519 "Ed")')
  const comment = text.slice(COMMENT.length, first)
  if (comment.includes('\r')) malformed(code, what, 'carriage return in the comment line')
  return { comment, record }
}

/** The longest comment signify reads back (a 1024-byte buffer with its terminating NUL). */
const MAX_COMMENT_BYTES = 1023

export function commentLine(comment: string): string {
  if (comment.length === 0 || /[\r\n]/.test(comment))
    throw new TypeError('a signify comment is one non-empty line')
  if (new TextEncoder().encode(comment).length > MAX_COMMENT_BYTES)
    throw new TypeError(
      `a signify comment is at most ${MAX_COMMENT_BYTES} bytes (signify cannot read a longer one)`,
    )
  return `${COMMENT}${comment}\n`
}

/**
 * Parses a signify public key file (`.pub`).
 * @throws SpkgError `pkg/key-malformed` when the text is not a signify Ed25519 public key
 * @example
 * const { keyId, publicKey } = parseSignifyPublicKey(await readFile('author.pub', 'utf8'))
 */
export function parseSignifyPublicKey(input: string | Uint8Array): SignifyPublicKey {
  const { comment, record } = readRecord(input, 42, 'public key', 'pkg/key-malformed')
  return { comment, keyId: record.slice(2, 10), publicKey: record.slice(10) }
}

/**
 * Parses a signify signature file (`.sig`, detached form).
 * @throws SpkgError `pkg/signature-malformed` when the text is not a signify Ed25519 signature
 * @example
 * const { keyId, signature } = parseSignifySignature(sigText)
 */
export function parseSignifySignature(input: string | Uint8Array): SignifySignature {
  const { comment, record } = readRecord(input, 74, 'signature', 'pkg/signature-malformed')
  return { comment, keyId: record.slice(2, 10), signature: record.slice(10) }
}

/**
 * Writes a signify public key file.
 * @throws TypeError on wrong lengths or a multi-line comment
 * @example
 * formatSignifyPublicKey({ comment: 'signify public key', keyId, publicKey })
 */
export function formatSignifyPublicKey(key: SignifyPublicKey): string {
  if (key.keyId.length !== 8 || key.publicKey.length !== 32) throw new TypeError('wrong key lengths')
  return `${commentLine(key.comment)}${toBase64(concatBytes(new Uint8Array(PKALG), key.keyId, key.publicKey))}\n`
}

/**
 * Writes a signify signature file.
 * @throws TypeError on wrong lengths or a multi-line comment
 * @example
 * formatSignifySignature({ comment: 'verify with author.pub', keyId, signature })
 */
export function formatSignifySignature(sig: SignifySignature): string {
  if (sig.keyId.length !== 8 || sig.signature.length !== 64) throw new TypeError('wrong signature lengths')
  return `${commentLine(sig.comment)}${toBase64(concatBytes(new Uint8Array(PKALG), sig.keyId, sig.signature))}\n`
}
