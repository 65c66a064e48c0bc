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

/** Walks the extra-field blocks of a header: `[id, body]` pairs; undefined when malformed. */
export function parseExtra(extra: Uint8Array): Map<number, Uint8Array> | undefined {
  const out = new Map<number, Uint8Array>()
  let o = 0
  while (o + 4 <= extra.length) {
    const id = u16(extra, o)
    const len = u16(extra, o + 2)
    if (o + 4 + len > extra.length) return undefined
    if (!out.has(id)) out.set(id, extra.subarray(o + 4, o + 4 + len))
    o += 4 + len
  }
  // Some writers pad the extra field with a few zero bytes; anything else is malformed.
  for (; o < extra.length; o++) if (extra[o] !== 0) return undefined
  return out
}
