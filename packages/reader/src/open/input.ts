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

/** Longest name of a package file or URL a diagnostic quotes. */
const MAX_SHOWN = 200

function shorten(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text
}

/**
 * How diagnostics name a package file: its base name, never the folders above it (a diagnostic
 * may reach an end user, and a host path can carry a user name; the caller has the full path).
 */
export function fileLabel(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '')
  return shorten(trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || path)
}

/**
 * How diagnostics name a package URL: without credentials, query or fragment, which may hold
 * secrets (signed-URL tokens, passwords).
 */
export function urlLabel(url: string | URL): string {
  try {
    const u = new URL(String(url))
    u.username = ''
    u.password = ''
    u.search = ''
    u.hash = ''
    return shorten(u.href)
  } catch {
    return shorten(
      String(url)
        .replace(/[?#][\s\S]*$/, '')
        .replace(/^([^:/?#]+:\/\/)[^/]*@/, '$1'),
    )
  }
}

/** `pkg/fetch-failed` for a package file (a path or a File) that could not be read. */
export function fileReadFailed(name: string | undefined, why: string): Diagnostic {
  return createDiagnostic(
    'pkg/fetch-failed',
    `The package file${name ? ` "${name}"` : ''} could not be read (${why}).`,
  )
}

/** `pkg/fetch-failed` for a Blob or File whose bytes could not be read (a File changed on disk, say). */
export function blobReadFailed(blob: Blob, e: unknown): Diagnostic {
  const name = typeof File !== 'undefined' && blob instanceof File ? blob.name : ''
  return fileReadFailed(name ? fileLabel(name) : undefined, e instanceof Error ? e.message : String(e))
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
      return { diagnostics: [blobReadFailed(input, e)] }
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
