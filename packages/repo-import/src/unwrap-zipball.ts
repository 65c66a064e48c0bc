/**
 * Removes the wrapper folder a repository host puts around every entry of a zipball
 * (`owner-repo-<sha>/`) and leaves out the repository files a package does not carry.
 *
 * Only names change: each kept entry's compressed bytes are copied verbatim into a new archive
 * whose local headers and central directory carry the stripped name and the central directory's
 * sizes, method and CRC-32. Nothing is inflated here, so every check of `@spkg/reader` (entry
 * count, real inflated sizes, bombs, CRC-32, traversal, duplicates, layout, integrity) still runs
 * on the result exactly as on a `.spkg`. Entries whose data ranges overlap are refused, so the
 * result is never larger than the download.
 */
import { createDiagnostic, type Diagnostic, LIMITS } from '@spkg/manifest'
import { encodeZipRecords, type ZipRecord } from '@spkg/zip'

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

const EOCD = 0x06054b50
const CDH = 0x02014b50
const LFH = 0x04034b50
const SLASH = 0x2f

const fail = (
  code:
    | 'pkg/not-zip'
    | 'pkg/corrupt-archive'
    | 'pkg/overlapping-entries'
    | 'pkg/too-many-entries'
    | 'repo/unexpected-layout',
  message: string,
): UnwrapResult => ({
  ok: false,
  diagnostics: [createDiagnostic(code, message)],
})

interface Entry {
  record: number
  name: Uint8Array
  dataStart: number
  dataEnd: number
}

function startsWith(a: Uint8Array, prefix: Uint8Array): boolean {
  if (a.length < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (a[i] !== prefix[i]) return false
  return true
}

const latin = (b: Uint8Array) => new TextDecoder('utf-8').decode(b)

/** Strips the wrapper folder of a zipball: see the module comment. Never throws on bad input. */
export function unwrapZipball(zip: Uint8Array): UnwrapResult {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const n = zip.length
  // The end record: the last signature whose comment runs exactly to the end of the file.
  let eocd = -1
  for (let p = n - 22; p >= Math.max(0, n - 22 - 0xffff); p--)
    if (v.getUint32(p, true) === EOCD && p + 22 + v.getUint16(p + 20, true) === n) {
      eocd = p
      break
    }
  if (eocd < 0) return fail('pkg/not-zip', 'the repository download is not a ZIP archive')
  const count = v.getUint16(eocd + 10, true)
  const cdSize = v.getUint32(eocd + 12, true)
  const cdOffset = v.getUint32(eocd + 16, true)
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff)
    return fail(
      'pkg/corrupt-archive',
      'the repository download is a ZIP64 archive, far larger than any package',
    )
  if (v.getUint16(eocd + 8, true) !== count || v.getUint16(eocd + 4, true) !== 0)
    return fail('pkg/corrupt-archive', 'the repository download is a split (multi-disk) archive')
  if (cdOffset + cdSize !== eocd)
    return fail(
      'pkg/corrupt-archive',
      'the central directory of the repository download does not end where it should',
    )
  // The wrapper folder entry and the ignored files come on top of the package's own entries.
  if (count > LIMITS.maxEntries * 2 + 64)
    return fail(
      'pkg/too-many-entries',
      `the repository download has ${count} entries, far more than a package's ${LIMITS.maxEntries}`,
    )
  const commentBytes = zip.subarray(eocd + 22, n)
  const comment = latin(commentBytes).trim()
  const entries: Entry[] = []
  let p = cdOffset
  for (let i = 0; i < count; i++) {
    if (p + 46 > eocd || v.getUint32(p, true) !== CDH)
      return fail(
        'pkg/corrupt-archive',
        `central directory record ${i + 1} of the repository download is damaged`,
      )
    const nameLen = v.getUint16(p + 28, true)
    const next = p + 46 + nameLen + v.getUint16(p + 30, true) + v.getUint16(p + 32, true)
    if (next > eocd) return fail('pkg/corrupt-archive', `central directory record ${i + 1} runs past its end`)
    const csize = v.getUint32(p + 20, true)
    const local = v.getUint32(p + 42, true)
    if (local + 30 > cdOffset || v.getUint32(local, true) !== LFH)
      return fail('pkg/corrupt-archive', `entry ${i + 1} of the repository download has no local header`)
    const dataStart = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true)
    const dataEnd = dataStart + csize
    if (dataEnd > cdOffset)
      return fail('pkg/corrupt-archive', `entry ${i + 1} of the repository download runs past its end`)
    entries.push({ record: p, name: zip.subarray(p + 46, p + 46 + nameLen), dataStart, dataEnd })
    p = next
  }
  if (p !== eocd)
    return fail('pkg/corrupt-archive', 'the central directory of the repository download has extra bytes')
  const byStart = [...entries].sort((a, b) => a.dataStart - b.dataStart)
  for (let i = 1; i < byStart.length; i++)
    if (byStart[i]!.dataStart < byStart[i - 1]!.dataEnd)
      return fail('pkg/overlapping-entries', 'two entries of the repository download share bytes')

  // Exactly one top folder, shared by every entry.
  const first = entries[0]?.name
  const cut = first ? first.indexOf(SLASH) : -1
  if (!first || cut <= 0)
    return fail('repo/unexpected-layout', layoutMessage(first ? latin(first) : undefined))
  const prefix = first.subarray(0, cut + 1)
  for (const e of entries)
    if (!startsWith(e.name, prefix))
      return fail('repo/unexpected-layout', layoutMessage(latin(e.name), latin(prefix)))

  const diagnostics: Diagnostic[] = []
  const kept: { entry: Entry; name: Uint8Array }[] = []
  for (const e of entries) {
    const name = e.name.subarray(prefix.length)
    if (name.length === 0) continue // the wrapper folder itself
    const shown = latin(name)
    const isEmptyFolder =
      shown.endsWith('/') && v.getUint32(e.record + 20, true) === 0 && v.getUint32(e.record + 24, true) === 0
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
    kept.push({ entry: e, name })
  }
  return {
    ok: true,
    bytes: rebuild(zip, v, kept),
    wrapper: latin(prefix.subarray(0, -1)),
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

/** A new archive of the kept entries with their stripped names and their compressed bytes as they were. */
function rebuild(zip: Uint8Array, v: DataView, kept: { entry: Entry; name: Uint8Array }[]): Uint8Array {
  const records: ZipRecord[] = kept.map(({ entry, name }) => {
    const r = entry.record
    // The central record's fields, the data descriptor flag cleared: sizes are now in the header.
    const header = {
      versionNeeded: v.getUint16(r + 6, true),
      flags: v.getUint16(r + 8, true) & ~0x0008,
      method: v.getUint16(r + 10, true),
      time: v.getUint16(r + 12, true),
      date: v.getUint16(r + 14, true),
      crc: v.getUint32(r + 16, true),
      compressedSize: v.getUint32(r + 20, true),
      size: v.getUint32(r + 24, true),
      name,
    }
    return {
      local: header,
      payload: zip.subarray(entry.dataStart, entry.dataEnd),
      central: {
        ...header,
        versionMadeBy: v.getUint16(r + 4, true),
        internalAttributes: v.getUint16(r + 36, true),
        externalAttributes: v.getUint32(r + 38, true),
      },
    }
  })
  return encodeZipRecords(records)
}
