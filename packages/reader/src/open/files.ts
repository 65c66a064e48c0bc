/**
 * The files a package exposes, as open and peek list them: no directories, no system clutter,
 * in central-directory order.
 */
import type { ZipDirectory, ZipEntry } from '@spkg/zip'
import type { PackageEntry } from './types'

/** The files a package exposes: no directories, no system clutter. */
export function visibleFiles(directory: ZipDirectory): ZipEntry[] {
  // Indexed loops, not array callbacks or for-of, on the per-entry paths of peek and open:
  // they run cold (interpreted) on every call, where each callback or iterator step costs.
  const { entries } = directory
  const out: ZipEntry[] = []
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    if (!e.isDirectory && !e.ignored) out.push(e)
  }
  return out
}

/** The public description of each visible file (no directories, no system clutter). */
export function packageEntries(entries: readonly ZipEntry[]): PackageEntry[] {
  // Sized for every entry up front (no regrowth), cut to the files at the end.
  const out = new Array<PackageEntry>(entries.length)
  let n = 0
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    if (e.isDirectory || e.ignored) continue
    out[n++] = {
      path: e.name,
      size: e.size,
      compressedSize: e.compressedSize,
      method: e.method === 0 ? 'stored' : 'deflate',
    }
  }
  out.length = n
  return out
}
