/**
 * Parses the central-directory records: sizes (with ZIP64 extras), flags, methods, file
 * types and names. Every name is decoded and checked here, before any data is touched.
 */

import { type ExtraFields, scanExtra, u32, u64 } from './bytes'
import { COMMON_NAME, checkEntryName, isSystemClutter } from './check-entry-name'
import { decodeCp437 } from './cp437'
import { crc32 } from './crc32'
import { type ZipDiagnostic, zipDiagnostic } from './diagnostic'
import { collisionKey } from './entry-names'
import type { ZipEntry } from './types'

/** An entry while the reader fills it in: `dataOffset` and `end` are set once its local header is checked. */
export type Entry = { -readonly [K in keyof ZipEntry]: ZipEntry[K] }

/**
 * The decoded central-directory records: one entry each and, index for index, what only the
 * checks need (parallel arrays rather than a second object per record: a quick look allocates
 * little enough that it seldom waits for the garbage collector).
 */
export interface RawRecords {
  /** In directory order; `dataOffset` and `end` are -1 until the entry's local header is checked. */
  entries: Entry[]
  /** The central directory's bytes, where each name's raw bytes sit (a local header must repeat them). */
  cd: Uint8Array
  /** Where each raw name starts in {@link RawRecords.cd}. */
  nameAt: number[]
  /** Each raw name's length in bytes. */
  nameLength: number[]
  /** The name (without a directory's trailing `/`) as it collides on real file systems. */
  keys: string[]
  /** True where sizes came from a ZIP64 extra (data descriptors then carry 8-byte sizes). */
  zip64: boolean[]
  /** The entries' declared uncompressed sizes, summed in directory order. */
  declared: number
  /** True when some entry is a directory with data or system clutter (each gets a finding). */
  flagged: boolean
  /**
   * True while the entries, in directory order, start at offset 0, at strictly increasing
   * offsets, each one's fixed header, name and data (`offset + 30 + name + compressedSize`,
   * {@link RawRecords.last}) ending at or before the next one's offset: the usual archive,
   * whose quick layout check then only compares the last entry with the central directory.
   */
  inOrder: boolean
  /** Where the last entry's header, name and data end (as above); 0 without entries. */
  last: number
}

const CDH = 0x02014b50
const utf8 = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true })
/** Decodes one character per byte, so positions in its text are positions in the bytes. */
const latin1 = /* @__PURE__ */ new TextDecoder('latin1')
/** From `lastIndex`, the run of ASCII characters (bytes below 0x80 in a {@link latin1} text). */
const ASCII_RUN = /[\x00-\x7f]*/y
const S_IFMT = 0o170000
const S_IFLNK = 0o120000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000

function decodeName(
  bytes: Uint8Array,
  flags: number,
  out: ZipDiagnostic[],
  index: number,
): string | undefined {
  try {
    return utf8.decode(bytes)
  } catch {
    if (flags & 0x800) {
      out.push(
        zipDiagnostic(
          'pkg/invalid-name',
          `Entry #${index + 1}: its name is flagged UTF-8 but is not valid UTF-8.`,
        ),
      )
      return undefined
    }
    const name = decodeCp437(bytes)
    out.push(
      zipDiagnostic('pkg/cp437-name', `"${name}" is not UTF-8 and has no UTF-8 flag; it was read as CP437.`, {
        path: name,
      }),
    )
    return name
  }
}

/** The wording of {@link readRecord}'s findings, compiled only when one is made. */
const report = {
  /** The directory itself is broken at record #`i`: -1 for the caller to return. */
  broken: (i: number, what: string, out: ZipDiagnostic[]): number => {
    out.push(zipDiagnostic('pkg/corrupt-archive', `Central-directory record #${i + 1} ${what}.`))
    return -1
  },
  malformedExtra: (name: string, out: ZipDiagnostic[]) => {
    out.push(zipDiagnostic('pkg/corrupt-archive', `"${name}": its extra field is malformed.`, { path: name }))
  },
  /** Reports `name` (`bare` without a directory's `/`) when the full name rules refuse it. */
  unsafeName: (name: string, bare: string, out: ZipDiagnostic[]) => {
    const problem = checkEntryName(bare)
    if (problem)
      out.push(zipDiagnostic('pkg/unsafe-path', `Entry name "${name}" ${problem}.`, { path: name }))
  },
}

/** Scratch for {@link scanExtra} (records are read one at a time). */
const extra: ExtraFields = { zip64: -1, zip64Length: 0, unicodePath: -1, unicodePathLength: 0 }

/**
 * Reads `count` records from `cd`; pushes a diagnostic for every problem and returns only
 * when the whole directory was parsed (callers stop on any fatal diagnostic).
 */
export function readRecords(cd: Uint8Array, count: number, out: ZipDiagnostic[]): RawRecords | undefined {
  const records: RawRecords = {
    entries: [],
    cd,
    nameAt: [],
    nameLength: [],
    keys: [],
    zip64: [],
    declared: 0,
    flagged: false,
    inOrder: true,
    last: 0,
  }
  // The directory read as one latin1 text: an all-ASCII name (the usual one) is a slice of it,
  // with no view or decoder call per name; other names are decoded as UTF-8 (or CP437).
  const text = latin1.decode(cd)
  // DataView reads, not the u16/u32 helpers: a call per field is most of a record's cost while
  // the code is still cold (interpreted), which is the whole of a quick look (bench/reader).
  const dv = new DataView(cd.buffer, cd.byteOffset, cd.byteLength)
  let o = 0
  for (let i = 0; i < count; i++) {
    o = readRecord(cd, dv, text, o, i, records, out)
    if (o < 0) return undefined
  }
  if (o !== cd.length)
    out.push(
      zipDiagnostic(
        'pkg/corrupt-archive',
        'The end record counts fewer entries than the central directory holds.',
      ),
    )
  return records
}

/**
 * Reads record #`i` at `o`: appends it to `records` (unless its name cannot be decoded or its
 * extra field is malformed, both reported), returns where the next record starts, or -1 when
 * the directory itself is broken. One function per record so the engine compiles it early.
 */
function readRecord(
  cd: Uint8Array,
  dv: DataView,
  text: string,
  o: number,
  i: number,
  records: RawRecords,
  out: ZipDiagnostic[],
): number {
  if (o + 46 > cd.length || dv.getUint32(o, true) !== CDH)
    return report.broken(i, 'is missing or damaged', out)
  const flags = dv.getUint16(o + 8, true)
  const nameLen = dv.getUint16(o + 28, true)
  const extraStart = o + 46 + nameLen
  const extraEnd = extraStart + dv.getUint16(o + 30, true)
  const next = extraEnd + dv.getUint16(o + 32, true)
  if (next > cd.length) return report.broken(i, 'runs past the directory', out)
  const extraOk = scanExtra(cd, extraStart, extraEnd, extra)
  let size = dv.getUint32(o + 24, true)
  let compressedSize = dv.getUint32(o + 20, true)
  let localHeaderOffset = dv.getUint32(o + 42, true)
  let zip64 = false
  if (extraOk && extra.zip64 >= 0) {
    // The ZIP64 field holds, in this order, only the values the record marks 0xffffffff.
    let p = extra.zip64
    const stop = p + extra.zip64Length
    if (size === 0xffffffff) {
      size = zip64Value(cd, p, stop)
      p += 8
    }
    if (compressedSize === 0xffffffff) {
      compressedSize = zip64Value(cd, p, stop)
      p += 8
    }
    if (localHeaderOffset === 0xffffffff) localHeaderOffset = zip64Value(cd, p, stop)
    zip64 = true
  }
  ASCII_RUN.lastIndex = o + 46
  ASCII_RUN.test(text)
  const name =
    ASCII_RUN.lastIndex >= extraStart
      ? text.slice(o + 46, extraStart)
      : decodeName(cd.subarray(o + 46, extraStart), flags, out, i)
  if (name === undefined) return next
  if (!extraOk || Number.isNaN(size + compressedSize + localHeaderOffset)) {
    report.malformedExtra(name, out)
    return next
  }
  if (extra.unicodePath >= 0)
    checkUnicodePath(
      cd,
      extra.unicodePath,
      extra.unicodePathLength,
      name,
      cd.subarray(o + 46, extraStart),
      out,
    )
  const isDirectory = name.endsWith('/')
  const bare = isDirectory ? name.slice(0, -1) : name
  // The usual name needs neither the full name rules nor Unicode folding.
  const common = COMMON_NAME.test(bare)
  if (!common) report.unsafeName(name, bare, out)
  const external = dv.getUint32(o + 38, true)
  const type = (dv.getUint16(o + 4, true) >> 8 === 3 ? external >>> 16 : 0) & S_IFMT
  const disk = dv.getUint16(o + 34, true)
  const method = dv.getUint16(o + 10, true)
  // One test for the usual record; the reports are worded elsewhere (compiled only when needed).
  if (
    (type !== 0 && type !== S_IFREG && type !== S_IFDIR) ||
    disk !== 0 ||
    flags & 0x2041 ||
    (method !== 0 && method !== 8) ||
    (method === 0 && size !== compressedSize)
  )
    reportUnusual(name, type, disk, flags, method, size !== compressedSize, out)
  const ignored = common
    ? bare.charCodeAt(0) === 0x5f && (bare === '__MACOSX' || bare.startsWith('__MACOSX/'))
    : isSystemClutter(name)
  // What the checks after this pass would otherwise each loop over the entries for.
  records.declared += size
  if (ignored || (isDirectory && size > 0)) records.flagged = true
  if (records.inOrder)
    records.inOrder =
      records.entries.length === 0
        ? localHeaderOffset === 0
        : records.entries[records.entries.length - 1]!.localHeaderOffset < localHeaderOffset &&
          records.last <= localHeaderOffset
  records.last = localHeaderOffset + 30 + nameLen + compressedSize
  records.entries.push({
    name,
    isDirectory,
    ignored,
    method,
    flags,
    crc32: dv.getUint32(o + 16, true),
    size,
    compressedSize,
    localHeaderOffset,
    dataOffset: -1,
    end: -1,
  })
  records.nameAt.push(o + 46)
  records.nameLength.push(nameLen)
  records.keys.push(common ? bare.toLowerCase() : collisionKey(bare))
  records.zip64.push(zip64)
  return next
}

/** One 8-byte value of a ZIP64 field at `p`; NaN when the field ends before it. */
const zip64Value = (cd: Uint8Array, p: number, stop: number): number =>
  p + 8 <= stop ? u64(cd, p) : Number.NaN

/** Reports what makes a record unreadable or unsafe: its file type, disk, encryption, method or sizes. */
function reportUnusual(
  name: string,
  type: number,
  disk: number,
  flags: number,
  method: number,
  sizesDiffer: boolean,
  out: ZipDiagnostic[],
): void {
  if (type === S_IFLNK)
    out.push(
      zipDiagnostic(
        'pkg/unsafe-path',
        `"${name}" is a symbolic link; links are never followed or extracted.`,
        { path: name },
      ),
    )
  else if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
    out.push(
      zipDiagnostic('pkg/unsupported-entry', `"${name}" is a special file (device, FIFO or socket).`, {
        path: name,
      }),
    )
  if (disk !== 0)
    out.push(
      zipDiagnostic(
        'pkg/split-archive',
        `"${name}" starts on disk ${disk}: multi-disk archives are not read.`,
        { path: name },
      ),
    )
  if (flags & 0x2041)
    out.push(
      zipDiagnostic('pkg/unsupported-entry', `"${name}" is encrypted; encrypted entries are not read.`, {
        path: name,
      }),
    )
  else if (method !== 0 && method !== 8)
    out.push(
      zipDiagnostic(
        'pkg/unsupported-entry',
        `"${name}" uses compression method ${method}; only stored (0) and deflate (8) are read.`,
        { path: name },
      ),
    )
  else if (method === 0 && sizesDiffer)
    out.push(
      zipDiagnostic('pkg/corrupt-entry', `"${name}" is stored but its two sizes differ.`, { path: name }),
    )
}

/** An Info-ZIP Unicode Path field must name the entry exactly as its header does. */
function checkUnicodePath(
  cd: Uint8Array,
  at: number,
  length: number,
  name: string,
  nameBytes: Uint8Array,
  out: ZipDiagnostic[],
): void {
  if (length < 5 || cd[at] !== 1) return
  let alt: string | undefined
  try {
    alt = utf8.decode(cd.subarray(at + 5, at + length))
  } catch {}
  if (alt !== name || u32(cd, at + 1) !== crc32(nameBytes))
    out.push(
      zipDiagnostic(
        'pkg/invalid-name',
        `"${name}": its Info-ZIP Unicode Path field names it "${alt ?? '(invalid UTF-8)'}"; an entry has one name.`,
        { path: name },
      ),
    )
}
