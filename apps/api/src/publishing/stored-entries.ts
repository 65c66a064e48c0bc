/**
 * Where the data of each stored (uncompressed) entry lies in an archive the reader has already opened, so that the
 * validation worker hashes those bytes where they are. Fenced memory saving (bench/api-upload): `readBytes` hands
 * back a copy of every file, and for a 50 MB package without an `integrity` map those 50 MB of copies waited for a
 * collection, +30 MiB on the API's peak RSS (256-262 → 224-230 MiB measured with the map present).
 *
 * Only for an archive `@spkg/reader` opened without a fatal finding: it has walked this same central directory and
 * local headers and checked every entry's size and CRC-32 at these offsets. Anything this short walk does not
 * recognise (ZIP64 fields, a local header that disagrees, a name that is not UTF-8) is left out, and the caller
 * reads that file through the reader as before.
 */

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The data of every stored entry this walk could place, by archive path (views into `archive`, not copies). */
export function storedEntryData(archive: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>()
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength)
  const u16 = (at: number) => view.getUint16(at, true)
  const u32 = (at: number) => view.getUint32(at, true)
  // The end record the reader takes (zip/find-end-record.ts): the last one whose comment ends the archive, else the
  // last one followed only by zero bytes; the central directory sits right before it.
  let end = -1
  let padded = -1
  for (let p = archive.length - 22; p >= 0 && p >= archive.length - 22 - 0xffff; p--) {
    if (u32(p) !== EOCD) continue
    const tail = p + 22 + u16(p + 20)
    if (tail === archive.length) {
      end = p
      break
    }
    if (padded < 0 && tail < archive.length && archive.subarray(tail).every((b) => b === 0)) padded = p
  }
  if (end < 0) end = padded
  if (end < 0) return out
  const count = u16(end + 10)
  let at = u32(end + 16)
  if (count === 0xffff || at === 0xffffffff) return out // ZIP64: left to the reader
  if (at + u32(end + 12) !== end) return out
  for (let i = 0; i < count; i++) {
    if (at + 46 > archive.length || u32(at) !== CENTRAL) return out
    const method = u16(at + 10)
    const compressed = u32(at + 20)
    const size = u32(at + 24)
    const nameLength = u16(at + 28)
    const next = at + 46 + nameLength + u16(at + 30) + u16(at + 32)
    const local = u32(at + 42)
    const nameBytes = archive.subarray(at + 46, at + 46 + nameLength)
    at = next
    if (method !== 0 || compressed !== size || size === 0xffffffff || local + 30 > archive.length) continue
    if (u32(local) !== LOCAL || u16(local + 26) !== nameLength) continue
    const localName = archive.subarray(local + 30, local + 30 + nameLength)
    if (!nameBytes.every((b, k) => b === localName[k])) continue
    const data = local + 30 + nameLength + u16(local + 28)
    if (data + size > archive.length) continue
    let name: string
    try {
      name = utf8.decode(nameBytes)
    } catch {
      continue
    }
    out.set(name, archive.subarray(data, data + size))
  }
  return out
}
