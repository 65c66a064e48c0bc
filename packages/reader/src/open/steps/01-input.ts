/**
 * Step 1, input: the bytes of the package (a Blob read whole), refused before reading when no
 * package within the limits could be that large; an encrypted container (`SPKGENC` magic) is
 * decrypted with `decryptionKey`, and the archive inside must fit the same bound.
 */
import { createDiagnostic, type Diagnostic, isSpkgError, type SpkgError } from '@spkg/manifest'
import { isEncrypted } from '../encrypted-magic'
import { archiveTooLarge, inputBytes, maxArchiveBytes, maxInputBytes } from '../input'
import type { PackageInput, PeekOptions } from '../types'

/**
 * The archive's bytes, or undefined with the reasons pushed (`pkg/too-large`, `pkg/not-zip`,
 * `pkg/fetch-failed`, `pkg/key-required`, `pkg/decrypt-failed`).
 *
 * @example
 * const bytes = await readInput(file, { limits: { maxUncompressedBytes: 1 << 20 } }, diagnostics)
 */
export async function readInput(
  input: PackageInput,
  options: PeekOptions,
  maxBytes: number,
  diagnostics: Diagnostic[],
): Promise<Uint8Array | undefined> {
  const read = await inputBytes(input, maxInputBytes(maxBytes))
  diagnostics.push(...read.diagnostics)
  if (!read.bytes) return undefined
  return archiveBytes(read.bytes, options, maxBytes, diagnostics)
}

/** {@link readInput} past reading: the size bounds and decryption of bytes already in memory. */
export async function archiveBytes(
  bytes: Uint8Array,
  options: PeekOptions,
  maxBytes: number,
  diagnostics: Diagnostic[],
): Promise<Uint8Array | undefined> {
  if (bytes.length > maxInputBytes(maxBytes)) {
    diagnostics.push(archiveTooLarge(bytes.length, maxInputBytes(maxBytes)))
    return undefined
  }
  let archive: Uint8Array | undefined = bytes
  if (isEncrypted(bytes)) {
    archive = await decrypt(bytes, options, diagnostics)
    if (!archive) return undefined
  }
  const maxFile = maxArchiveBytes(maxBytes)
  if (archive.length > maxFile) {
    diagnostics.push(archiveTooLarge(archive.length, maxFile))
    return undefined
  }
  return archive
}

/**
 * The archive inside an encrypted package (`.spkg.enc`), or undefined with `pkg/key-required` or
 * `pkg/decrypt-failed` pushed. Kept apart, so opening a plain package never compiles it.
 */
async function decrypt(
  bytes: Uint8Array,
  options: PeekOptions,
  diagnostics: Diagnostic[],
): Promise<Uint8Array | undefined> {
  try {
    const { decryptPackage } = await import('../encryption')
    return await decryptPackage(bytes, options.decryptionKey)
  } catch (e) {
    if (!isSpkgError(e)) throw e
    diagnostics.push(decryptionFailure(e))
    return undefined
  }
}

/**
 * The diagnostic of a decryption that failed (`pkg/key-required` or `pkg/decrypt-failed`), the
 * same for a local and a remote encrypted package.
 */
export function decryptionFailure(e: SpkgError): Diagnostic {
  return createDiagnostic(
    e.code === 'pkg/key-required' ? 'pkg/key-required' : 'pkg/decrypt-failed',
    e.code === 'pkg/key-required'
      ? 'The package is encrypted (.spkg.enc); pass its key as decryptionKey to open it.'
      : `The encrypted package cannot be decrypted: ${e.message}.`,
  )
}
