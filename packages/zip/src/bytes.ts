/** Little-endian readers over a Uint8Array (internal). */
export const u16 = (b: Uint8Array, o: number): number => b[o]! | (b[o + 1]! << 8)
export const u32 = (b: Uint8Array, o: number): number =>
  (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0
/** A 64-bit field as a number; values above 2^53 become Infinity so every later bound check fails. */
export const u64 = (b: Uint8Array, o: number): number => {
  const hi = u32(b, o + 4)
  return hi >= 0x200000 ? Number.POSITIVE_INFINITY : hi * 0x100000000 + u32(b, o)
}
export const bytesEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Where {@link scanExtra} found the blocks the reader uses: the body offset of the first ZIP64
 * (0x0001) and Info-ZIP Unicode Path (0x7075) blocks, -1 when absent, and their body lengths.
 */
export interface ExtraFields {
  zip64: number
  zip64Length: number
  unicodePath: number
  unicodePathLength: number
}

/**
 * Walks the extra-field blocks in `b[start, end)` without allocating: fills `found` (the first
 * block of each id wins) and returns false when the field is malformed (a block running past
 * the end, or trailing bytes that are not the zero padding some writers add).
 */
export function scanExtra(b: Uint8Array, start: number, end: number, found: ExtraFields): boolean {
  found.zip64 = -1
  found.zip64Length = 0
  found.unicodePath = -1
  found.unicodePathLength = 0
  let o = start
  while (o + 4 <= end) {
    const id = u16(b, o)
    const len = u16(b, o + 2)
    if (o + 4 + len > end) return false
    if (id === 0x0001 && found.zip64 < 0) {
      found.zip64 = o + 4
      found.zip64Length = len
    } else if (id === 0x7075 && found.unicodePath < 0) {
      found.unicodePath = o + 4
      found.unicodePathLength = len
    }
    o += 4 + len
  }
  for (; o < end; o++) if (b[o] !== 0) return false
  return true
}
