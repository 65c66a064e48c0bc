/**
 * A raw-deflate inflater (RFC 1951) for entries whose size is known: it writes into one buffer of
 * the declared size, counts (without keeping) what a longer stream produces past it, and stops the
 * moment the output passes the budget, so its work is bounded by the budget plus the input,
 * whatever the stream holds.
 *
 * Why it exists: in browsers the reader inflates with fflate or `DecompressionStream`, and for
 * small entries both cost far more than the decoding itself. fflate builds lookup tables of
 * 2^(longest code) entries and allocates several typed arrays for every block; a stream costs a
 * writer, a reader and their promises per entry (bench/reader-browser/RESULTS.md). This inflater
 * decodes with zlib's two-level tables (9 root bits for literals and lengths, 6 for distances, at
 * most 852 and 592 entries, so a hostile block cannot make table building expensive) held in
 * buffers allocated once, and it allocates nothing per entry but the output.
 *
 * It accepts exactly the streams zlib's `inflate` accepts (tests compare it with node:zlib on
 * generated and mutated streams): over-subscribed or incomplete codes are refused (an incomplete
 * code is allowed only when it has one code of one bit, as zlib allows), as are a missing
 * end-of-block code, literal/length symbols 286-287, distance symbols 30-31, distances before the
 * start of the output, stored blocks whose length does not match its complement, block type 3,
 * and a stream that ends before its final block. Bytes after the final block are ignored.
 */
import type { InflateResult } from './inflate-types'

const MAXBITS = 15
const CODES = 0
const LENS = 1
const DISTS = 2

// Table entries (Int32): symbol or sub-table offset << 8 | flags | bits.
const LINK = 0x40
const INVALID = 0x20
const BITS = 0x0f

/** Base lengths and extra bits for length symbols 257..285. */
const LBASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
  227, 258,
]
const LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
/** Base distances and extra bits for distance symbols 0..29. */
const DBASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
  6145, 8193, 12289, 16385, 24577,
]
const DEXT = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
]
/** The order in which code-length code lengths are sent. */
const ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

/** Scratch space, allocated on first use and reused by every call (calls never overlap). */
interface Scratch {
  lens: Uint8Array
  count: Uint16Array
  offs: Uint16Array
  work: Uint16Array
  codeTable: Int32Array
  lenTable: Int32Array
  distTable: Int32Array
  fixedLen: Int32Array
  fixedDist: Int32Array
}
let scratch: Scratch | undefined

function getScratch(): Scratch {
  if (scratch) return scratch
  const s: Scratch = {
    lens: new Uint8Array(320),
    count: new Uint16Array(MAXBITS + 1),
    offs: new Uint16Array(MAXBITS + 1),
    work: new Uint16Array(288),
    codeTable: new Int32Array(128),
    lenTable: new Int32Array(852),
    distTable: new Int32Array(592),
    fixedLen: new Int32Array(512),
    fixedDist: new Int32Array(32),
  }
  const { lens } = s
  let i = 0
  for (; i < 144; i++) lens[i] = 8
  for (; i < 256; i++) lens[i] = 9
  for (; i < 280; i++) lens[i] = 7
  for (; i < 288; i++) lens[i] = 8
  buildTable(s, 0, 288, s.fixedLen, 9, LENS)
  for (i = 0; i < 32; i++) lens[i] = 5
  buildTable(s, 0, 32, s.fixedDist, 5, DISTS)
  scratch = s
  return s
}

/**
 * Builds a decoding table for the `codes` code lengths at `s.lens[start...]` (zlib's
 * `inflate_table`). Returns the root bits, or -1 for an over-subscribed or incomplete code.
 */
function buildTable(
  s: Scratch,
  start: number,
  codes: number,
  table: Int32Array,
  bits: number,
  type: number,
): number {
  const { lens, count, offs, work } = s
  count.fill(0)
  for (let sym = 0; sym < codes; sym++) count[lens[start + sym]!]!++
  let max = MAXBITS
  while (max >= 1 && count[max] === 0) max--
  let root = Math.min(bits, max)
  if (max === 0) {
    // No codes at all: any use of the table is an error (zlib decodes nothing with it either).
    if (type === CODES) return -1
    table[0] = INVALID | 1
    table[1] = INVALID | 1
    return 1
  }
  let min = 1
  while (min < max && count[min] === 0) min++
  if (root < min) root = min
  let left = 1
  for (let len = 1; len <= MAXBITS; len++) {
    left = (left << 1) - count[len]!
    if (left < 0) return -1
  }
  if (left > 0 && (type === CODES || max !== 1)) return -1
  offs[1] = 0
  for (let len = 1; len < MAXBITS; len++) offs[len + 1] = offs[len]! + count[len]!
  for (let sym = 0; sym < codes; sym++) {
    const l = lens[start + sym]!
    if (l !== 0) work[offs[l]!++] = sym
  }
  let huff = 0
  let sym = 0
  let len = min
  let next = 0
  let curr = root
  let drop = 0
  let low = -1
  let used = 1 << root
  const mask = used - 1
  for (;;) {
    const here = (work[sym]! << 8) | (len - drop)
    let incr = 1 << (len - drop)
    let fill = 1 << curr
    const size = fill
    do {
      fill -= incr
      table[next + (huff >>> drop) + fill] = here
    } while (fill !== 0)
    // Increment the len-bit code backwards (codes are read bit-reversed).
    incr = 1 << (len - 1)
    while (huff & incr) incr >>= 1
    if (incr !== 0) huff = (huff & (incr - 1)) + incr
    else huff = 0
    sym++
    if (--count[len]! === 0) {
      if (len === max) break
      len = lens[start + work[sym]!]!
    }
    if (len > root && (huff & mask) !== low) {
      // A new sub-table for the codes longer than the root that share these root bits.
      if (drop === 0) drop = root
      next += size
      curr = len - drop
      left = 1 << curr
      while (curr + drop < max) {
        left -= count[curr + drop]!
        if (left <= 0) break
        curr++
        left <<= 1
      }
      used += 1 << curr
      if (used > table.length) return -1
      low = huff & mask
      table[low] = (next << 8) | LINK | curr
    }
  }
  // An incomplete code (one code of one bit) leaves one entry, which is invalid.
  if (huff !== 0) table[next + huff] = INVALID | (len - drop)
  return root
}

/**
 * Inflates `input`, which should produce exactly `declared` bytes, spending at most `limit` bytes
 * of output. The output is kept in one buffer of `min(declared, limit)` bytes; a stream longer
 * than `declared` is decoded on into a 32 KiB window and counted, not kept, and the moment it
 * passes `limit` it stops with `limit`. A stream of another length than declared is a `size`
 * mismatch (with the bytes it produced); a malformed or truncated stream is `corrupt`.
 */
export function inflateBounded(input: Uint8Array, declared: number, limit: number): InflateResult {
  const keep = Math.max(0, Math.min(declared, limit))
  const out = new Uint8Array(keep)
  const n = run(input, out, -1, keep)
  if (n === declared) return { ok: true, data: out }
  if (n >= 0) return { ok: false, reason: 'size', produced: n }
  if (n === CORRUPT) return { ok: false, reason: 'corrupt', produced: failedAt, message: failure }
  if (keep >= limit) return { ok: false, reason: 'limit', produced: limit + 1 }
  // Longer than declared, and the budget allows more: count the whole output, up to the limit.
  const total = run(input, new Uint8Array(WINDOW), WINDOW - 1, limit)
  if (total === CORRUPT) return { ok: false, reason: 'corrupt', produced: failedAt, message: failure }
  if (total === OVER) return { ok: false, reason: 'limit', produced: limit + 1 }
  return { ok: false, reason: 'size', produced: total }
}

const WINDOW = 32768
/** {@link run}: more output than `cap`. */
const OVER = -1
/** {@link run}: a malformed or truncated stream ({@link failure} says why). */
const CORRUPT = -2
let failure = ''
let failedAt = 0

/** Records why and where the stream is corrupt, for {@link inflateBounded}'s result. */
function corrupt(message: string, at: number): number {
  failure = message
  failedAt = at
  return CORRUPT
}

/**
 * Inflates `input` into `out`, writing output byte `i` at `out[i & mask]` (mask -1: `out` holds
 * everything; `WINDOW - 1`: `out` is the window and the output is only counted). Returns the
 * number of bytes produced, {@link OVER} the moment it would pass `cap`, or {@link CORRUPT}.
 */
function run(input: Uint8Array, out: Uint8Array, mask: number, cap: number): number {
  const s = getScratch()
  const inLen = input.length
  let pos = 0 // next input byte; past inLen, zero bits are fed and caught below
  let bb = 0 // bit buffer (LSB first)
  let bc = 0 // bits in it
  let op = 0 // output position
  let final = 0
  // No closures over these variables: captured, they would live in a context object, not in
  // registers, which made the cold decoding loop half as fast.
  do {
    // Block header.
    while (bc < 3) {
      bb |= (pos < inLen ? input[pos]! : 0) << bc
      pos++
      bc += 8
    }
    final = bb & 1
    const type = (bb >>> 1) & 3
    bb >>>= 3
    bc -= 3
    if (pos - (bc >>> 3) > inLen) return corrupt('unexpected end of file', op)
    if (type === 0) {
      // Stored: skip to a byte boundary, LEN and NLEN, then LEN bytes.
      bb >>>= bc & 7
      bc -= bc & 7
      pos -= bc >>> 3 // give back the whole bytes still buffered
      bb = 0
      bc = 0
      if (pos + 4 > inLen) return corrupt('unexpected end of file', op)
      const n = input[pos]! | (input[pos + 1]! << 8)
      const nc = input[pos + 2]! | (input[pos + 3]! << 8)
      pos += 4
      if (n !== (nc ^ 0xffff)) return corrupt('invalid stored block lengths', op)
      if (op + n > cap) {
        if (pos + cap - op > inLen) return corrupt('unexpected end of file', op)
        return OVER
      }
      if (pos + n > inLen) return corrupt('unexpected end of file', op)
      if (mask === -1) out.set(input.subarray(pos, pos + n), op)
      else for (let i = 0; i < n; i++) out[(op + i) & mask] = input[pos + i]!
      op += n
      pos += n
      continue
    }
    let lt: Int32Array
    let dt: Int32Array
    let lbits: number
    let dbits: number
    if (type === 1) {
      lt = s.fixedLen
      dt = s.fixedDist
      lbits = 9
      dbits = 5
    } else if (type === 2) {
      while (bc < 14) {
        bb |= (pos < inLen ? input[pos]! : 0) << bc
        pos++
        bc += 8
      }
      const nlen = (bb & 31) + 257
      const ndist = ((bb >>> 5) & 31) + 1
      const ncode = ((bb >>> 10) & 15) + 4
      bb >>>= 14
      bc -= 14
      if (nlen > 286 || ndist > 30) return corrupt('too many length or distance symbols', op)
      const { lens } = s
      for (let i = 0; i < 19; i++) {
        let l = 0
        if (i < ncode) {
          while (bc < 3) {
            bb |= (pos < inLen ? input[pos]! : 0) << bc
            pos++
            bc += 8
          }
          l = bb & 7
          bb >>>= 3
          bc -= 3
        }
        lens[ORDER[i]!] = l
      }
      if (pos - (bc >>> 3) > inLen) return corrupt('unexpected end of file', op)
      const ct = s.codeTable
      const cbits = buildTable(s, 0, 19, ct, 7, CODES)
      if (cbits < 0) return corrupt('invalid code lengths set', op)
      const cmask = (1 << cbits) - 1
      const total = nlen + ndist
      let have = 0
      while (have < total) {
        while (bc < 14) {
          bb |= (pos < inLen ? input[pos]! : 0) << bc
          pos++
          bc += 8
        }
        if (pos > inLen + 4) return corrupt('unexpected end of file', op)
        const e = ct[bb & cmask]!
        const sym = e >>> 8
        bb >>>= e & BITS
        bc -= e & BITS
        if (sym < 16) {
          lens[have++] = sym
          continue
        }
        let len = 0
        let copy: number
        if (sym === 16) {
          if (have === 0) return corrupt('invalid bit length repeat', op)
          len = lens[have - 1]!
          copy = 3 + (bb & 3)
          bb >>>= 2
          bc -= 2
        } else if (sym === 17) {
          copy = 3 + (bb & 7)
          bb >>>= 3
          bc -= 3
        } else {
          copy = 11 + (bb & 127)
          bb >>>= 7
          bc -= 7
        }
        if (have + copy > total) return corrupt('invalid bit length repeat', op)
        while (copy-- > 0) lens[have++] = len
      }
      if (pos - (bc >>> 3) > inLen) return corrupt('unexpected end of file', op)
      if (lens[256] === 0) return corrupt('invalid code -- missing end-of-block', op)
      lt = s.lenTable
      lbits = buildTable(s, 0, nlen, lt, 9, LENS)
      if (lbits < 0) return corrupt('invalid literal/lengths set', op)
      dt = s.distTable
      dbits = buildTable(s, nlen, ndist, dt, 6, DISTS)
      if (dbits < 0) return corrupt('invalid distances set', op)
    } else return corrupt('invalid block type', op)

    // Huffman-coded data: literals, lengths and distances until the end-of-block code.
    const lmask = (1 << lbits) - 1
    const dmask = (1 << dbits) - 1
    for (;;) {
      if (bc < 15) {
        if (pos + 1 < inLen) {
          // Two bytes at once: at most 30 bits, so the buffer stays a positive int32.
          bb |= (input[pos]! | (input[pos + 1]! << 8)) << bc
          pos += 2
          bc += 16
        } else {
          while (bc < 15) {
            bb |= (pos < inLen ? input[pos]! : 0) << bc
            pos++
            bc += 8
          }
          if (pos > inLen + 4) return corrupt('unexpected end of file', op)
        }
      }
      let e = lt[bb & lmask]!
      if (e & LINK) {
        bb >>>= lbits
        bc -= lbits
        e = lt[(e >>> 8) + (bb & ((1 << (e & BITS)) - 1))]!
      }
      if (e & INVALID) return corrupt('invalid literal/length code', op)
      bb >>>= e & BITS
      bc -= e & BITS
      const sym = e >>> 8
      if (sym < 256) {
        if (op === cap) return pos - (bc >>> 3) > inLen ? corrupt('unexpected end of file', op) : OVER
        out[op++ & mask] = sym
        continue
      }
      if (sym === 256) break
      if (sym > 285) return corrupt('invalid literal/length code', op)
      const li = sym - 257
      const lx = LEXT[li]!
      while (bc < 20) {
        bb |= (pos < inLen ? input[pos]! : 0) << bc
        pos++
        bc += 8
      }
      const length = LBASE[li]! + (bb & ((1 << lx) - 1))
      bb >>>= lx
      bc -= lx
      let d = dt[bb & dmask]!
      if (d & LINK) {
        bb >>>= dbits
        bc -= dbits
        d = dt[(d >>> 8) + (bb & ((1 << (d & BITS)) - 1))]!
      }
      if (d & INVALID) return corrupt('invalid distance code', op)
      bb >>>= d & BITS
      bc -= d & BITS
      const dsym = d >>> 8
      if (dsym > 29) return corrupt('invalid distance code', op)
      const dx = DEXT[dsym]!
      while (bc < 13) {
        bb |= (pos < inLen ? input[pos]! : 0) << bc
        pos++
        bc += 8
      }
      const dist = DBASE[dsym]! + (bb & ((1 << dx) - 1))
      bb >>>= dx
      bc -= dx
      if (pos - (bc >>> 3) > inLen) return corrupt('unexpected end of file', op)
      if (dist > op) return corrupt('invalid distance too far back', op)
      if (op + length > cap) return pos - (bc >>> 3) > inLen ? corrupt('unexpected end of file', op) : OVER
      let from = op - dist
      const end = op + length
      if (mask !== -1) while (op < end) out[op++ & mask] = out[from++ & mask]!
      else if (dist >= length && length > 32) {
        out.copyWithin(op, from, from + length)
        op = end
      } else while (op < end) out[op++] = out[from++]!
    }
  } while (!final)
  // Bits past the input were fed as zeros: a stream that needed them is truncated.
  if (pos - (bc >>> 3) > inLen) return corrupt('unexpected end of file', op)
  return op
}
