/**
 * The safe central-directory reader: the central directory is authoritative, every name is
 * checked first, limits are enforced before any data is read, and each local header must agree.
 */
import { createDiagnostic, type Diagnostic, hasFatal, LIMITS } from '@spkg/manifest'
import { findEndRecord } from './find-end-record'
import { checkLayout, checkLocalHeader, checkOffsets } from './local-headers'
import { type RawRecord, readRecords } from './read-records'
import type { ZipDirectoryResult, ZipEntry, ZipLimits } from './types'

function checkDuplicates(records: RawRecord[], out: Diagnostic[]): void {
  const exact = new Map<string, string>()
  const folded = new Map<string, string>()
  const files = new Set<string>()
  for (const r of records) {
    const name = r.isDirectory ? r.name.slice(0, -1) : r.name
    const key = r.key
    if (exact.has(name))
      out.push(
        createDiagnostic('pkg/duplicate-entry', `"${r.name}" appears twice in the archive.`, {
          path: r.name,
        }),
      )
    else if (folded.has(key))
      out.push(
        createDiagnostic(
          'pkg/duplicate-entry',
          `"${r.name}" and "${folded.get(key)}" are the same name on case-insensitive or normalising file systems.`,
          { path: r.name },
        ),
      )
    exact.set(name, r.name)
    folded.set(key, r.name)
    if (!r.isDirectory) files.add(key)
  }
  // A file whose name is also a parent folder of another entry.
  for (const r of records) {
    const key = r.key
    for (let slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
      const prefix = key.slice(0, slash)
      if (files.has(prefix)) {
        out.push(
          createDiagnostic(
            'pkg/duplicate-entry',
            `"${r.name}" lies inside "${prefix}", which is also a file.`,
            {
              path: r.name,
            },
          ),
        )
        break
      }
    }
  }
}

/** How much of the archive {@link readZipDirectory} checks up front. */
export interface ReadDirectoryOptions {
  /**
   * `'all'` (default): every local header and the exact byte layout. `'lazy'` (the quick look):
   * the central directory and the layout checks it allows alone; entries come back with
   * `dataOffset` -1 and each must pass the result's `checkLocal` before its data is read.
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
  const maxEntries = limits.maxEntries ?? LIMITS.maxEntries
  const maxBytes = limits.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes
  const diagnostics: Diagnostic[] = []
  const end = findEndRecord(bytes, diagnostics)
  if (!end) return { diagnostics }
  if (end.totalEntries > maxEntries) {
    diagnostics.push(
      createDiagnostic(
        'pkg/too-many-entries',
        `The archive has ${end.totalEntries} entries; at most ${maxEntries} are allowed (directories included).`,
      ),
    )
    return { diagnostics }
  }
  const records = readRecords(
    bytes.subarray(end.cdOffset, end.cdOffset + end.cdSize),
    end.totalEntries,
    diagnostics,
  )
  if (!records || hasFatal(diagnostics)) return { diagnostics }
  checkDuplicates(records, diagnostics)
  if (hasFatal(diagnostics)) return { diagnostics }
  let declared = 0
  for (const r of records) declared += r.size
  if (declared > maxBytes) {
    diagnostics.push(
      createDiagnostic(
        'pkg/too-large',
        `The entries declare ${declared} uncompressed bytes; at most ${maxBytes} are allowed.`,
      ),
    )
    return { diagnostics }
  }
  const quick = options.localHeaders === 'lazy'
  const entries = quick
    ? checkOffsets(records, end.cdOffset, diagnostics)
    : checkLayout(bytes, records, end.cdOffset, diagnostics)
  if (!entries || hasFatal(diagnostics)) return { diagnostics }
  for (const e of entries) {
    if (e.isDirectory && e.size > 0)
      diagnostics.push(
        createDiagnostic(
          'pkg/directory-with-data',
          `Directory entry "${e.name}" carries ${e.size} bytes; ignored.`,
          {
            path: e.name,
          },
        ),
      )
    if (e.ignored)
      diagnostics.push(
        createDiagnostic('pkg/ignored-entry', `"${e.name}" is system clutter and was ignored.`, {
          path: e.name,
        }),
      )
  }
  const directory = { entries, size: bytes.length, zip64: end.zip64 }
  if (!quick) return { directory, diagnostics }
  const byName = new Map(records.map((r) => [r.name, r]))
  const cdOffset = end.cdOffset
  const checkLocal = (entry: ZipEntry, out: Diagnostic[]): ZipEntry | undefined => {
    if (entry.dataOffset >= 0) return entry
    const r = byName.get(entry.name)
    if (!r) {
      out.push(createDiagnostic('pkg/missing-file', `"${entry.name}" is not an entry of this archive.`))
      return undefined
    }
    return checkLocalHeader(bytes, r, cdOffset, out)
  }
  return { directory, diagnostics, checkLocal }
}
