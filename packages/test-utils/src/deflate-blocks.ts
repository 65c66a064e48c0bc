/**
 * Raw-deflate streams written bit by bit, for inflater tests and benchmarks: a bit writer, and a
 * hostile stream of many tiny dynamic blocks whose literal/length code runs to 15 bits.
 */

/**
 * Writes bits least significant first, as deflate packs them; `code` writes a Huffman code most
 * significant bit first. The buffer starts at `capacity` bytes and doubles when full.
 */
export class DeflateBits {
  private buf: Uint8Array
  private bit = 0
  constructor(capacity = 64) {
    this.buf = new Uint8Array(Math.max(1, capacity))
  }
  /** Appends the `count` low bits of `value`, least significant first. */
  put(value: number, count: number): this {
    for (let i = 0; i < count; i++) this.one((value >>> i) & 1)
    return this
  }
  /** Appends a `count`-bit Huffman code, most significant bit first. */
  code(value: number, count: number): this {
    for (let i = count - 1; i >= 0; i--) this.one((value >>> i) & 1)
    return this
  }
  /** The bytes written so far (the last one padded with zero bits). */
  done(): Uint8Array {
    return this.buf.slice(0, (this.bit + 7) >> 3)
  }
  private one(b: number): void {
    const byte = this.bit >> 3
    if (byte === this.buf.length) {
      const grown = new Uint8Array(this.buf.length * 2)
      grown.set(this.buf)
      this.buf = grown
    }
    if (b) this.buf[byte]! |= 1 << (this.bit & 7)
    this.bit++
  }
}

/**
 * `blocks` dynamic blocks whose literal/length code runs to 15 bits, each holding only its end of
 * block: 23 bytes a block, nothing inflated, legal deflate (zlib accepts it). A decoder that
 * builds a table of 2^(longest code) entries per block does 32,768 writes for every 23 bytes;
 * zlib's two-level tables stay under 852 entries.
 *
 * @example
 * const hostile = manyHuffmanBlocks(40_000) // 0.9 MB that inflate to 0 bytes
 */
export function manyHuffmanBlocks(blocks: number): Uint8Array {
  const w = new DeflateBits()
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
  // Code-length code: lengths 1-15 get 4-bit codes 0-14; 0 and 18 get 5-bit codes 30 and 31.
  const cl = (sym: number): [number, number] =>
    sym >= 1 && sym <= 15 ? [sym - 1, 4] : sym === 0 ? [30, 5] : [31, 5]
  for (let b = 0; b < blocks; b++) {
    // BFINAL on the last block, BTYPE 2, HLIT 257, HDIST 1, HCLEN 19.
    w.put(b === blocks - 1 ? 1 : 0, 1)
      .put(2, 2)
      .put(0, 5)
      .put(0, 5)
      .put(15, 4)
    for (const sym of order) w.put(sym >= 1 && sym <= 15 ? 4 : sym === 0 || sym === 18 ? 5 : 0, 3)
    // Literals 0-14 get lengths 1-15, then 241 zeros, the end of block 15; one distance length 0.
    for (let i = 1; i <= 15; i++) w.code(...cl(i))
    w.code(...cl(18)).put(138 - 11, 7)
    w.code(...cl(18)).put(103 - 11, 7)
    w.code(...cl(15)).code(...cl(0))
    w.code(0x7fff, 15) // the end of block: the last 15-bit code
  }
  return w.done()
}
