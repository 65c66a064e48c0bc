import { deflateRawSync } from 'node:zlib'
import { fc, test } from '@fast-check/vitest'
import { mutate } from '@spkg/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { compileInflateWasm } from '../wasm/compile'
import { crc32 } from './crc32'
import { inflateBounded } from './inflate-bounded'
import {
  inflateBatchWasm,
  inflateWasm,
  isUtf8Wasm,
  loadInflateWasm,
  moduleBytes,
  WASM_MAX_BYTES,
} from './inflate-wasm'

expect(await loadInflateWasm()).toBe(true)

const text = new TextEncoder().encode(
  Array.from({ length: 300 }, (_, i) => `Line ${i}: the ferry ${i % 4 ? 'waits' : 'leaves'}.\n`).join(''),
)

describe('the embedded WebAssembly module', () => {
  it('is what wasm/inflate.ts compiles to (run `pnpm --filter @spkg/reader build:wasm` after editing it)', async () => {
    const fresh = Buffer.from(await compileInflateWasm())
    expect(fresh.equals(moduleBytes()), 'src/zip/inflate-wasm-binary.ts is stale').toBe(true)
  }, 60_000)

  it('decodes the same bytes where neither Uint8Array.fromHex nor Buffer exists', () => {
    const native = moduleBytes()
    const U = Uint8Array as unknown as { fromHex?: unknown }
    const fromHex = U.fromHex
    delete U.fromHex
    vi.stubGlobal('Buffer', undefined)
    try {
      expect(moduleBytes()).toEqual(native)
    } finally {
      vi.unstubAllGlobals()
      if (fromHex) U.fromHex = fromHex
    }
    expect([...native.subarray(0, 4)]).toEqual([0, 0x61, 0x73, 0x6d])
  })
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

/** An archive-like buffer of raw deflate streams with a gap before each, and their batch entries. */
function streams(files: Uint8Array[], gap = 30) {
  const parts: Uint8Array[] = []
  const entries: Array<{ dataOffset: number; compressedSize: number; size: number; crc32: number }> = []
  let at = 0
  for (const f of files) {
    const z = deflateRawSync(f)
    parts.push(new Uint8Array(gap).fill(0xee), z)
    entries.push({ dataOffset: at + gap, compressedSize: z.length, size: f.length, crc32: crc32(f) })
    at += gap + z.length
  }
  return { bytes: new Uint8Array(Buffer.concat(parts)), entries }
}

describe('inflateBatchWasm', () => {
  const enc = (s: string) => new TextEncoder().encode(s)
  const files = [text, enc('short'), new Uint8Array(0), text.subarray(0, 999), enc('caf\u00e9 \u{1f600}')]
  const split = (r: { data: Uint8Array }, sizes: number[]) => {
    let at = 0
    return sizes.map((n) => {
      at += n
      return r.data.subarray(at - n, at)
    })
  }

  it('inflates a run in one call: each entry its declared bytes, one after another, UTF-8 checked where asked', () => {
    const bad = new Uint8Array([0x41, 0xff, 0x42])
    const all = [...files, bad]
    const { bytes, entries } = streams(all)
    const r = inflateBatchWasm(bytes, entries, 0, bytes.length, (i) => i !== 2)!
    expect(r.count).toBe(all.length)
    expect(
      split(
        r,
        all.map((f) => f.length),
      ),
    ).toEqual(all)
    // Entry 2 was not asked (1); the last is not UTF-8.
    expect([...r.utf8]).toEqual([1, 1, 1, 1, 1, 0])
  })

  it('reads the inputs from the range [lo, hi) of the archive it is given', () => {
    const { bytes, entries } = streams(files, 100)
    const lo = entries[0]!.dataOffset
    const r = inflateBatchWasm(bytes, entries, lo, bytes.length, () => false)!
    expect(
      split(
        r,
        files.map((f) => f.length),
      ),
    ).toEqual(files)
  })

  it.each<[string, (e: { size: number; crc32: number }) => void]>([
    [
      'a CRC-32 that does not match',
      (e) => {
        e.crc32 ^= 1
      },
    ],
    [
      'a declared size one byte short',
      (e) => {
        e.size -= 1
      },
    ],
    [
      'a declared size one byte long',
      (e) => {
        e.size += 1
      },
    ],
  ])('stops at the first entry that fails (%s) and says how many passed', (_, spoil) => {
    const { bytes, entries } = streams(files)
    spoil(entries[3]!)
    const r = inflateBatchWasm(bytes, entries, 0, bytes.length, () => true)!
    expect(r.count).toBe(3)
    expect(
      split(
        r,
        files.slice(0, 3).map((f) => f.length),
      ),
    ).toEqual(files.slice(0, 3))
    expect(r.utf8.length).toBe(3)
  })

  it('stops at a corrupt stream, and at once when the first entry fails', () => {
    const { bytes, entries } = streams(files)
    bytes.fill(0xff, entries[1]!.dataOffset, entries[1]!.dataOffset + entries[1]!.compressedSize)
    expect(inflateBatchWasm(bytes, entries, 0, bytes.length, () => true)!.count).toBe(1)
    expect(inflateBatchWasm(bytes, entries.slice(1), 0, bytes.length, () => true)).toMatchObject({
      count: 0,
      data: new Uint8Array(0),
    })
  })

  it("never writes past an entry's declared size into the next one's output (a longer stream)", () => {
    const { bytes, entries } = streams([text, enc('next')])
    entries[0]!.size = 10
    const r = inflateBatchWasm(bytes, entries, 0, bytes.length, () => false)!
    expect(r.count).toBe(0)
    // The entry on its own says why, as before.
    const one = entries[0]!
    const input = bytes.subarray(one.dataOffset, one.dataOffset + one.compressedSize)
    expect(inflateWasm(input, 10, 1 << 20)).toEqual({ ok: false, reason: 'size', produced: text.length })
  })

  it('declines a run that does not fit its memory bound', () => {
    const big = new Uint8Array(WASM_MAX_BYTES / 2).fill(1)
    const { bytes, entries } = streams([big, big])
    expect(inflateBatchWasm(bytes, entries, 0, bytes.length, () => false)).toBeUndefined()
    expect(inflateBatchWasm(bytes, entries.slice(0, 1), 0, bytes.length, () => false)?.count).toBe(1)
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
