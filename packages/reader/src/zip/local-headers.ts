/**
 * Checks each local header against its central-directory record and the layout of the bytes:
 * entries back to back from offset 0 up to the central directory, no overlap, no gap.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { bytesEqual, parseExtra, u16, u32, u64 } from './bytes'
import type { RawRecord } from './read-records'
import type { ZipEntry } from './types'

const LOCAL = 0x04034b50
const DESCRIPTOR = 0x08074b50

/** Reads one local header; returns the entry or pushes why it disagrees with its record. */
function checkLocal(b: Uint8Array, r: RawRecord, cdOffset: number, out: Diagnostic[]): ZipEntry | undefined {
  const at = { path: r.name }
  const o = r.localHeaderOffset
  const mismatch = (what: string) => {
    out.push(
      createDiagnostic(
        'pkg/header-mismatch',
        `"${r.name}": the local header's ${what} differs from the central directory.`,
        at,
      ),
    )
    return undefined
  }
  if (o + 30 > cdOffset || u32(b, o) !== LOCAL) {
    out.push(
      createDiagnostic(
        'pkg/corrupt-archive',
        `"${r.name}": no local header where the central directory points.`,
        at,
      ),
    )
    return undefined
  }
  const nameLen = u16(b, o + 26)
  const extraLen = u16(b, o + 28)
  const dataOffset = o + 30 + nameLen + extraLen
  if (dataOffset > cdOffset) {
    out.push(
      createDiagnostic(
        'pkg/corrupt-archive',
        `"${r.name}": its local header runs into the central directory.`,
        at,
      ),
    )
    return undefined
  }
  if (!bytesEqual(b.subarray(o + 30, o + 30 + nameLen), r.nameBytes)) return mismatch('name')
  if (u16(b, o + 6) !== r.flags) return mismatch('flags')
  if (u16(b, o + 8) !== r.method) return mismatch('compression method')
  let crc = u32(b, o + 14)
  let csize = u32(b, o + 18)
  let size = u32(b, o + 22)
  const extra = parseExtra(b.subarray(o + 30 + nameLen, dataOffset))
  if (!extra) return mismatch('extra field')
  const z = extra.get(0x0001)
  let zip64 = r.zip64
  if (z && (size === 0xffffffff || csize === 0xffffffff)) {
    if (z.length < 16) return mismatch('ZIP64 field')
    size = u64(z, 0)
    csize = u64(z, 8)
    zip64 = true
  }
  const descriptor = (r.flags & 8) !== 0
  // With a data descriptor the local fields may be zero; whatever is written must still agree.
  const agrees = (local: number, central: number) => local === central || (descriptor && local === 0)
  if (!agrees(crc, r.crc32)) return mismatch('CRC-32')
  if (!agrees(size, r.size) || !agrees(csize, r.compressedSize)) return mismatch('sizes')
  let end = dataOffset + r.compressedSize
  if (descriptor) {
    let p = end
    if (p + 4 <= cdOffset && u32(b, p) === DESCRIPTOR) p += 4
    const wide = zip64 ? 8 : 4
    if (p + 4 + 2 * wide > cdOffset) return mismatch('data descriptor')
    crc = u32(b, p)
    csize = wide === 8 ? u64(b, p + 4) : u32(b, p + 4)
    size = wide === 8 ? u64(b, p + 12) : u32(b, p + 8)
    if (crc !== r.crc32 || csize !== r.compressedSize || size !== r.size) return mismatch('data descriptor')
    end = p + 4 + 2 * wide
  }
  if (end > cdOffset) {
    out.push(
      createDiagnostic(
        'pkg/overlapping-entries',
        `"${r.name}": its data runs into the central directory.`,
        at,
      ),
    )
    return undefined
  }
  return {
    name: r.name,
    isDirectory: r.isDirectory,
    ignored: r.ignored,
    method: r.method,
    flags: r.flags,
    crc32: r.crc32,
    size: r.size,
    compressedSize: r.compressedSize,
    localHeaderOffset: o,
    dataOffset,
    end,
  }
}

/** Checks every local header and the byte ranges; returns the entries or undefined after a fatal finding. */
export function checkLayout(
  b: Uint8Array,
  records: RawRecord[],
  cdOffset: number,
  out: Diagnostic[],
): ZipEntry[] | undefined {
  const byOffset = [...records].sort((x, y) => x.localHeaderOffset - y.localHeaderOffset)
  for (let i = 1; i < byOffset.length; i++) {
    const [a, c] = [byOffset[i - 1]!, byOffset[i]!]
    if (a.localHeaderOffset === c.localHeaderOffset) {
      out.push(
        createDiagnostic(
          'pkg/overlapping-entries',
          `"${a.name}" and "${c.name}" point at the same data: several records for one entry are refused.`,
          { path: c.name },
        ),
      )
      return undefined
    }
  }
  const entries = new Map<RawRecord, ZipEntry>()
  let ok = true
  for (const r of records) {
    const e = checkLocal(b, r, cdOffset, out)
    if (e) entries.set(r, e)
    else ok = false
  }
  if (!ok) return undefined
  let pos = 0
  for (const r of byOffset) {
    const e = entries.get(r)!
    if (e.localHeaderOffset < pos) {
      out.push(
        createDiagnostic('pkg/overlapping-entries', `"${e.name}" overlaps the entry before it.`, {
          path: e.name,
        }),
      )
      return undefined
    }
    if (e.localHeaderOffset > pos) {
      const where = pos === 0 ? 'before the first entry (a prepended stub?)' : `before "${e.name}"`
      out.push(
        createDiagnostic(
          'pkg/unexpected-data',
          `${e.localHeaderOffset - pos} bytes of unknown data sit ${where}.`,
        ),
      )
      return undefined
    }
    pos = e.end
  }
  if (pos !== cdOffset) {
    out.push(
      createDiagnostic(
        'pkg/unexpected-data',
        `${cdOffset - pos} bytes of unknown data sit before the central directory.`,
      ),
    )
    return undefined
  }
  return records.map((r) => entries.get(r)!)
}
