/**
 * The safe central-directory reader: the central directory is authoritative, every name is
 * checked first, limits are enforced before any data is read, and each local header must agree.
 */

import { archiveRange, archiveWindow } from './archive-window'
import { hasFatal, type ZipDiagnostic, type ZipFindings, zipDiagnostic } from './diagnostic'
import { findEndRecord } from './find-end-record'
import { checkLayout, checkLocalHeader, checkOffsets } from './local-headers'
import { type RawRecords, readRecords } from './read-records'
import { ZIP_LIMITS, type ZipDirectoryResult, type ZipEntry, type ZipLimits } from './types'

const bare = (name: string) => (name.endsWith('/') ? name.slice(0, -1) : name)

/** True when an entry before `i` has the same name (a directory's without its `/`). */
function namedBefore(entries: readonly ZipEntry[], i: number): boolean {
  const name = bare(entries[i]!.name)
  for (let j = 0; j < i; j++) if (bare(entries[j]!.name) === name) return true
  return false
}

function insideFile(r: ZipEntry, prefix: string): ZipDiagnostic {
  return zipDiagnostic('pkg/duplicate-entry', `"${r.name}" lies inside "${prefix}", which is also a file.`, {
    path: r.name,
  })
}

/** Entry `i` repeats a name seen before: exactly, or as `other` once folded. */
function duplicateName(entries: readonly ZipEntry[], i: number, other: string): ZipDiagnostic {
  const r = entries[i]!
  return namedBefore(entries, i)
    ? zipDiagnostic('pkg/duplicate-entry', `"${r.name}" appears twice in the archive.`, { path: r.name })
    : zipDiagnostic(
        'pkg/duplicate-entry',
        `"${r.name}" and "${other}" are the same name on case-insensitive or normalising file systems.`,
        { path: r.name },
      )
}

/**
 * With duplicates present: each entry lying inside a file (the shortest such folder), keys
 * compared against every file's key.
 */
function filesAsFolders(entries: readonly ZipEntry[], keys: readonly string[], out: ZipFindings): void {
  const files = new Set<string>()
  for (let i = 0; i < entries.length; i++) if (!entries[i]!.isDirectory) files.add(keys[i]!)
  for (let i = 0; i < entries.length; i++) {
    const key = keys[i]!
    for (let slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
      const prefix = key.slice(0, slash)
      if (files.has(prefix)) {
        out.push(insideFile(entries[i]!, prefix))
        break
      }
    }
  }
}

/**
 * Duplicate names: exactly equal, equal once folded (case, Unicode normalisation), or a file
 * whose name is also a parent folder of another entry. One map, no per-entry string slicing in
 * the usual archive (a quick look runs this cold, for up to 500 entries).
 */
function checkDuplicates({ entries, keys }: RawRecords, out: ZipFindings): void {
  // Folded key → the latest name with that key (directories keep their `/`).
  const folded = new Map<string, string>()
  let duplicates = false
  for (let i = 0; i < entries.length; i++) {
    const r = entries[i]!
    const key = keys[i]!
    const other = folded.get(key)
    if (other !== undefined) {
      duplicates = true
      out.push(duplicateName(entries, i, other))
    }
    folded.set(key, r.name)
  }
  if (duplicates) {
    filesAsFolders(entries, keys, out)
    return
  }
  // Without duplicates each key names one entry, a file unless its name ends with `/`; entries
  // of one folder share the answer, so it is worked out once per folder.
  let parent: string | undefined
  let conflict: string | undefined
  for (let i = 0; i < entries.length; i++) {
    const key = keys[i]!
    const last = key.lastIndexOf('/')
    if (last < 0) continue
    if (parent === undefined || last !== parent.length || !key.startsWith(parent)) {
      parent = key.slice(0, last)
      conflict = undefined
      for (let slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
        const prefix = slash === last ? parent : key.slice(0, slash)
        const name = folded.get(prefix)
        if (name !== undefined && !name.endsWith('/')) {
          conflict = prefix
          break
        }
      }
    }
    if (conflict !== undefined) out.push(insideFile(entries[i]!, conflict))
  }
}

/** The wording of {@link readZipDirectory}'s findings, compiled only when one is made. */
const report = {
  tooManyEntries: (count: number, max: number) =>
    zipDiagnostic(
      'pkg/too-many-entries',
      `The archive has ${count} entries; at most ${max} are allowed (directories included).`,
    ),
  tooLarge: (declared: number, max: number) =>
    zipDiagnostic(
      'pkg/too-large',
      `The entries declare ${declared} uncompressed bytes; at most ${max} are allowed.`,
    ),
  directoryWithData: (e: ZipEntry) =>
    zipDiagnostic(
      'pkg/directory-with-data',
      `Directory entry "${e.name}" carries ${e.size} bytes; ignored.`,
      {
        path: e.name,
      },
    ),
  ignored: (e: ZipEntry) =>
    zipDiagnostic('pkg/ignored-entry', `"${e.name}" is system clutter and was ignored.`, { path: e.name }),
  notAnEntry: (e: ZipEntry) =>
    zipDiagnostic('pkg/missing-file', `"${e.name}" is not an entry of this archive.`),
  /** Each directory that carries data and each piece of system clutter, in directory order. */
  flagged(entries: readonly ZipEntry[], out: ZipFindings) {
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!
      if (e.isDirectory && e.size > 0) out.push(report.directoryWithData(e))
      if (e.ignored) out.push(report.ignored(e))
    }
  },
}

/** How much of the archive {@link readZipDirectory} checks up front. */
export interface ReadDirectoryOptions {
  /**
   * `'all'` (default): every local header and the exact byte layout. `'lazy'` (the quick look):
   * the central directory and the layout checks it allows alone; entries come back with
   * `dataOffset` and `end` -1 and each must pass the result's `checkLocal` (which fills them in)
   * before its data is read.
   */
  localHeaders?: 'all' | 'lazy'
}

/**
 * Reads and checks the central directory of `bytes`. Never throws: every problem is a
 * diagnostic, and `directory` is absent when a fatal one refuses the archive.
 *
 * @example
 * const { directory, diagnostics } = readZipDirectory(bytes)
 * directory?.entries.map((e) => e.name) // ['manifest.json', 'story/0001-inn.sty']
 */
export function readZipDirectory(
  bytes: Uint8Array,
  limits: ZipLimits = {},
  options: ReadDirectoryOptions = {},
): ZipDirectoryResult {
  const maxEntries = limits.maxEntries ?? ZIP_LIMITS.maxEntries
  const maxBytes = limits.maxUncompressedBytes ?? ZIP_LIMITS.maxUncompressedBytes
  const diagnostics: ZipDiagnostic[] = []
  // A windowed archive (see archive-window.ts) holds its tail from `base`.
  const window = archiveWindow(bytes)
  const end = findEndRecord(bytes, diagnostics, window?.base)
  if (!end) return { diagnostics }
  if (end.totalEntries > maxEntries) {
    diagnostics.push(report.tooManyEntries(end.totalEntries, maxEntries))
    return { diagnostics }
  }
  const records = readRecords(
    archiveRange(bytes, end.cdOffset, end.cdOffset + end.cdSize),
    end.totalEntries,
    diagnostics,
  )
  if (!records || hasFatal(diagnostics)) return { diagnostics }
  checkDuplicates(records, diagnostics)
  if (hasFatal(diagnostics)) return { diagnostics }
  if (records.declared > maxBytes) {
    diagnostics.push(report.tooLarge(records.declared, maxBytes))
    return { diagnostics }
  }
  const quick = options.localHeaders === 'lazy'
  const entries = quick
    ? checkOffsets(records, end.cdOffset, diagnostics)
    : checkLayout(bytes, records, end.cdOffset, diagnostics)
  if (!entries || hasFatal(diagnostics)) return { diagnostics }
  if (records.flagged) report.flagged(entries, diagnostics)
  const directory = { entries, size: window?.size ?? bytes.length, zip64: end.zip64 }
  if (!quick) return { directory, diagnostics }
  const cdOffset = end.cdOffset
  const checkLocal = (entry: ZipEntry, out: ZipFindings): ZipEntry | undefined => {
    if (entry.dataOffset >= 0) return entry
    const i = entries.indexOf(entry as (typeof entries)[number])
    if (i < 0) {
      out.push(report.notAnEntry(entry))
      return undefined
    }
    return checkLocalHeader(bytes, records, i, cdOffset, out)
  }
  return { directory, diagnostics, checkLocal }
}
