import { deflateRawSync } from 'node:zlib'
import { fc, test } from '@fast-check/vitest'
import { mutate } from '@spkg/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { compileInflateWasm } from '../../wasm/compile'
import { crc32 } from './crc32'
import { inflateBounded } from './inflate-bounded'
import { inflateWasm, isUtf8Wasm, loadInflateWasm, WASM_MAX_BYTES } from './inflate-wasm'
import { INFLATE_WASM_BASE64 } from './inflate-wasm-binary'

expect(await loadInflateWasm()).toBe(true)

const text = new TextEncoder().encode(
  Array.from({ length: 300 }, (_, i) => `Line ${i}: the ferry ${i % 4 ? 'waits' : 'leaves'}.\n`).join(''),
)

describe('the embedded WebAssembly module', () => {
  it('is what wasm/inflate.ts compiles to (run `pnpm --filter @spkg/reader build:wasm` after editing it)', async () => {
    const fresh = Buffer.from(await compileInflateWasm()).toString('base64')
    expect(fresh === INFLATE_WASM_BASE64, 'src/zip/inflate-wasm-binary.ts is stale').toBe(true)
  }, 60_000)
})

describe('inflateWasm', () => {
  test.prop(
    [
      fc.constantFrom(text, text.subarray(0, 200), new Uint8Array(40_000).fill(7)),
      fc.integer({ min: 0, max: 9 }),
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.integer({ min: 0, max: 255 }),
          fc.constantFrom('flip', 'cut', 'drop', 'insert', 'set'),
        ),
        { maxLength: 3 },
      ),
      fc.constantFrom(0, -1, 1, 5000),
      fc.constantFrom(0, -1, 1, 1 << 20),
    ],
    { numRuns: 800 },
  )(
    'answers exactly as the JavaScript inflater (result, size, message, where it failed)',
    (data, level, edits, dDeclared, dLimit) => {
      const input = mutate(deflateRawSync(data, { level }), edits)
      const declared = Math.max(0, data.length + dDeclared)
      const limit = Math.max(0, data.length + dLimit)
      expect(inflateWasm(input, declared, limit)).toEqual(inflateBounded(input, declared, limit))
    },
  )

  it('checks the CRC-32 in module memory when given one, and leaves a mismatch to the caller', () => {
    const packed = deflateRawSync(text)
    const crc = crc32(text)
    expect(inflateWasm(packed, text.length, text.length, crc)).toEqual({
      ok: true,
      data: text,
      crcChecked: true,
    })
    expect(inflateWasm(packed, text.length, text.length, (crc ^ 1) >>> 0)).toEqual({
      ok: true,
      data: text,
      crcChecked: false,
    })
    expect(inflateWasm(packed, text.length, text.length)).toEqual({ ok: true, data: text })
  })

  it('grows its memory for larger entries and declines entries past WASM_MAX_BYTES', () => {
    const big = new Uint8Array(WASM_MAX_BYTES / 2).map((_, i) => (i * 2654435761) >>> 27)
    const packed = deflateRawSync(big, { level: 1 })
    const r = inflateWasm(packed, big.length, big.length, crc32(big))
    expect(r).toMatchObject({ ok: true, crcChecked: true })
    expect(r?.ok && Buffer.from(r.data).equals(Buffer.from(big))).toBe(true)
    // Small entries after the growth still read the new memory.
    expect(inflateWasm(deflateRawSync(text), text.length, text.length)).toEqual({ ok: true, data: text })
    const tooBig = new Uint8Array(WASM_MAX_BYTES)
    expect(inflateWasm(deflateRawSync(tooBig), tooBig.length, tooBig.length)).toBeUndefined()
    // A bomb needs only its budget's worth of memory, or the window when it is counted.
    const bomb = deflateRawSync(new Uint8Array(32 << 20), { level: 9 })
    expect(inflateWasm(bomb, 100, 1 << 30)).toMatchObject({ ok: false, reason: 'size', produced: 32 << 20 })
    expect(inflateWasm(bomb, 100, 1 << 20)).toMatchObject({ ok: false, reason: 'limit' })
  })
})

describe('isUtf8Wasm', () => {
  const strict = new TextDecoder('utf-8', { fatal: true })
  const decodes = (b: Uint8Array) => {
    try {
      strict.decode(b)
      return true
    } catch {
      return false
    }
  }

  it.each<[string, number[]]>([
    ['empty', []],
    ['ASCII across word boundaries', [...'0123456789abcdefghi'].map((c) => c.charCodeAt(0))],
    [
      '2-, 3- and 4-byte forms at their limits',
      [
        0xc2, 0x80, 0xdf, 0xbf, 0xe0, 0xa0, 0x80, 0xef, 0xbf, 0xbf, 0xf0, 0x90, 0x80, 0x80, 0xf4, 0x8f, 0xbf,
        0xbf,
      ],
    ],
    ['an overlong 2-byte form', [0xc0, 0x80]],
    ['an overlong 3-byte form', [0xe0, 0x9f, 0xbf]],
    ['an overlong 4-byte form', [0xf0, 0x8f, 0xbf, 0xbf]],
    ['a surrogate', [0xed, 0xa0, 0x80]],
    ['the last code point before the surrogates', [0xed, 0x9f, 0xbf]],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['lead byte F5', [0xf5, 0x80, 0x80, 0x80]],
    ['a lone continuation byte', [0x41, 0x80]],
    ['a sequence cut at the end', [0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0xe2, 0x82]],
    ['a sequence cut by ASCII', [0xe2, 0x41, 0x41]],
    ['a byte-order mark', [0xef, 0xbb, 0xbf, 0x41]],
  ])('agrees with TextDecoder (fatal) on %s', (_, bytes) => {
    const b = new Uint8Array(bytes)
    expect(isUtf8Wasm(b)).toBe(decodes(b))
  })

  test.prop(
    [
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
    ],
    { numRuns: 3000 },
  )('agrees with TextDecoder (fatal) on any text with any bytes changed', (text, edits) => {
    const b = new TextEncoder().encode(text)
    for (const [at, v] of edits) if (b.length > 0) b[at % b.length] = v
    expect(isUtf8Wasm(b)).toBe(decodes(b))
  })

  test.prop([fc.uint8Array({ maxLength: 64 })], { numRuns: 3000 })('agrees on arbitrary bytes', (b) => {
    expect(isUtf8Wasm(b)).toBe(decodes(b))
  })

  it('declines data larger than its memory bound', () => {
    expect(isUtf8Wasm(new Uint8Array(WASM_MAX_BYTES + 1))).toBeUndefined()
    expect(isUtf8Wasm(new Uint8Array(WASM_MAX_BYTES).fill(0x41))).toBe(true)
  })
})

/** Fresh copies of the modules (nothing loaded yet), and a web inflater that never streams. */
async function fresh() {
  vi.resetModules()
  const wasm = await import('./inflate-wasm')
  const inflater = (await import('./inflate')).createWebInflater({
    streamFrom: Number.POSITIVE_INFINITY,
    stream: () => Promise.reject(),
  })
  return { wasm, inflater }
}

describe('loading', () => {
  afterEach(() => {
    vi.resetModules()
  })

  it('starts on prepare() or on the first asynchronous call, in the background; JavaScript answers until then', async () => {
    const { wasm, inflater } = await fresh()
    const packed = deflateRawSync(text)
    const crc = crc32(text)
    // Synchronous calls never wait for the module.
    expect(inflater.inflateRaw(packed, text.length, text.length)).toEqual({ ok: true, data: text })
    expect(wasm.inflateWasmReady()).toBe(false)
    const first = inflater.inflateRawAsync!(packed, text.length, text.length, crc)
    expect(first).toBeInstanceOf(Promise)
    expect(await first).toEqual({ ok: true, data: text, crcChecked: true })
    expect(wasm.inflateWasmReady()).toBe(true)
    expect(inflater.inflateRawAsync!(packed, text.length, text.length, crc)).toEqual({
      ok: true,
      data: text,
      crcChecked: true,
    })

    const again = await fresh()
    again.inflater.prepare!()
    expect(await again.wasm.loadInflateWasm()).toBe(true)
    expect(again.inflater.inflateRaw(packed, text.length, text.length)).toEqual({ ok: true, data: text })
  })
})

describe('without WebAssembly', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.resetModules()
  })

  it.each<[string, unknown]>([
    ['missing', undefined],
    [
      'refused (a Content Security Policy without wasm-unsafe-eval)',
      {
        instantiate: () => Promise.reject(new Error('Refused to compile or instantiate WebAssembly module')),
      },
    ],
  ])('when it is %s, loading answers false and the web inflater inflates in JavaScript', async (_, stub) => {
    vi.stubGlobal('WebAssembly', stub)
    const { wasm, inflater } = await fresh()
    const packed = deflateRawSync(text)
    expect(await inflater.inflateRawAsync?.(packed, text.length, text.length, crc32(text))).toEqual({
      ok: true,
      data: text,
    })
    expect(inflater.inflateRaw(packed, text.length, text.length)).toEqual({ ok: true, data: text })
    expect(await wasm.loadInflateWasm()).toBe(false)
    expect(wasm.inflateWasmReady()).toBe(false)
    expect(wasm.inflateWasm(packed, text.length, text.length)).toBeUndefined()
  })
})
