/**
 * Locates and checks the end of central directory record (and its ZIP64 counterpart):
 * no data after it unless all zero, no split or multi-disk archive.
 */

import { u16, u32, u64 } from './bytes'
import { type ZipFindings, zipDiagnostic } from './diagnostic'

const EOCD = 0x06054b50
const EOCD64 = 0x06064b50
const LOCATOR64 = 0x07064b50
const LOCAL = 0x04034b50
const SPLIT = 0x08074b50

/** The central directory's position as the end records give it. */
export interface EndRecord {
  cdOffset: number
  cdSize: number
  totalEntries: number
  /** Where the central directory must end: the ZIP64 end record or the classic one. */
  cdEnd: number
  zip64: boolean
}

/** Pushes a refusal and gives `undefined` to return. */
function refuse(
  out: ZipFindings,
  code: 'pkg/split-archive' | 'pkg/corrupt-archive' | 'pkg/not-zip' | 'pkg/unexpected-data',
  message: string,
): undefined {
  out.push(zipDiagnostic(code, message))
  return undefined
}

/**
 * The wording of every finding, kept out of {@link findEndRecord} so that reading a sound archive
 * compiles none of it (the first peek in a process runs cold).
 */
const report = {
  splitPart: (out: ZipFindings) =>
    refuse(
      out,
      'pkg/split-archive',
      'This is one part of a split ZIP archive; only single-file archives are read.',
    ),
  padding: (out: ZipFindings, bytes: number) => {
    out.push(
      zipDiagnostic(
        'pkg/trailing-padding',
        `The archive ends with ${bytes} zero bytes after the end record (block padding); they are ignored.`,
      ),
    )
  },
  appended: (out: ZipFindings, bytes: number) =>
    refuse(
      out,
      'pkg/unexpected-data',
      `${bytes} bytes follow the end of the ZIP archive; appended data is refused.`,
    ),
  noEnd: (out: ZipFindings, truncated: boolean) =>
    truncated
      ? refuse(out, 'pkg/corrupt-archive', 'The ZIP archive is truncated: its end record is missing.')
      : refuse(out, 'pkg/not-zip', 'The input is not a ZIP archive (no end of central directory record).'),
  zip64Missing: (out: ZipFindings) =>
    refuse(out, 'pkg/corrupt-archive', 'The ZIP64 end record is missing or misplaced.'),
  zip64Disagrees: (out: ZipFindings) =>
    refuse(out, 'pkg/corrupt-archive', 'The ZIP64 end record disagrees with the classic end record.'),
  split: (out: ZipFindings) =>
    refuse(
      out,
      'pkg/split-archive',
      'This is a split or multi-disk ZIP archive; only single-file archives are read.',
    ),
  pastEnd: (out: ZipFindings) =>
    refuse(
      out,
      'pkg/corrupt-archive',
      'The central directory runs past the end record: the archive is corrupt.',
    ),
  prepended: (out: ZipFindings, bytes: number) =>
    refuse(
      out,
      'pkg/unexpected-data',
      `The central directory is ${bytes} bytes before where the end record sits: data was prepended (a self-extractor stub?) or inserted.`,
    ),
}

/**
 * Reads the ZIP64 end record its locator at `loc` points to; `undefined` (reported) when it is
 * missing or disagrees with the classic record `rec`.
 */
function zip64End(
  b: Uint8Array,
  loc: number,
  rec: EndRecord,
  out: ZipFindings,
  base: number,
): { rec: EndRecord; split: boolean } | undefined {
  const offset = u64(b, loc + 8)
  const at = offset - base
  let split = u32(b, loc + 4) !== 0 || u32(b, loc + 16) > 1
  if (!(at >= 0 && at + 56 <= loc) || u32(b, at) !== EOCD64) return report.zip64Missing(out)
  if (u32(b, at + 16) !== 0 || u32(b, at + 20) !== 0 || u64(b, at + 24) !== u64(b, at + 32)) split = true
  const z: EndRecord = {
    totalEntries: u64(b, at + 32),
    cdSize: u64(b, at + 40),
    cdOffset: u64(b, at + 48),
    cdEnd: offset,
    zip64: true,
  }
  const agree =
    (rec.totalEntries === 0xffff || rec.totalEntries === z.totalEntries) &&
    (rec.cdSize === 0xffffffff || rec.cdSize === z.cdSize) &&
    (rec.cdOffset === 0xffffffff || rec.cdOffset === z.cdOffset)
  if (!agree) return report.zip64Disagrees(out)
  return { rec: z, split }
}

/**
 * Where the end record starts when the archive does not simply end with one without a comment:
 * the last record within a comment's reach that ends the input, else one followed only by zero
 * bytes (reported as padding), else -1 with the refusal pushed.
 */
function searchEndRecord(b: Uint8Array, out: ZipFindings, base: number): number {
  const size = b.length
  let eocd = -1
  let zeroTail = -1
  for (let p = size - 22; p >= 0 && p >= size - 22 - 0xffff; p--) {
    if (u32(b, p) !== EOCD) continue
    const end = p + 22 + u16(b, p + 20)
    if (end === size) {
      eocd = p
      break
    }
    if (end < size && zeroTail < 0) {
      let zeros = true
      for (let i = end; i < size && zeros; i++) zeros = b[i] === 0
      if (zeros) zeroTail = p
      else if (eocd < 0) eocd = -2 - p // remember: a record followed by non-zero bytes
    }
  }
  if (eocd < 0 && zeroTail >= 0) {
    eocd = zeroTail
    report.padding(out, size - (eocd + 22 + u16(b, eocd + 20)))
  } else if (eocd < -1) {
    const p = -2 - eocd
    report.appended(out, size - (p + 22 + u16(b, p + 20)))
    return -1
  }
  if (eocd < 0) report.noEnd(out, base === 0 && size >= 4 && u32(b, 0) === LOCAL)
  return eocd
}

/**
 * Finds the end record; pushes diagnostics and returns undefined when the archive must be refused.
 * `base`: `b` holds the archive's bytes from that offset to its end (its tail: see
 * `archive-window.ts`); the split-part check of the archive's first bytes is then the caller's.
 */
export function findEndRecord(b: Uint8Array, out: ZipFindings, base = 0): EndRecord | undefined {
  const size = b.length
  if (base === 0 && size >= 4 && u32(b, 0) === SPLIT) return report.splitPart(out)
  // The usual archive ends with its end record and no comment, where the search stops at once.
  const eocd =
    size >= 22 && u32(b, size - 22) === EOCD && u16(b, size - 2) === 0
      ? size - 22
      : searchEndRecord(b, out, base)
  if (eocd < 0) return undefined
  const disk = u16(b, eocd + 4)
  const cdDisk = u16(b, eocd + 6)
  const onDisk = u16(b, eocd + 8)
  let rec: EndRecord = {
    totalEntries: u16(b, eocd + 10),
    cdSize: u32(b, eocd + 12),
    cdOffset: u32(b, eocd + 16),
    cdEnd: base + eocd,
    zip64: false,
  }
  let split =
    (disk !== 0 && disk !== 0xffff) || (cdDisk !== 0 && cdDisk !== 0xffff) || onDisk !== rec.totalEntries
  const loc = eocd - 20
  if (loc >= 0 && u32(b, loc) === LOCATOR64) {
    const z = zip64End(b, loc, rec, out, base)
    if (!z) return undefined
    if (z.split) split = true
    rec = z.rec
  }
  if (split) return report.split(out)
  const cdStop = rec.cdOffset + rec.cdSize
  if (cdStop > rec.cdEnd) return report.pastEnd(out)
  if (cdStop < rec.cdEnd) return report.prepended(out, rec.cdEnd - cdStop)
  return rec
}
