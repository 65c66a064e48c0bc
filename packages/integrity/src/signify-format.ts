/**
 * signify's two-line text files (OpenBSD `signify`, also read by minisign): an
 * `untrusted comment: …` line, then base64 of a binary record starting with the algorithm `Ed`
 * and an 8-byte key number that ties signatures to keys.
 *
 * - public key: `Ed` ‖ keynum(8) ‖ public key(32)
 * - signature: `Ed` ‖ keynum(8) ‖ signature(64)
 * - secret key: `Ed` ‖ kdf `BK` ‖ rounds(u32 BE) ‖ salt(16) ‖ checksum(8) ‖ keynum(8) ‖ seed(32) ‖ public key(32),
 *   where checksum = SHA-512(seed ‖ public key)[0..8] and rounds = 0 means no passphrase.
 */
import { SpkgError } from '@spkg/manifest'
import { asText, bytesEqual, concatBytes, fromBase64, ownBytes, toBase64 } from './internal/bytes'
import { ed25519PublicKey } from './internal/ed25519'

const COMMENT = 'untrusted comment: '
const PKALG = [0x45, 0x64] // "Ed"
const KDFALG = [0x42, 0x4b] // "BK"

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

function malformed(code: 'pkg/key-malformed' | 'pkg/signature-malformed', what: string, why: string): never {
  throw new SpkgError(code, `not a signify ${what}: ${why}`)
}

function readRecord(
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

function commentLine(comment: string): string {
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
 * Parses a signify secret key file (`.sec`) made without a passphrase (`signify -G -n` or
 * `spkg keygen`), checking its checksum and that the stored public key matches the seed.
 * @throws SpkgError `pkg/key-malformed` when the text is not such a key, including
 *   passphrase-protected keys (bcrypt_pbkdf is not implemented)
 * @example
 * const key = await parseSignifySecretKey(await readFile('me.sec', 'utf8'))
 */
export async function parseSignifySecretKey(input: string | Uint8Array): Promise<SignifySecretKey> {
  const { comment, record } = readRecord(input, 104, 'secret key', 'pkg/key-malformed')
  if (record[2] !== KDFALG[0] || record[3] !== KDFALG[1])
    malformed('pkg/key-malformed', 'secret key', 'unsupported key derivation (only "BK")')
  const rounds = new DataView(record.buffer, record.byteOffset + 4, 4).getUint32(0)
  if (rounds !== 0)
    malformed(
      'pkg/key-malformed',
      'secret key without passphrase',
      'passphrase-protected keys are not supported; create one with `spkg keygen` or `signify -G -n`',
    )
  const checksum = record.slice(24, 32)
  const keyId = record.slice(32, 40)
  const seed = record.slice(40, 72)
  const publicKey = record.slice(72, 104)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', ownBytes(record.slice(40, 104))))
  if (!bytesEqual(digest.slice(0, 8), checksum))
    malformed('pkg/key-malformed', 'secret key', 'the checksum does not match (corrupted key)')
  if (!bytesEqual(await ed25519PublicKey(seed), publicKey))
    malformed('pkg/key-malformed', 'secret key', 'the public half does not match the secret seed')
  return { comment, keyId, seed, publicKey }
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

/**
 * Writes a signify secret key file without passphrase (kdf rounds 0, random salt).
 * @throws TypeError on wrong lengths or a multi-line comment
 * @example
 * await formatSignifySecretKey({ comment: 'signify secret key', keyId, seed, publicKey })
 */
export async function formatSignifySecretKey(key: SignifySecretKey): Promise<string> {
  if (key.keyId.length !== 8 || key.seed.length !== 32 || key.publicKey.length !== 32)
    throw new TypeError('wrong key lengths')
  const secret = concatBytes(key.seed, key.publicKey)
  const checksum = new Uint8Array(await crypto.subtle.digest('SHA-512', secret)).slice(0, 8)
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const record = concatBytes(
    new Uint8Array([...PKALG, ...KDFALG, 0, 0, 0, 0]),
    salt,
    checksum,
    key.keyId,
    secret,
  )
  return `${commentLine(key.comment)}${toBase64(record)}\n`
}
