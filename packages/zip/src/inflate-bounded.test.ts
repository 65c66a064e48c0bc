import { constants, deflateRawSync, inflateRawSync, type ZlibOptions } from 'node:zlib'
import { fc, test } from '@fast-check/vitest'
import { DeflateBits as Bits, manyHuffmanBlocks, mutate } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { inflateBounded } from './inflate-bounded'
import type { InflateResult } from './inflate-types'
import { inflateWasm, loadInflateWasm } from './inflate-wasm'

type Inflate = (input: Uint8Array, declared: number, limit: number) => InflateResult

expect(await loadInflateWasm()).toBe(true)
/** The WebAssembly build, which must take every stream of these tests (none needs 4 MiB). */
const wasm: Inflate = (input, declared, limit) => {
  const r = inflateWasm(input, declared, limit)
  if (!r) throw new Error('the WebAssembly inflater declined the stream')
  return r
}

/** What node:zlib makes of `input`: the bytes, or undefined when it refuses the stream. */
function zlib(input: Uint8Array): Uint8Array | undefined {
  try {
    return new Uint8Array(inflateRawSync(input, { maxOutputLength: 1 << 20 }))
  } catch {
    return undefined
  }
}

/** Asserts that `inflate` accepts exactly what zlib accepts, with the same bytes. */
function agreesWithZlib(inflate: Inflate, input: Uint8Array): void {
  const expected = zlib(input)
  if (expected === undefined) {
    const r = inflate(input, 1 << 20, 1 << 21)
    expect(r.ok, 'zlib refuses this stream').toBe(false)
    return
  }
  const len = expected.length
  const r = inflate(input, len, len)
  expect(r.ok, r.ok ? '' : `${r.reason}: ${r.message}`).toBe(true)
  if (r.ok) expect(Buffer.from(r.data).equals(Buffer.from(expected))).toBe(true)
  // Declared one byte short: counted on to the real length, or stopped at a budget it passes.
  // Declared one byte long: the real length.
  if (len > 0) {
    expect(inflate(input, len - 1, 1 << 21)).toMatchObject({
      ok: false,
      reason: 'size',
      produced: len,
    })
    expect(inflate(input, len - 1, len - 1)).toMatchObject({ ok: false, reason: 'limit' })
    if (len > 1) expect(inflate(input, 0, len - 1)).toMatchObject({ ok: false, reason: 'limit' })
  }
  expect(inflate(input, len + 1, 1 << 21)).toMatchObject({ ok: false, reason: 'size', produced: len })
  expect(inflate(input, 1 << 21, len)).toMatchObject({ ok: false, reason: 'size', produced: len })
}

/**
 * A final dynamic block's header (HLIT 257, HDIST 1) with these code-length code lengths, in the
 * order they are sent (16, 17, 18, 0, 8, ...).
 */
function dynamicHeader(...lengths: number[]): Uint8Array {
  const w = new Bits()
    .put(1, 1)
    .put(2, 2)
    .put(0, 5)
    .put(0, 5)
    .put(lengths.length - 4, 4)
  for (const l of lengths) w.put(l, 3)
  return w.done()
}

/** A fixed-Huffman literal/length code (RFC 1951 3.2.6). */
function fixedCode(w: Bits, sym: number): Bits {
  if (sym < 144) return w.code(0x30 + sym, 8)
  if (sym < 256) return w.code(0x190 + sym - 144, 9)
  if (sym < 280) return w.code(sym - 256, 7)
  return w.code(0xc0 + sym - 280, 8)
}

const text = new TextEncoder().encode(
  Array.from(
    { length: 400 },
    (_, i) => `Line ${i}: the lamp gutters; you ${i % 3 ? 'wait' : 'go north'}.\n`,
  ).join(''),
)
const noise = Uint8Array.from({ length: 5000 }, (_, i) => (i * 2654435761) >>> 24)

describe.each<[string, Inflate]>([
  ['inflateBounded (JavaScript)', inflateBounded],
  ['inflateWasm (WebAssembly)', wasm],
])('%s', (_, inflate) => {
  const options: [string, ZlibOptions][] = [
    ['level 1', { level: 1 }],
    ['level 6', { level: 6 }],
    ['level 9', { level: 9 }],
    ['stored (level 0)', { level: 0 }],
    ['fixed Huffman', { strategy: constants.Z_FIXED }],
    ['Huffman only', { strategy: constants.Z_HUFFMAN_ONLY }],
    ['run lengths', { strategy: constants.Z_RLE }],
    ['filtered, small window and memory', { strategy: constants.Z_FILTERED, windowBits: 9, memLevel: 1 }],
  ]
  it.each(options)('inflates what zlib deflates (%s)', (_, opts) => {
    for (const data of [
      text,
      noise,
      new Uint8Array(0),
      new Uint8Array(70000).fill(97),
      text.subarray(0, 1),
    ]) {
      const packed = deflateRawSync(data, opts)
      const r = inflate(packed, data.length, data.length)
      expect(r.ok && Buffer.from(r.data).equals(Buffer.from(data))).toBe(true)
      agreesWithZlib(inflate, packed)
    }
  })

  it('ignores bytes after the final block, as zlib does', () => {
    const packed = deflateRawSync(text)
    const r = inflate(new Uint8Array([...packed, 1, 2, 3]), text.length, text.length)
    expect(r.ok && r.data).toEqual(text)
  })

  it('stops at the budget however much the stream holds, counting past the declared size', () => {
    // 64 MiB of zeros in about 64 kB: declared 1 kB, a budget of 1 MiB.
    const bomb = deflateRawSync(new Uint8Array(64 << 20), { level: 9 })
    expect(inflate(bomb, 1024, 1 << 20)).toMatchObject({
      ok: false,
      reason: 'limit',
      produced: (1 << 20) + 1,
    })
    expect(inflate(bomb, 64 << 20, 1 << 20)).toMatchObject({ ok: false, reason: 'limit' })
    // Counted through the window, a longer stream reports its real length.
    const text4 = deflateRawSync(Buffer.concat([text, text, text, text]))
    expect(inflate(text4, 100, 1 << 20)).toMatchObject({
      ok: false,
      reason: 'size',
      produced: text.length * 4,
    })
  })

  it.each<[string, Uint8Array]>([
    ['an empty input', new Uint8Array(0)],
    ['block type 3', new Bits().put(1, 1).put(3, 2).done()],
    [
      'a stored block whose length does not match its complement',
      new Uint8Array([1, 5, 0, 0xfa, 0xfe, 1, 2, 3, 4, 5]),
    ],
    ['a truncated stored block', new Uint8Array([1, 5, 0, 0xfa, 0xff, 1, 2])],
    ['a fixed block with literal/length symbol 286', fixedCode(new Bits().put(1, 1).put(1, 2), 286).done()],
    [
      'a fixed block with distance symbol 30',
      fixedCode(fixedCode(new Bits().put(1, 1).put(1, 2), 65), 257)
        .code(30, 5)
        .done(),
    ],
    [
      'a distance before the start of the output',
      fixedCode(new Bits().put(1, 1).put(1, 2), 257).code(0, 5).done(),
    ],
    ['a fixed block without its end', fixedCode(new Bits().put(1, 1).put(1, 2), 65).done()],
    // Code-length code lengths for 16, 17, 18, 0: symbols 16 and 17 get one-bit codes, so the
    // first code length read (a zero bit) is 16, a repeat of nothing.
    ['a repeat code with no previous length', dynamicHeader(1, 1, 0, 0)],
    ['an over-subscribed code-length code', dynamicHeader(1, 1, 1, 0)],
    [
      'too many length symbols (HLIT 30)',
      new Bits().put(1, 1).put(2, 2).put(30, 5).put(0, 5).put(0, 4).done(),
    ],
  ])('refuses %s, as zlib does', (_, input) => {
    expect(zlib(input)).toBeUndefined()
    expect(inflate(input, 1000, 1000)).toMatchObject({ ok: false })
  })

  it('inflates a stream of many blocks with 15-bit codes with small tables, as zlib does', () => {
    // 20,000 dynamic blocks whose literal/length code runs to 15 bits, each holding only its end
    // of block: 0.5 MB that inflate to nothing. A decoder that builds a 2^15-entry table per block
    // (fflate did) does 650 million writes for it; zlib's tables (and these) stay under 852 entries.
    const input = manyHuffmanBlocks(20_000)
    expect(zlib(input)).toEqual(new Uint8Array(0))
    expect(inflate(input, 0, 0)).toMatchObject({ ok: true, data: new Uint8Array(0) })
  })

  it('accepts a distance code with one code of one bit (an incomplete code zlib allows)', () => {
    // Dynamic block: literal 'a' (length 1), end of block (length 1); one distance code, length 1.
    // Code-length code: lengths 1 and 0 ... built by zlib's own rule, checked against zlib.
    const w = new Bits().put(1, 1).put(2, 2).put(0, 5).put(0, 5).put(14, 4)
    // Code-length code lengths in ORDER 16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1,15.
    // Give symbols 18 (long zero run), 1 (length 1) and 0 each a code: 18 -> 2 bits, 1 -> 2 bits, 0 -> 1 bit.
    const cl = new Map([
      [18, 2],
      [1, 2],
      [0, 1],
    ])
    const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
    for (const sym of order) w.put(cl.get(sym) ?? 0, 3)
    // Canonical codes: 0 -> '0', 1 -> '10', 18 -> '11'.
    const emit = (sym: number) => (sym === 0 ? w.code(0, 1) : sym === 1 ? w.code(2, 2) : w.code(3, 2))
    // Literal/length lengths: 97 zeros, 'a' = 1, 158 zeros, 256 = 1; then one distance length of 1.
    emit(18).put(97 - 11, 7)
    emit(1)
    emit(18).put(138 - 11, 7)
    emit(18).put(20 - 11, 7)
    emit(1)
    emit(1)
    // Data: 'a' (code 0), end of block (code 1).
    w.code(0, 1).code(1, 1)
    const input = w.done()
    expect(zlib(input)).toEqual(new Uint8Array([97]))
    agreesWithZlib(inflate, input)
  })

  test.prop(
    [fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 0, max: 9 }), fc.constantFrom(0, 1, 2, 3, 4)],
    {
      numRuns: 300,
    },
  )('inflates what zlib deflates, for any data, level and strategy', (data, level, strategy) => {
    const packed = deflateRawSync(data, { level, strategy })
    const r = inflate(packed, data.length, data.length)
    expect(r.ok && Buffer.from(r.data).equals(Buffer.from(data))).toBe(true)
  })

  test.prop(
    [
      fc.constantFrom(text, noise, text.subarray(0, 300)),
      fc.integer({ min: 0, max: 9 }),
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.integer({ min: 0, max: 255 }),
          fc.constantFrom('flip', 'cut', 'drop', 'insert'),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    ],
    { numRuns: 1500 },
  )('accepts exactly what zlib accepts after any mutation, with the same bytes', (data, level, edits) => {
    agreesWithZlib(inflate, mutate(deflateRawSync(data, { level }), edits))
  })

  test.prop([fc.uint8Array({ minLength: 1, maxLength: 200 })], { numRuns: 1500 })(
    'accepts exactly what zlib accepts on arbitrary bytes',
    (bytes) => {
      agreesWithZlib(inflate, bytes)
    },
  )
})
