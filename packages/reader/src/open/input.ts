/**
 * Turns the accepted inputs into bytes, refusing what cannot be a package before reading it.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import type { PackageInput } from './types'

/**
 * Room above the uncompressed-size limit an archive file may take: headers, names, deflate's
 * stored-block overhead and the central directory. A larger file cannot be a valid package.
 */
export const ARCHIVE_OVERHEAD = 8 * 1024 * 1024

/** Largest archive file accepted for a given uncompressed-size limit. */
export function maxArchiveBytes(maxUncompressedBytes: number): number {
  return maxUncompressedBytes + ARCHIVE_OVERHEAD
}

/**
 * Largest input accepted before decryption: the archive bound plus the encrypted container's
 * overhead (a 16-byte tag per chunk, 2% at the smallest 1 KiB chunks, and its header).
 */
export function maxInputBytes(maxUncompressedBytes: number): number {
  return Math.ceil(maxArchiveBytes(maxUncompressedBytes) * 1.02) + 64
}

/** A diagnostic for an archive file too big to be read at all. */
export function archiveTooLarge(size: number, max: number): Diagnostic {
  return createDiagnostic(
    'pkg/too-large',
    `The archive file is ${size} bytes; no package within the limits can be larger than ${max} bytes.`,
  )
}

/** Reads the input into one Uint8Array, or returns the diagnostics that refuse it. */
export async function inputBytes(
  input: PackageInput,
  maxBytes: number,
): Promise<{ bytes?: Uint8Array; diagnostics: Diagnostic[] }> {
  if (input instanceof Uint8Array) return { bytes: input, diagnostics: [] }
  if (input instanceof ArrayBuffer) return { bytes: new Uint8Array(input), diagnostics: [] }
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    if (input.size > maxBytes) return { diagnostics: [archiveTooLarge(input.size, maxBytes)] }
    try {
      return { bytes: new Uint8Array(await input.arrayBuffer()), diagnostics: [] }
    } catch (e) {
      return {
        diagnostics: [
          createDiagnostic(
            'pkg/fetch-failed',
            `The package file could not be read: ${e instanceof Error ? e.message : String(e)}.`,
          ),
        ],
      }
    }
  }
  return {
    diagnostics: [
      createDiagnostic(
        'pkg/not-zip',
        'The input is not bytes, an ArrayBuffer or a Blob, so it is not a ZIP archive.',
      ),
    ],
  }
}
