/**
 * Raw-deflate streams that inflate to huge runs of zeros, built in milliseconds without ever
 * materialising the output: one fixed-Huffman block with a literal 0 and then back-references
 * (length 258, distance 1), 13 bits per 258 output bytes (1:158).
 */

const cache = new Map<number, Uint8Array>()

/**
 * Returns a raw-deflate stream that inflates to `size` zero bytes (cached per size).
 *
 * @example
 * const payload = deflateBomb(200 * 2 ** 20) // ~1.3 MB that inflates to 200 MiB
 */
export function deflateBomb(size: number): Uint8Array {
  const hit = cache.get(size)
  if (hit) return hit
  const out = new Uint8Array(Math.ceil(((size / 258) * 13) / 8) + 300) // refs + at most 258 literal bytes
  let bit = 0
  // Huffman codes are written most significant bit first; other fields least significant first.
  const put = (value: number, n: number) => {
    for (let i = 0; i < n; i++) {
      if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7)
      bit++
    }
  }
  const putCode = (code: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) {
      if ((code >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7)
      bit++
    }
  }
  put(1, 1) // BFINAL
  put(1, 2) // BTYPE = fixed Huffman
  let left = size
  if (left > 0) {
    putCode(0b00110000, 8) // literal 0
    left--
  }
  while (left >= 258) {
    putCode(0b11000101, 8) // length code 285 = 258
    putCode(0, 5) // distance code 0 = 1
    left -= 258
  }
  while (left > 0) {
    putCode(0b00110000, 8)
    left--
  }
  putCode(0, 7) // end of block (256)
  const result = out.slice(0, (bit + 7) >> 3)
  cache.set(size, result)
  return result
}
