// AssemblyScript port of packages/zip/src/inflate-bounded.ts (zlib's inflate algorithm) plus
// a slicing-by-8 CRC-32. Memory: static tables, then the caller's buffers from heapBase().

const MAXBITS: i32 = 15
const CODES: i32 = 0
const LENS: i32 = 1
const DISTS: i32 = 2
const LINK: i32 = 0x40
const INVALID: i32 = 0x20
const BITS: i32 = 0x0f

const LBASE = memory.data<u16>([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
  227, 258,
])
const LEXT = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
])
const DBASE = memory.data<u16>([
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
  6145, 8193, 12289, 16385, 24577,
])
const DEXT = memory.data<u8>([
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
])
const ORDER = memory.data<u8>([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15])

const LENSBUF = memory.data(320)
const COUNT = memory.data(2 * 16, 4)
const OFFS = memory.data(2 * 16, 4)
const WORK = memory.data(2 * 288, 4)
const CODE_T = memory.data(4 * 128, 4)
const LEN_T = memory.data(4 * 852, 4)
const DIST_T = memory.data(4 * 592, 4)
const FIX_L = memory.data(4 * 512, 4)
const FIX_D = memory.data(4 * 32, 4)
const CRC_T = memory.data(4 * 256 * 8, 4)

let failure: i32 = 0
let failedAt: i32 = 0

function cnt(i: i32): i32 {
  return <i32>load<u16>(COUNT + ((<usize>i) << 1))
}
function setCnt(i: i32, v: i32): void {
  store<u16>(COUNT + ((<usize>i) << 1), <u16>v)
}
function offs(i: i32): i32 {
  return <i32>load<u16>(OFFS + ((<usize>i) << 1))
}
function setOffs(i: i32, v: i32): void {
  store<u16>(OFFS + ((<usize>i) << 1), <u16>v)
}
function lens(i: i32): i32 {
  return <i32>load<u8>(LENSBUF + <usize>i)
}
function setLens(i: i32, v: i32): void {
  store<u8>(LENSBUF + <usize>i, <u8>v)
}
function work(i: i32): i32 {
  return <i32>load<u16>(WORK + ((<usize>i) << 1))
}
function tget(t: usize, i: i32): i32 {
  return load<i32>(t + ((<usize>i) << 2))
}
function tset(t: usize, i: i32, v: i32): void {
  store<i32>(t + ((<usize>i) << 2), v)
}

function buildTable(start: i32, codes: i32, table: usize, tableLen: i32, bits: i32, type: i32): i32 {
  for (let i = 0; i <= MAXBITS; i++) setCnt(i, 0)
  for (let sym = 0; sym < codes; sym++) {
    const l = lens(start + sym)
    setCnt(l, cnt(l) + 1)
  }
  let max = MAXBITS
  while (max >= 1 && cnt(max) === 0) max--
  let root = bits < max ? bits : max
  if (max === 0) {
    if (type === CODES) return -1
    tset(table, 0, INVALID | 1)
    tset(table, 1, INVALID | 1)
    return 1
  }
  let min = 1
  while (min < max && cnt(min) === 0) min++
  if (root < min) root = min
  let left = 1
  for (let len = 1; len <= MAXBITS; len++) {
    left = (left << 1) - cnt(len)
    if (left < 0) return -1
  }
  if (left > 0 && (type === CODES || max !== 1)) return -1
  setOffs(1, 0)
  for (let len = 1; len < MAXBITS; len++) setOffs(len + 1, offs(len) + cnt(len))
  for (let sym = 0; sym < codes; sym++) {
    const l = lens(start + sym)
    if (l !== 0) {
      const o = offs(l)
      store<u16>(WORK + ((<usize>o) << 1), <u16>sym)
      setOffs(l, o + 1)
    }
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
    const here = (work(sym) << 8) | (len - drop)
    let incr = 1 << (len - drop)
    let fill = 1 << curr
    const size = fill
    do {
      fill -= incr
      tset(table, next + (huff >>> drop) + fill, here)
    } while (fill !== 0)
    incr = 1 << (len - 1)
    while (huff & incr) incr >>= 1
    if (incr !== 0) huff = (huff & (incr - 1)) + incr
    else huff = 0
    sym++
    const c = cnt(len) - 1
    setCnt(len, c)
    if (c === 0) {
      if (len === max) break
      len = lens(start + work(sym))
    }
    if (len > root && (huff & mask) !== low) {
      if (drop === 0) drop = root
      next += size
      curr = len - drop
      left = 1 << curr
      while (curr + drop < max) {
        left -= cnt(curr + drop)
        if (left <= 0) break
        curr++
        left <<= 1
      }
      used += 1 << curr
      if (used > tableLen) return -1
      low = huff & mask
      tset(table, low, (next << 8) | LINK | curr)
    }
  }
  if (huff !== 0) tset(table, next + huff, INVALID | (len - drop))
  return root
}

export function init(): void {
  let i = 0
  for (; i < 144; i++) setLens(i, 8)
  for (; i < 256; i++) setLens(i, 9)
  for (; i < 280; i++) setLens(i, 7)
  for (; i < 288; i++) setLens(i, 8)
  buildTable(0, 288, FIX_L, 512, 9, LENS)
  for (i = 0; i < 32; i++) setLens(i, 5)
  buildTable(0, 32, FIX_D, 32, 5, DISTS)
  for (let n = 0; n < 256; n++) {
    let c = <u32>n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    store<u32>(CRC_T + ((<usize>n) << 2), c)
  }
  for (let n = 0; n < 256; n++) {
    let c = load<u32>(CRC_T + ((<usize>n) << 2))
    for (let k = 1; k < 8; k++) {
      c = load<u32>(CRC_T + ((<usize>(c & 0xff)) << 2)) ^ (c >>> 8)
      store<u32>(CRC_T + ((<usize>(k * 256 + n)) << 2), c)
    }
  }
}

export function heapBase(): usize {
  return (__heap_base + 15) & ~15
}
export function failCode(): i32 {
  return failure
}
export function failOffset(): i32 {
  return failedAt
}

const OVER: i32 = -1
const CORRUPT: i32 = -2

// Failure codes (the JavaScript side maps them to zlib's messages).
const E_EOF: i32 = 1
const E_STORED: i32 = 2
const E_TOO_MANY: i32 = 3
const E_CODE_LENGTHS: i32 = 4
const E_REPEAT: i32 = 5
const E_NO_EOB: i32 = 6
const E_LITLEN_SET: i32 = 7
const E_DIST_SET: i32 = 8
const E_BLOCK_TYPE: i32 = 9
const E_LITLEN_CODE: i32 = 10
const E_DIST_CODE: i32 = 11
const E_TOO_FAR: i32 = 12

function corrupt(code: i32, at: i32): i32 {
  failure = code
  failedAt = at
  return CORRUPT
}

function inb(inp: usize, pos: i32, inLen: i32): u32 {
  return pos < inLen ? <u32>load<u8>(inp + <usize>pos) : 0
}

/**
 * Inflates the `inLen` bytes at `inp` into `out`, output byte i at out + (i & mask) (mask -1: all
 * of it; 32767: a window, counted only). Returns the bytes produced, -1 past `cap`, -2 corrupt.
 */
export function inflate(inp: usize, inLen: i32, out: usize, mask: i32, cap: i32): i32 {
  let pos: i32 = 0
  let bb: u32 = 0
  let bc: i32 = 0
  let op: i32 = 0
  let final: u32 = 0
  do {
    while (bc < 3) {
      bb |= inb(inp, pos, inLen) << bc
      pos++
      bc += 8
    }
    final = bb & 1
    const type = (bb >>> 1) & 3
    bb >>>= 3
    bc -= 3
    if (pos - (bc >>> 3) > inLen) return corrupt(E_EOF, op)
    if (type === 0) {
      bb >>>= bc & 7
      bc -= bc & 7
      pos -= bc >>> 3
      bb = 0
      bc = 0
      if (pos + 4 > inLen) return corrupt(E_EOF, op)
      const n = <i32>load<u16>(inp + <usize>pos)
      const nc = <i32>load<u16>(inp + <usize>pos + 2)
      pos += 4
      if (n !== (nc ^ 0xffff)) return corrupt(E_STORED, op)
      if (op + n > cap) {
        if (pos + cap - op > inLen) return corrupt(E_EOF, op)
        return OVER
      }
      if (pos + n > inLen) return corrupt(E_EOF, op)
      if (mask === -1) memory.copy(out + <usize>op, inp + <usize>pos, <usize>n)
      else
        for (let i = 0; i < n; i++)
          store<u8>(out + <usize>((op + i) & mask), load<u8>(inp + <usize>(pos + i)))
      op += n
      pos += n
      continue
    }
    let lt: usize
    let dt: usize
    let lbits: i32
    let dbits: i32
    if (type === 1) {
      lt = FIX_L
      dt = FIX_D
      lbits = 9
      dbits = 5
    } else if (type === 2) {
      while (bc < 14) {
        bb |= inb(inp, pos, inLen) << bc
        pos++
        bc += 8
      }
      const nlen = <i32>(bb & 31) + 257
      const ndist = <i32>((bb >>> 5) & 31) + 1
      const ncode = <i32>((bb >>> 10) & 15) + 4
      bb >>>= 14
      bc -= 14
      if (nlen > 286 || ndist > 30) return corrupt(E_TOO_MANY, op)
      for (let i = 0; i < 19; i++) {
        let l: i32 = 0
        if (i < ncode) {
          while (bc < 3) {
            bb |= inb(inp, pos, inLen) << bc
            pos++
            bc += 8
          }
          l = <i32>(bb & 7)
          bb >>>= 3
          bc -= 3
        }
        setLens(<i32>load<u8>(ORDER + <usize>i), l)
      }
      if (pos - (bc >>> 3) > inLen) return corrupt(E_EOF, op)
      const cbits = buildTable(0, 19, CODE_T, 128, 7, CODES)
      if (cbits < 0) return corrupt(E_CODE_LENGTHS, op)
      const cmask: u32 = (1 << cbits) - 1
      const total = nlen + ndist
      let have = 0
      while (have < total) {
        while (bc < 14) {
          bb |= inb(inp, pos, inLen) << bc
          pos++
          bc += 8
        }
        if (pos > inLen + 4) return corrupt(E_EOF, op)
        const e = tget(CODE_T, <i32>(bb & cmask))
        const sym = e >>> 8
        bb >>>= <u32>(e & BITS)
        bc -= e & BITS
        if (sym < 16) {
          setLens(have++, sym)
          continue
        }
        let len = 0
        let copy: i32
        if (sym === 16) {
          if (have === 0) return corrupt(E_REPEAT, op)
          len = lens(have - 1)
          copy = 3 + <i32>(bb & 3)
          bb >>>= 2
          bc -= 2
        } else if (sym === 17) {
          copy = 3 + <i32>(bb & 7)
          bb >>>= 3
          bc -= 3
        } else {
          copy = 11 + <i32>(bb & 127)
          bb >>>= 7
          bc -= 7
        }
        if (have + copy > total) return corrupt(E_REPEAT, op)
        while (copy-- > 0) setLens(have++, len)
      }
      if (pos - (bc >>> 3) > inLen) return corrupt(E_EOF, op)
      if (lens(256) === 0) return corrupt(E_NO_EOB, op)
      lt = LEN_T
      lbits = buildTable(0, nlen, LEN_T, 852, 9, LENS)
      if (lbits < 0) return corrupt(E_LITLEN_SET, op)
      dt = DIST_T
      dbits = buildTable(nlen, ndist, DIST_T, 592, 6, DISTS)
      if (dbits < 0) return corrupt(E_DIST_SET, op)
    } else return corrupt(E_BLOCK_TYPE, op)

    const lmask: u32 = (1 << lbits) - 1
    const dmask: u32 = (1 << dbits) - 1
    for (;;) {
      if (bc < 15) {
        if (pos + 1 < inLen) {
          bb |= (<u32>load<u16>(inp + <usize>pos)) << bc
          pos += 2
          bc += 16
        } else {
          while (bc < 15) {
            bb |= inb(inp, pos, inLen) << bc
            pos++
            bc += 8
          }
          if (pos > inLen + 4) return corrupt(E_EOF, op)
        }
      }
      let e = tget(lt, <i32>(bb & lmask))
      if (e & LINK) {
        bb >>>= <u32>lbits
        bc -= lbits
        e = tget(lt, (e >>> 8) + <i32>(bb & ((1 << (e & BITS)) - 1)))
      }
      if (e & INVALID) return corrupt(E_LITLEN_CODE, op)
      bb >>>= <u32>(e & BITS)
      bc -= e & BITS
      const sym = e >>> 8
      if (sym < 256) {
        if (op === cap) return pos - (bc >>> 3) > inLen ? corrupt(E_EOF, op) : OVER
        store<u8>(out + <usize>(op & mask), <u8>sym)
        op++
        continue
      }
      if (sym === 256) break
      if (sym > 285) return corrupt(E_LITLEN_CODE, op)
      const li = sym - 257
      const lx = <i32>load<u8>(LEXT + <usize>li)
      while (bc < 20) {
        bb |= inb(inp, pos, inLen) << bc
        pos++
        bc += 8
      }
      const length = <i32>load<u16>(LBASE + ((<usize>li) << 1)) + <i32>(bb & ((1 << lx) - 1))
      bb >>>= <u32>lx
      bc -= lx
      let d = tget(dt, <i32>(bb & dmask))
      if (d & LINK) {
        bb >>>= <u32>dbits
        bc -= dbits
        d = tget(dt, (d >>> 8) + <i32>(bb & ((1 << (d & BITS)) - 1)))
      }
      if (d & INVALID) return corrupt(E_DIST_CODE, op)
      bb >>>= <u32>(d & BITS)
      bc -= d & BITS
      const dsym = d >>> 8
      if (dsym > 29) return corrupt(E_DIST_CODE, op)
      const dx = <i32>load<u8>(DEXT + <usize>dsym)
      while (bc < 13) {
        bb |= inb(inp, pos, inLen) << bc
        pos++
        bc += 8
      }
      const dist = <i32>load<u16>(DBASE + ((<usize>dsym) << 1)) + <i32>(bb & ((1 << dx) - 1))
      bb >>>= <u32>dx
      bc -= dx
      if (pos - (bc >>> 3) > inLen) return corrupt(E_EOF, op)
      if (dist > op) return corrupt(E_TOO_FAR, op)
      if (op + length > cap) return pos - (bc >>> 3) > inLen ? corrupt(E_EOF, op) : OVER
      let from = op - dist
      const end = op + length
      if (mask !== -1) {
        while (op < end) {
          store<u8>(out + <usize>(op & mask), load<u8>(out + <usize>(from & mask)))
          op++
          from++
        }
      } else if (dist >= length) {
        memory.copy(out + <usize>op, out + <usize>from, <usize>length)
        op = end
      } else {
        while (op < end) {
          store<u8>(out + <usize>op, load<u8>(out + <usize>from))
          op++
          from++
        }
      }
    }
  } while (!final)
  if (pos - (bc >>> 3) > inLen) return corrupt(E_EOF, op)
  return op
}

/**
 * Inflates `count` entries in one call (a run of small entries: one call instead of one per
 * entry). Each is a record of 6 i32 at `table` + 24 * i: its input's address, input length,
 * declared size, expected CRC-32 and flags (1: check it as UTF-8), then its UTF-8 verdict, written
 * here (1 valid, 0 not; 1 when not asked). The outputs follow each other from `out` (the caller
 * leaves room for every declared size). Stops at the first entry that does not inflate to exactly
 * its declared size with that CRC-32, and returns how many entries passed: the caller takes that
 * one through the one-entry path, which says why.
 */
export function inflateBatch(table: usize, count: i32, out: usize): i32 {
  let o = out
  for (let i = 0; i < count; i++) {
    const r = table + <usize>i * 24
    const declared = load<i32>(r, 8)
    if (inflate(<usize>load<u32>(r), load<i32>(r, 4), o, -1, declared) !== declared) return i
    if (crc32(o, declared, 0) !== load<u32>(r, 12)) return i
    store<i32>(r, load<i32>(r, 16) & 1 ? utf8Valid(o, declared) : 1, 20)
    o += <usize>declared
  }
  return count
}

/** CRC-32 of the `n` bytes at `p`, continuing from `previous`. */
export function crc32(p: usize, n: i32, previous: u32): u32 {
  let c: u32 = ~previous
  let i: i32 = 0
  const end8 = n - (n & 7)
  for (; i < end8; i += 8) {
    const a = load<u32>(p + <usize>i) ^ c
    const b = load<u32>(p + <usize>i + 4)
    c =
      load<u32>(CRC_T + ((<usize>1792 + <usize>(a & 0xff)) << 2)) ^
      load<u32>(CRC_T + ((<usize>1536 + <usize>((a >>> 8) & 0xff)) << 2)) ^
      load<u32>(CRC_T + ((<usize>1280 + <usize>((a >>> 16) & 0xff)) << 2)) ^
      load<u32>(CRC_T + ((<usize>1024 + <usize>(a >>> 24)) << 2)) ^
      load<u32>(CRC_T + ((<usize>768 + <usize>(b & 0xff)) << 2)) ^
      load<u32>(CRC_T + ((<usize>512 + <usize>((b >>> 8) & 0xff)) << 2)) ^
      load<u32>(CRC_T + ((<usize>256 + <usize>((b >>> 16) & 0xff)) << 2)) ^
      load<u32>(CRC_T + ((<usize>(b >>> 24)) << 2))
  }
  for (; i < n; i++)
    c = load<u32>(CRC_T + ((<usize>((c ^ <u32>load<u8>(p + <usize>i)) & 0xff)) << 2)) ^ (c >>> 8)
  return ~c
}

/**
 * True (1) when the `n` bytes at `p` are valid UTF-8 as the WHATWG decoder's fatal mode requires
 * (no overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequence); ASCII is
 * checked eight bytes at a time.
 */
/** The high bit of each of eight bytes (written in halves: a JavaScript number cannot hold it). */
const HIGH_BITS: u64 = ((<u64>0x80808080) << 32) | 0x80808080

export function utf8Valid(p: usize, n: i32): i32 {
  let i: i32 = 0
  while (i < n) {
    if (i + 8 <= n && (load<u64>(p + <usize>i) & HIGH_BITS) === 0) {
      i += 8
      continue
    }
    const b = <i32>load<u8>(p + <usize>i)
    if (b < 0x80) {
      i++
      continue
    }
    let need: i32
    let lo: i32 = 0x80
    let hi: i32 = 0xbf
    if (b >= 0xc2 && b <= 0xdf) need = 1
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2
      if (b === 0xe0) lo = 0xa0
      else if (b === 0xed) hi = 0x9f
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3
      if (b === 0xf0) lo = 0x90
      else if (b === 0xf4) hi = 0x8f
    } else return 0
    if (i + need >= n) return 0 // truncated: the sequence runs past the end
    const c = <i32>load<u8>(p + <usize>i + 1)
    if (c < lo || c > hi) return 0
    for (let k = 2; k <= need; k++) {
      const d = <i32>load<u8>(p + <usize>(i + k))
      if (d < 0x80 || d > 0xbf) return 0
    }
    i += need + 1
  }
  return 1
}
