/**
 * `--decryption-key`: the key of an encrypted package (`.spkg.enc`), read from a file (so it does
 * not show in the process list) or given literally, as 64 hex digits or base64 of 32 bytes.
 */

import { parseEncryptionKey } from '@spkg/integrity/encrypt'
import type { Diagnostic } from '@spkg/manifest'
import { type CliIO, IOFailure, UsageError } from '../cli-types'
import { readInput } from '../io'

/** Reads `--decryption-key`: a key file, else the value itself as a key; anything else is a usage error. */
export async function readDecryptionKey(io: CliIO, value: unknown): Promise<Uint8Array | undefined> {
  if (typeof value !== 'string' || value === '') return undefined
  let text: string
  try {
    text = new TextDecoder().decode(await readInput(io, value)).trim()
  } catch (e) {
    if (!(e instanceof IOFailure)) throw e
    try {
      return parseEncryptionKey(value)
    } catch {
      throw e
    }
  }
  try {
    return parseEncryptionKey(text)
  } catch {
    throw new UsageError(
      `--decryption-key '${value}' does not hold a key (64 hex digits or base64 of 32 bytes)`,
    )
  }
}

/**
 * The reader's diagnostics with its library advice said as the command's options:
 * `decryptionKey` as --decryption-key, `hostNamespaces` as --host-namespace.
 */
export function withCliAdvice(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.code === 'pkg/key-required')
      return {
        ...d,
        message: 'The package is encrypted (.spkg.enc); pass its key with --decryption-key <key-file>.',
      }
    if (d.code === 'pkg/unsupported-requires' && !d.message.includes('--host-namespace')) {
      const ns = /"([^"]*)"/.exec(d.message)?.[1]
      return {
        ...d,
        message: `${d.message} Pass --host-namespace ${ns && /^[\w.:-]+$/.test(ns) ? ns : '<ns>'} to register it, as an embedder whose host provides it would.`,
      }
    }
    return d
  })
}
