/**
 * The measured work of `pnpm bench inflate`, the same code in Node and in Chromium: each inflater
 * over one set of raw-deflate streams, the first pass (cold) and the median of later passes.
 */
import { inflateBounded } from '../../packages/reader/src/zip/inflate-bounded'
import { fflateInflater } from '../reader-browser/fflate-inflater'

/** A stream set: the streams and the size each inflates to. */
export interface StreamSet {
  name: string
  streams: Uint8Array[]
  sizes: number[]
}

export const INFLATERS = ['bounded JavaScript (shipped)', 'fflate (before)'] as const

const LIMIT = 52_428_800

/** Inflates every stream of `set` with `inflater` once; returns the wall time in ms. */
export function inflateAll(set: StreamSet, inflater: (typeof INFLATERS)[number]): number {
  const t0 = performance.now()
  for (let i = 0; i < set.streams.length; i++) {
    const r =
      inflater === 'fflate (before)'
        ? fflateInflater.inflateRaw(set.streams[i]!, set.sizes[i]!, LIMIT)
        : inflateBounded(set.streams[i]!, set.sizes[i]!, LIMIT)
    if (!r.ok) throw new Error(`${inflater} fails on ${set.name}: ${r.reason}`)
  }
  return performance.now() - t0
}

/** Writes bits LSB first, as deflate packs them; `code` writes a Huffman code MSB first. */
class Bits {
  bytes: number[] = []
  n = 0
  put(value: number, count: number): this {
    for (let i = 0; i < count; i++) {
      if (this.n % 8 === 0) this.bytes.push(0)
      this.bytes[this.bytes.length - 1]! |= ((value >>> i) & 1) << (this.n % 8)
      this.n++
    }
    return this
  }
  code([value, count]: [number, number]): this {
    for (let i = count - 1; i >= 0; i--) this.put((value >>> i) & 1, 1)
    return this
  }
}

/**
 * A hostile stream: `blocks` dynamic blocks whose literal/length code runs to 15 bits, each
 * holding only its end of block (23 bytes a block, nothing inflated). Legal deflate: zlib
 * accepts it. A decoder that builds a table of 2^(longest code) entries per block does 32,768
 * writes for every 23 bytes.
 */
export function manyBlocks(blocks: number): Uint8Array {
  const w = new Bits()
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
  // Code-length code: lengths 1-15 get 4-bit codes 0-14; 0 and 18 get 5-bit codes 30 and 31.
  const cl = (sym: number): [number, number] =>
    sym >= 1 && sym <= 15 ? [sym - 1, 4] : sym === 0 ? [30, 5] : [31, 5]
  for (let b = 0; b < blocks; b++) {
    w.put(b === blocks - 1 ? 1 : 0, 1)
      .put(2, 2)
      .put(0, 5)
      .put(0, 5)
      .put(15, 4)
    for (const sym of order) w.put(sym >= 1 && sym <= 15 ? 4 : sym === 0 || sym === 18 ? 5 : 0, 3)
    // Literals 0-14 get lengths 1-15, then 241 zeros, end of block 15; one distance length 0.
    for (let i = 1; i <= 15; i++) w.code(cl(i))
    w.code(cl(18)).put(138 - 11, 7)
    w.code(cl(18)).put(103 - 11, 7)
    w.code(cl(15)).code(cl(0))
    w.code([0x7fff, 15]) // end of block: the last 15-bit code
  }
  return new Uint8Array(w.bytes)
}
