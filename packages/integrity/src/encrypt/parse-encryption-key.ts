/**
 * Reading an out-of-band key from text (a key file or an environment variable).
 */
import { SpkgError } from '@spkg/manifest'
import { asText, fromBase64, fromHex } from '../internal/bytes'
import { KEY_SIZE } from './container'

/**
 * Parses a 32-byte key written as 64 hex digits or padded base64 (surrounding whitespace ignored).
 *
 * @throws SpkgError `pkg/decrypt-failed` when the text is not a 32-byte key in either form
 * @example
 * const key = parseEncryptionKey(await readFile('story.key', 'utf8'))
 */
export function parseEncryptionKey(text: string | Uint8Array): Uint8Array {
  const s = asText(text)?.trim() ?? ''
  const bytes = s.length === KEY_SIZE * 2 ? fromHex(s) : fromBase64(s)
  if (bytes?.length !== KEY_SIZE)
    throw new SpkgError(
      'pkg/decrypt-failed',
      `a decryption key is ${KEY_SIZE} bytes written as 64 hex digits or base64`,
    )
  return bytes
}
