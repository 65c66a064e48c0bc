/**
 * Raw-deflate streams that inflate to huge runs of zeros, built in milliseconds without ever
 * materialising the output: one fixed-Huffman block with a literal 0 and then back-references
 * (length 258, distance 1), 13 bits per 258 output bytes (1:158).
 */

import { DeflateBits } from './deflate-blocks'

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
  // Room for the references and at most 258 literal bytes, so the writer never grows.
  const w = new DeflateBits(Math.ceil(((size / 258) * 13) / 8) + 300)
  w.put(1, 1) // BFINAL
  w.put(1, 2) // BTYPE = fixed Huffman
  let left = size
  if (left > 0) {
    w.code(0b00110000, 8) // literal 0
    left--
  }
  while (left >= 258) {
    w.code(0b11000101, 8) // length code 285 = 258
    w.code(0, 5) // distance code 0 = 1
    left -= 258
  }
  while (left > 0) {
    w.code(0b00110000, 8)
    left--
  }
  w.code(0, 7) // end of block (256)
  const result = w.done()
  cache.set(size, result)
  return result
}
