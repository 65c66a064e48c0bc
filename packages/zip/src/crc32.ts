/**
 * CRC-32 (IEEE 802.3, the ZIP checksum), slicing-by-8: eight 256-entry tables let the loop
 * consume 8 bytes per step, several times faster than the byte-at-a-time table in V8.
 */
const TABLES = (() => {
  const t = new Int32Array(256 * 8)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff]! ^ (c >>> 8)
      t[k * 256 + n] = c
    }
  }
  return t
})()

/**
 * Computes the CRC-32 of `data`, continuing from `previous` (0 to start).
 *
 * @example
 * crc32(new TextEncoder().encode('123456789')).toString(16) // 'cbf43926'
 */
export function crc32(data: Uint8Array, previous = 0): number {
  const t = TABLES
  let c = ~previous
  let i = 0
  const n = data.length
  const end8 = n - (n % 8)
  for (; i < end8; i += 8) {
    const a = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) ^ c
    const b = data[i + 4]! | (data[i + 5]! << 8) | (data[i + 6]! << 16) | (data[i + 7]! << 24)
    c =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + (b & 0xff)]! ^
      t[512 + ((b >>> 8) & 0xff)]! ^
      t[256 + ((b >>> 16) & 0xff)]! ^
      t[b >>> 24]!
  }
  for (; i < n; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8)
  return ~c >>> 0
}
