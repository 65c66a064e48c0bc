/**
 * Checks each local header against its central-directory record and the layout of the bytes:
 * entries back to back from offset 0 up to the central directory, no overlap, no gap.
 */

import { type ExtraFields, scanExtra, u16, u32, u64 } from './bytes'
import { type ZipCode, type ZipFindings, zipDiagnostic } from './diagnostic'
import { type HeaderReader, headerReader } from './header-reader'
import type { Entry, RawRecords } from './read-records'

const LOCAL = 0x04034b50
const DESCRIPTOR = 0x08074b50

/** Scratch for {@link scanExtra} (headers are read one at a time). */
const extra: ExtraFields = { zip64: -1, zip64Length: 0, unicodePath: -1, unicodePathLength: 0 }

/** Pushes a refusal (about the entry named `path`, when given) and gives `undefined` to return. */
function refuse(out: ZipFindings, code: ZipCode, message: string, path?: string): undefined {
  out.push(zipDiagnostic(code, message, { path }))
  return undefined
}

/** A refusal about entry `r`: its message is the quoted name followed by `rest`. */
function refuseEntry(out: ZipFindings, code: ZipCode, r: Entry, rest: string): undefined {
  return refuse(out, code, `"${r.name}"${rest}`, r.name)
}

function mismatch(r: Entry, what: string, out: ZipFindings): undefined {
  return refuseEntry(
    out,
    'pkg/header-mismatch',
    r,
    `: the local header's ${what} differs from the central directory.`,
  )
}

/** True when `b[at, at + length)` repeats `name[from, from + length)`. */
function sameBytes(b: Uint8Array, at: number, name: Uint8Array, from: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (b[at + i] !== name[from + i]) return false
  return true
}

/** The wording of the local-header refusals, compiled only when one happens. */
const report = {
  noHeader: (r: Entry, out: ZipFindings) =>
    refuseEntry(out, 'pkg/corrupt-archive', r, ': no local header where the central directory points.'),
  headerIntoDirectory: (r: Entry, out: ZipFindings) =>
    refuseEntry(out, 'pkg/corrupt-archive', r, ': its local header runs into the central directory.'),
  dataIntoDirectory: (r: Entry, out: ZipFindings) =>
    refuseEntry(out, 'pkg/overlapping-entries', r, ': its data runs into the central directory.'),
}

/**
 * The end of entry `r`'s data descriptor (with or without its signature, 8-byte sizes when
 * `zip64`) that starts at `end`, or -1 when it runs into the central directory or disagrees with
 * the record.
 */
function descriptorEnd(h: HeaderReader, r: Entry, zip64: boolean, end: number, cdOffset: number): number {
  const wide = zip64 ? 8 : 4
  // At most 4 + 4 + 2 * wide bytes.
  let at = -1
  if (end < cdOffset) at = h.at(end, Math.min(cdOffset, end + 4 + 4 + 2 * wide))
  const b = h.buffer
  let p = 0
  if (end + 4 <= cdOffset && u32(b, at) === DESCRIPTOR) p = 4
  if (end + p + 4 + 2 * wide > cdOffset) return -1
  const crc = u32(b, at + p)
  const csize = wide === 8 ? u64(b, at + p + 4) : u32(b, at + p + 4)
  const size = wide === 8 ? u64(b, at + p + 12) : u32(b, at + p + 8)
  if (crc !== r.crc32 || csize !== r.compressedSize || size !== r.size) return -1
  return end + p + 4 + 2 * wide
}

/**
 * Reads the local header of record `i` through `h`; sets the entry's `dataOffset` and `end` and
 * returns it, or pushes why the header disagrees with the record. Every read lies inside
 * `[0, cdOffset)`, checked before it is made.
 */
function checkLocal(
  h: HeaderReader,
  records: RawRecords,
  i: number,
  cdOffset: number,
  out: ZipFindings,
): Entry | undefined {
  const r = records.entries[i]!
  const nameAt = records.nameAt[i]!
  const nameLength = records.nameLength[i]!
  const o = r.localHeaderOffset
  let at = o + 30 <= cdOffset ? h.at(o, o + 30) : -1
  let b = h.buffer
  if (at < 0 || u32(b, at) !== LOCAL) return report.noHeader(r, out)
  const nameLen = u16(b, at + 26)
  const dataOffset = o + 30 + nameLen + u16(b, at + 28)
  if (dataOffset > cdOffset) return report.headerIntoDirectory(r, out)
  at = h.at(o, dataOffset)
  b = h.buffer
  if (nameLen !== nameLength || !sameBytes(b, at + 30, records.cd, nameAt, nameLength))
    return mismatch(r, 'name', out)
  if (u16(b, at + 6) !== r.flags) return mismatch(r, 'flags', out)
  if (u16(b, at + 8) !== r.method) return mismatch(r, 'compression method', out)
  const crc = u32(b, at + 14)
  let csize = u32(b, at + 18)
  let size = u32(b, at + 22)
  if (!scanExtra(b, at + 30 + nameLen, at + dataOffset - o, extra)) return mismatch(r, 'extra field', out)
  let zip64 = records.zip64[i]!
  if (extra.zip64 >= 0 && (size === 0xffffffff || csize === 0xffffffff)) {
    if (extra.zip64Length < 16) return mismatch(r, 'ZIP64 field', out)
    size = u64(b, extra.zip64)
    csize = u64(b, extra.zip64 + 8)
    zip64 = true
  }
  const descriptor = (r.flags & 8) !== 0
  // With a data descriptor the local fields may be zero; whatever is written must still agree.
  if (!(crc === r.crc32 || (descriptor && crc === 0))) return mismatch(r, 'CRC-32', out)
  if (
    !(size === r.size || (descriptor && size === 0)) ||
    !(csize === r.compressedSize || (descriptor && csize === 0))
  )
    return mismatch(r, 'sizes', out)
  let end = dataOffset + r.compressedSize
  if (descriptor) {
    end = descriptorEnd(h, r, zip64, end, cdOffset)
    if (end < 0) return mismatch(r, 'data descriptor', out)
  }
  if (end > cdOffset) return report.dataIntoDirectory(r, out)
  r.dataOffset = dataOffset
  r.end = end
  return r
}

/**
 * Record indexes in file order (writers usually put the directory in file order already, so the
 * sort is skipped then), or undefined after pushing why: two records pointing at the same data.
 */
function fileOrder(records: Entry[], out: ZipFindings): number[] | undefined {
  const order = new Array<number>(records.length)
  for (let i = 0; i < order.length; i++) order[i] = i
  let sorted = true
  for (let i = 1; i < records.length && sorted; i++)
    sorted = records[i - 1]!.localHeaderOffset <= records[i]!.localHeaderOffset
  if (!sorted) order.sort((x, y) => records[x]!.localHeaderOffset - records[y]!.localHeaderOffset)
  for (let i = 1; i < order.length; i++) {
    const a = records[order[i - 1]!]!
    const c = records[order[i]!]!
    if (a.localHeaderOffset === c.localHeaderOffset)
      return refuse(
        out,
        'pkg/overlapping-entries',
        `"${a.name}" and "${c.name}" point at the same data: several records for one entry are refused.`,
        c.name,
      )
  }
  return order
}

/**
 * Checks the local header of record `i` (read through the archive's {@link headerReader}) and
 * returns its entry, now with `dataOffset` and `end`, or undefined with the reason pushed. Used
 * by the quick look for the entries it reads (see {@link checkOffsets}).
 */
export function checkLocalHeader(
  b: Uint8Array,
  records: RawRecords,
  i: number,
  cdOffset: number,
  out: ZipFindings,
): Entry | undefined {
  return checkLocal(headerReader(b), records, i, cdOffset, out)
}

/**
 * The quick look's layout check, from the central directory alone (no local header is read):
 * records sorted by offset start at 0, no two share an offset, and each record's fixed header,
 * name and data (`offset + 30 + name + compressedSize`) end before the next record or the
 * central directory. Returns provisional entries (`dataOffset` and `end` are -1 until
 * {@link checkLocalHeader} confirms the record) or undefined after a fatal finding.
 */
export function checkOffsets(records: RawRecords, cdOffset: number, out: ZipFindings): Entry[] | undefined {
  // The usual archive: the directory pass found the entries in file order, back to back.
  if (records.inOrder && records.last <= cdOffset) return records.entries
  return checkOffsetsInFileOrder(records, cdOffset, out)
}

/** {@link checkOffsets} for any other archive: records sorted by offset, then checked in turn. */
function checkOffsetsInFileOrder(
  records: RawRecords,
  cdOffset: number,
  out: ZipFindings,
): Entry[] | undefined {
  const { entries, nameLength } = records
  const order = fileOrder(entries, out)
  if (!order) return undefined
  for (let i = 0; i < order.length; i++) {
    const r = entries[order[i]!]!
    const o = r.localHeaderOffset
    if (i === 0 && o > 0)
      return refuse(
        out,
        'pkg/unexpected-data',
        `${o} bytes of unknown data sit before the first entry (a prepended stub?).`,
      )
    const next = i + 1 < order.length ? entries[order[i + 1]!]! : undefined
    const limit = next ? next.localHeaderOffset : cdOffset
    if (o + 30 + nameLength[order[i]!]! + r.compressedSize > limit)
      return next
        ? refuseEntry(out, 'pkg/overlapping-entries', r, ` runs into "${next.name}".`)
        : report.dataIntoDirectory(r, out)
  }
  return entries
}

/** Checks every local header and the byte ranges; returns the entries or undefined after a fatal finding. */
export function checkLayout(
  b: Uint8Array,
  records: RawRecords,
  cdOffset: number,
  out: ZipFindings,
): Entry[] | undefined {
  const { entries } = records
  const order = fileOrder(entries, out)
  if (!order) return undefined
  const h = headerReader(b)
  let ok = true
  for (let i = 0; i < entries.length; i++) if (!checkLocal(h, records, i, cdOffset, out)) ok = false
  if (!ok) return undefined
  let pos = 0
  for (let k = 0; k < order.length; k++) {
    const e = entries[order[k]!]!
    if (e.localHeaderOffset < pos)
      return refuseEntry(out, 'pkg/overlapping-entries', e, ' overlaps the entry before it.')
    if (e.localHeaderOffset > pos) {
      const where = pos === 0 ? 'before the first entry (a prepended stub?)' : `before "${e.name}"`
      return refuse(
        out,
        'pkg/unexpected-data',
        `${e.localHeaderOffset - pos} bytes of unknown data sit ${where}.`,
      )
    }
    pos = e.end
  }
  if (pos !== cdOffset)
    return refuse(
      out,
      'pkg/unexpected-data',
      `${cdOffset - pos} bytes of unknown data sit before the central directory.`,
    )
  return entries
}
