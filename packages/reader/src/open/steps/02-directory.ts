/**
 * Step 2, the ZIP structure: the central directory read by our own reader (`zip/`), every name
 * checked and the limits enforced before any data is read. An open checks every local header
 * here; a quick look checks only those it reads, when it reads them.
 */
import { type Diagnostic, hasFatal } from '@spkg/manifest'
import { readZipDirectory, type ZipDirectory } from '@spkg/zip'
import type { Opening } from '../opening'

/** The checked directory, or undefined after a fatal finding (pushed to `diagnostics`). */
export function readDirectory(
  bytes: Uint8Array,
  limits: { maxEntries: number; maxUncompressedBytes: number },
  quick: boolean,
  diagnostics: Diagnostic[],
): { directory: ZipDirectory; confirm: Opening['confirm'] } | undefined {
  const dir = readZipDirectory(bytes, limits, { localHeaders: quick ? 'lazy' : 'all' })
  diagnostics.push(...dir.diagnostics)
  if (!dir.directory || hasFatal(diagnostics)) return undefined
  // A lazily checked entry is completed in place (the same object the directory holds).
  return { directory: dir.directory, confirm: dir.checkLocal }
}
