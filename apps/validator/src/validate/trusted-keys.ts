/**
 * `--trusted-key` values: a signify public-key file (what `spkg keygen` writes, what
 * `META-PKG/author.pub` holds) or an `ed25519:<base64>` fingerprint given literally.
 */
import { FINGERPRINT_PATTERN, parseSignifyPublicKey } from '@spkg/integrity'
import { type CliIO, UsageError } from '../cli-types'
import { readInput } from '../io'

/** Reads every `--trusted-key` value into what the reader accepts; a bad key file is a usage error. */
export async function readTrustedKeys(io: CliIO, values: unknown): Promise<string[]> {
  const list = Array.isArray(values) ? values : values === undefined ? [] : [values]
  const keys: string[] = []
  for (const v of list) {
    if (typeof v !== 'string') continue
    if (FINGERPRINT_PATTERN.test(v)) {
      keys.push(v)
      continue
    }
    if (v.toLowerCase().startsWith('ed25519:'))
      throw new UsageError(
        `--trusted-key '${v}' is not a key fingerprint: 'ed25519:' must be followed by 44 base64 characters (the fingerprint 'spkg keygen' prints), or give the .pub file`,
      )
    const text = new TextDecoder().decode(await readInput(io, v))
    try {
      parseSignifyPublicKey(text)
    } catch {
      throw new UsageError(`--trusted-key '${v}' is not a signify Ed25519 public key (a .pub file)`)
    }
    keys.push(text)
  }
  return keys
}

/** Reads every `--host-namespace` value. */
export function readNamespaces(values: unknown): string[] {
  const list = Array.isArray(values) ? values : values === undefined ? [] : [values]
  return list.filter((v): v is string => typeof v === 'string' && v !== '')
}
