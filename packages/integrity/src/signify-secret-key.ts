/**
 * signify secret key files (`.sec`), for publishers: `Ed` ‖ kdf `BK` ‖ rounds(u32 BE) ‖ salt(16) ‖
 * checksum(8) ‖ keynum(8) ‖ seed(32) ‖ public key(32), where checksum = SHA-512(seed ‖ public
 * key)[0..8] and rounds = 0 means no passphrase. Apart from `signify-format.ts` because reading one
 * derives its public key (Ed25519 signing code): only `@spkg/integrity/sign` imports this module.
 */
import { bytesEqual, concatBytes, ownBytes, toBase64 } from './internal/bytes'
import { ed25519PublicKey } from './internal/ed25519-sign'
import { commentLine, malformed, PKALG, readRecord, type SignifySecretKey } from './signify-format'

const KDFALG = [0x42, 0x4b] // "BK"

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
