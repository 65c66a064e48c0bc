/**
 * A signify secret key left in a story folder must never reach a package: `spkg pack` and
 * `spkg validate` refuse any file whose content is one (`pkg/secret-key`, fatal).
 *
 * The record is recognised without parsing the key (which `@spkg/integrity` only does for
 * passphrase-less keys, and checks the seed): an `untrusted comment:` line, then base64 of the
 * 104-byte secret-key record that starts with the algorithm `Ed` and the KDF `BK`. A public key
 * (`Ed` and a key number, 42 bytes) or a signature (74 bytes) is not one.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import type { SpkgPackage } from '@spkg/reader/node'

/** Longer files are not looked at: signify's comment line is at most 1 KiB. */
const MAX_KEY_FILE_BYTES = 4096
const RECORD_BYTES = 104
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
const COMMENT = 'untrusted comment:'

/**
 * True when `bytes` is a signify secret key file (with or without passphrase; CRLF line ends and
 * trailing blank lines are tolerated).
 *
 * @example
 * isSignifySecretKey(readFileSync('author.sec')) // true
 * isSignifySecretKey(readFileSync('author.pub')) // false
 */
export function isSignifySecretKey(bytes: Uint8Array): boolean {
  if (bytes.length > MAX_KEY_FILE_BYTES || bytes.length < COMMENT.length) return false
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  if (!text.startsWith(COMMENT)) return false
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''))
  while (lines.length > 2 && lines[lines.length - 1]!.trim() === '') lines.pop()
  if (lines.length !== 2) return false
  const b64 = lines[1]!.trim()
  if (!BASE64.test(b64)) return false
  const record = Buffer.from(b64, 'base64')
  return (
    record.length === RECORD_BYTES &&
    record[0] === 0x45 && // E
    record[1] === 0x64 && // d
    record[2] === 0x42 && // B
    record[3] === 0x4b // K
  )
}

/**
 * True when `bytes` is an encryption key file as `spkg keygen --encryption` writes it (64 hex
 * digits) or as `--decryption-key` reads it (base64 of 32 bytes), with surrounding whitespace.
 *
 * @example
 * isEncryptionKeyFile(readFileSync('inn.key')) // true
 */
export function isEncryptionKeyFile(bytes: Uint8Array): boolean {
  if (bytes.length > 128) return false
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').trim()
  return /^[0-9a-fA-F]{64}$/.test(text) || /^[A-Za-z0-9+/]{43}=$/.test(text)
}

/** A `pkg/secret-key` finding for every entry of `pkg` that is a signify secret key or an encryption key. */
export async function secretKeyFindings(pkg: SpkgPackage): Promise<Diagnostic[]> {
  const found: Diagnostic[] = []
  for (const e of pkg.entries) {
    if (e.size > MAX_KEY_FILE_BYTES || e.size < 44) continue
    let bytes: Uint8Array
    try {
      bytes = await pkg.readBytes(e.path)
    } catch {
      continue // the reader reported it
    }
    if (isEncryptionKeyFile(bytes))
      found.push(
        createDiagnostic(
          'pkg/secret-key',
          `'${e.path}' is an encryption key (what 'spkg keygen --encryption' writes): anyone who has it can read every package encrypted with it. Remove it and keep keys outside the story folder; if it was ever shared, make a new key`,
          { path: e.path },
        ),
      )
    else if (isSignifySecretKey(bytes))
      found.push(
        createDiagnostic(
          'pkg/secret-key',
          `'${e.path}' is a signify secret key: secret keys must never be published (anyone who has it can sign packages as you). Remove it and keep keys outside the story folder; if it was ever shared, make a new key with 'spkg keygen'`,
          { path: e.path },
        ),
      )
  }
  return found
}
