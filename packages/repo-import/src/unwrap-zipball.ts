/**
 * Removes the wrapper folder a repository host puts around every entry of a zipball
 * (`owner-repo-<sha>/`) and leaves out the repository files a package does not carry.
 *
 * The download is read by `@spkg/zip`'s `readZipLayout` (end record, central directory, every
 * local header, the byte layout, overlapping entries), with room for the wrapper folder and the
 * repository files on top of a package's entries and no limit on declared bytes (the reader
 * enforces the package limits on the result). What refuses the archive refuses the download; a
 * finding about one entry (an unsafe name, a symbolic link, encryption...) refuses it only when the
 * entry is kept, so that a repository whose README.md is a link, or whose left-out folder entries
 * differ only in case, still loads. Names are compared with one another by the reader, on the
 * result; the download's other findings are left to it too, as it finds them again there.
 *
 * Only names change: each kept entry's compressed bytes are copied verbatim into a new archive.
 * Its records keep the download's fields as the central directory holds them
 * (`readCentralRecords`: version made by and needed, flags but the data descriptor's, time,
 * attributes and the raw name bytes less the wrapper's), with the method, CRC-32 and sizes the
 * layout reader confirmed, so the reader opens the same entries under the same names
 * (a CP437 name stays CP437, with its warning) with the same findings. Nothing is inflated here,
 * so every check of `@spkg/reader` (entry count, real inflated sizes, bombs, CRC-32, traversal,
 * duplicates, layout, integrity) still runs on the result exactly as on a `.spkg`; since no two
 * entries share bytes, the result is never larger than the download.
 */
import { createDiagnostic, type Diagnostic, LIMITS } from '@spkg/manifest'
import {
  encodeZipRecords,
  findEndRecord,
  readCentralRecords,
  readZipLayout,
  type ZipCentralFields,
  type ZipDiagnostic,
  type ZipEntry,
  type ZipRecord,
} from '@spkg/zip'

/** Repository-root files a package does not want: left out, each listed as `repo/ignored-file`. */
export const IGNORED_FILES: readonly string[] = [
  '.gitignore',
  '.gitattributes',
  'README.md',
  'LICENSE',
  'LICENSE.md',
  'LICENSE.txt',
]
/** Repository-root folders left out with everything under them. */
export const IGNORED_FOLDERS: readonly string[] = ['.github/']

/** The outcome of {@link unwrapZipball}. */
export type UnwrapResult =
  | {
      ok: true
      /** The archive of the repository root. */
      bytes: Uint8Array
      /** The wrapper folder's name (without `/`). */
      wrapper: string
      /** The commit the host names in the archive comment (git writes the full id there), if any. */
      commentCommit?: string
      /** `repo/ignored-file` for each file left out. */
      diagnostics: Diagnostic[]
    }
  | { ok: false; diagnostics: Diagnostic[] }

const SLASH = 0x2f
const MAX32 = 0xffffffff

const fail = (code: 'pkg/corrupt-archive' | 'repo/unexpected-layout', message: string): UnwrapResult => ({
  ok: false,
  diagnostics: [createDiagnostic(code, message)],
})

/** One entry of the download: as the directory reader confirmed it and as its record was written. */
interface Entry {
  entry: ZipEntry
  record: ZipCentralFields
}

function startsWith(a: Uint8Array, prefix: Uint8Array): boolean {
  if (a.length < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (a[i] !== prefix[i]) return false
  return true
}

/** The name after its first `/` (the wrapper's), as the directory reader decoded it. */
const stripped = (name: string) => name.slice(name.indexOf('/') + 1)

/**
 * A path of the download relative to the repository root, as every diagnostic gives it: without
 * its first folder (the wrapper, the layout is not checked yet), a path outside any folder as is.
 */
const rootPath = (path: string) => stripped(path) || path

/** The fatal findings of the ZIP reader as the unwrap's diagnostics. */
const refusals = (findings: readonly ZipDiagnostic[]): Diagnostic[] =>
  findings
    .filter((d) => d.severity === 'fatal')
    .map((d) => createDiagnostic(d.code, d.message, d.path === undefined ? {} : { path: rootPath(d.path) }))

/** Strips the wrapper folder of a zipball: see the module comment. Never throws on bad input. */
export function unwrapZipball(zip: Uint8Array): UnwrapResult {
  const read = readZipLayout(zip, {
    // The wrapper folder entry and the ignored files come on top of the package's own entries.
    maxEntries: LIMITS.maxEntries * 2 + 64,
    maxUncompressedBytes: Number.POSITIVE_INFINITY,
  })
  if (!read.directory) return { ok: false, diagnostics: refusals(read.diagnostics) }
  // The directory reader found this end record and read these records already.
  const end = findEndRecord(zip, [])
  const raw = end && readCentralRecords(zip, end)
  const entries = read.directory.entries
  if (!raw || raw.records.length !== entries.length)
    return fail('pkg/corrupt-archive', 'the central directory of the repository download could not be read')
  const all: Entry[] = entries.map((entry, i) => ({ entry, record: raw.records[i]! }))
  const comment = new TextDecoder('utf-8').decode(raw.comment).trim()

  // Exactly one top folder, shared by every entry (compared as written, byte for byte).
  const first = all[0]
  const cut = first ? first.record.name.indexOf(SLASH) : -1
  if (!first || cut <= 0) return fail('repo/unexpected-layout', layoutMessage(first?.entry.name))
  const prefix = first.record.name.subarray(0, cut + 1)
  const wrapper = first.entry.name.slice(0, first.entry.name.indexOf('/'))
  for (const e of all)
    if (!startsWith(e.record.name, prefix))
      return fail('repo/unexpected-layout', layoutMessage(e.entry.name, `${wrapper}/`))

  const diagnostics: Diagnostic[] = []
  const kept: Entry[] = []
  for (const e of all) {
    const shown = stripped(e.entry.name)
    if (e.record.name.length === prefix.length) continue // the wrapper folder itself
    const isEmptyFolder = e.entry.isDirectory && e.entry.size === 0 && e.entry.compressedSize === 0
    if (isEmptyFolder) continue // folders carry nothing; the reader knows them from the file names
    if (IGNORED_FILES.includes(shown) || IGNORED_FOLDERS.some((f) => shown.startsWith(f))) {
      diagnostics.push(
        createDiagnostic(
          'repo/ignored-file',
          `${shown} is a repository file, not part of the package; left out`,
          { path: shown },
        ),
      )
      continue
    }
    kept.push(e)
  }
  // A finding about one entry (its name, a link, encryption...) refuses the download unless the
  // entry is left out; the reader makes the same findings, duplicates included, on the result.
  const keptNames = new Set(kept.map((e) => e.entry.name))
  const refused = refusals(read.diagnostics.filter((d) => d.path !== undefined && keptNames.has(d.path)))
  if (refused.length > 0) return { ok: false, diagnostics: refused }
  return {
    ok: true,
    bytes: rebuild(zip, kept, prefix.length),
    wrapper,
    ...(/^[0-9a-f]{40}$/.test(comment) ? { commentCommit: comment } : {}),
    diagnostics,
  }
}

function layoutMessage(name: string | undefined, prefix?: string): string {
  if (name === undefined) return 'the repository download is empty; a zipball has one top folder'
  if (prefix === undefined)
    return `the repository download has '${name}' outside any folder; a zipball has exactly one top folder`
  return `the repository download has '${name}' outside the top folder '${prefix}'; a zipball has exactly one top folder`
}

/**
 * A new archive of the kept entries, their names without the wrapper's first `cut` bytes and
 * their compressed bytes as they were.
 */
function rebuild(zip: Uint8Array, kept: readonly Entry[], cut: number): Uint8Array {
  const records: ZipRecord[] = kept.map(({ entry, record }) => {
    // The record's fields, the data descriptor flag cleared (sizes are now in the header), the
    // confirmed method, CRC-32 and sizes (ZIP64 ones in a ZIP64 field, as they were).
    const header = {
      versionNeeded: record.versionNeeded,
      flags: record.flags & ~0x0008,
      method: entry.method,
      time: record.time,
      date: record.date,
      crc: entry.crc32,
      compressedSize: entry.compressedSize,
      size: entry.size,
      name: record.name.subarray(cut),
      ...(entry.size >= MAX32 || entry.compressedSize >= MAX32 ? { zip64: true } : {}),
    }
    return {
      local: header,
      payload: zip.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize),
      central: {
        ...header,
        versionMadeBy: record.versionMadeBy,
        internalAttributes: record.internalAttributes ?? 0,
        externalAttributes: record.externalAttributes ?? 0,
      },
    }
  })
  return encodeZipRecords(records)
}
