/**
 * A stored (uncompressed) ZIP of cached files, so a cached version is opened by the very same
 * reader as a downloaded one: every check (structure, names, integrity, checksums, signature)
 * runs again on what the cache holds.
 */
import { SpkgError } from '@spkg/manifest'
import { crc32 } from '@spkg/zip'

const encoder = /* @__PURE__ */ new TextEncoder()
const MAX = 0xffffffff

/**
 * Writes `files` (in the order given) as a ZIP with stored entries and UTF-8 names.
 * @throws SpkgError `pkg/too-large` past 65,535 entries or 4 GiB (no ZIP64 here)
 */
export function storedZip(files: ReadonlyArray<{ path: string; bytes: Uint8Array }>): Uint8Array {
  if (files.length > 0xffff) throw new SpkgError('pkg/too-large', 'too many cached files for one archive')
  const names = files.map((f) => encoder.encode(f.path))
  let size = 22
  for (let i = 0; i < files.length; i++) size += 30 + 46 + 2 * names[i]!.length + files[i]!.bytes.length
  if (size > MAX) throw new SpkgError('pkg/too-large', 'the cached package is too large for one archive')
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  const offsets: number[] = []
  const crcs: number[] = []
  let at = 0
  const header = (sig: number, i: number, central: boolean) => {
    const name = names[i]!
    const data = files[i]!.bytes
    view.setUint32(at, sig, true)
    at += 4
    if (central) {
      view.setUint16(at, 20, true) // made by
      at += 2
    }
    view.setUint16(at, 20, true) // version needed
    view.setUint16(at + 2, 0x0800, true) // UTF-8 names
    view.setUint16(at + 4, 0, true) // stored
    view.setUint16(at + 6, 0, true) // time
    view.setUint16(at + 8, 0x21, true) // date: 1980-01-01
    view.setUint32(at + 10, crcs[i]!, true)
    view.setUint32(at + 14, data.length, true)
    view.setUint32(at + 18, data.length, true)
    view.setUint16(at + 22, name.length, true)
    view.setUint16(at + 24, 0, true) // extra
    at += 26
    if (central) {
      // comment length, disk, internal and external attributes, local header offset
      view.setUint32(at + 6, (0o100644 << 16) >>> 0, true)
      view.setUint32(at + 10, offsets[i]!, true)
      at += 14
    }
    out.set(name, at)
    at += name.length
  }
  for (let i = 0; i < files.length; i++) {
    crcs.push(crc32(files[i]!.bytes))
    offsets.push(at)
    header(0x04034b50, i, false)
    out.set(files[i]!.bytes, at)
    at += files[i]!.bytes.length
  }
  const cdStart = at
  for (let i = 0; i < files.length; i++) header(0x02014b50, i, true)
  view.setUint32(at, 0x06054b50, true)
  view.setUint16(at + 8, files.length, true)
  view.setUint16(at + 10, files.length, true)
  view.setUint32(at + 12, at - cdStart, true)
  view.setUint32(at + 16, cdStart, true)
  return out
}
