import { deflateBomb } from '@spkg/test-utils'
import { deflateSync } from 'fflate'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { describeInflater } from '../test/inflater-contract'
import { crc32 } from './crc32'
import { boundedInflater, createWebInflater } from './inflate'
import { hasDeflateRawStream, inflateRawStream } from './inflate-stream'
import type { InflateResult } from './inflate-types'
import { loadInflateWasm, WASM_MAX_BYTES } from './inflate-wasm'

const text = new TextEncoder().encode('the inn door creaks open. '.repeat(4000))
const packed = deflateSync(text)

describeInflater('bounded JavaScript', boundedInflater.inflateRaw)
describeInflater('DecompressionStream', inflateRawStream)

describe('DecompressionStream inflater', () => {
  it('is available in this Node', () => {
    expect(hasDeflateRawStream()).toBe(true)
  })

  it('stops a bomb that declares its real size at the limit, reading no further', async () => {
    const bomb = deflateBomb(256 * 2 ** 20)
    for (const limit of [2 ** 20, 8 * 2 ** 20, 30 * 2 ** 20]) {
      const r = await inflateRawStream(bomb, 256 * 2 ** 20, limit)
      expect(r).toMatchObject({ ok: false, reason: 'limit' })
      if (!r.ok) {
        expect(r.produced).toBeGreaterThan(limit)
        expect(r.produced).toBeLessThanOrEqual(limit + 2 * 1032 * 512)
      }
    }
  })

  it('writes a bomb in slices bounded by the remaining budget and cancels the stream', async () => {
    const bomb = deflateBomb(64 * 2 ** 20)
    const write = vi.spyOn(WritableStreamDefaultWriter.prototype, 'write')
    const cancel = vi.spyOn(ReadableStreamDefaultReader.prototype, 'cancel')
    try {
      const r = await inflateRawStream(bomb, 64 * 2 ** 20, 4 * 2 ** 20)
      expect(r).toMatchObject({ ok: false, reason: 'limit' })
      const sizes = write.mock.calls.map(([chunk]) => (chunk as Uint8Array).length)
      // Never more input than the budget allows at deflate's 1032:1, and far from all of it.
      expect(Math.max(...sizes)).toBeLessThanOrEqual(Math.floor((4 * 2 ** 20) / 1032))
      expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(bomb.length / 4)
      expect(cancel).toHaveBeenCalledTimes(1)
    } finally {
      write.mockRestore()
      cancel.mockRestore()
    }
  })
})

describe('DecompressionStream inflater and the CRC-32', () => {
  it('leaves the check to the caller (extract-entry computes it)', async () => {
    const r = await inflateRawStream(packed, text.length, 50 * 2 ** 20)
    expect(r).toEqual({ ok: true, data: text })
  })

  it('reports corrupt data', async () => {
    const r = await inflateRawStream(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 10, 1000)
    expect(r).toMatchObject({ ok: false, reason: 'corrupt' })
  })
})

describe('createWebInflater', () => {
  beforeAll(() => loadInflateWasm())
  const stream = vi.fn(inflateRawStream)
  const inflater = createWebInflater({ streamFrom: 200, stream })
  const small = deflateSync(text.subarray(0, 100))

  it('inflates entries below the threshold without the stream, synchronously once loaded', () => {
    stream.mockClear()
    const r = inflater.inflateRawAsync!(small, 100, 2 ** 20)
    expect(r).not.toBeInstanceOf(Promise)
    expect((r as InflateResult).ok && (r as { data: Uint8Array }).data).toEqual(text.subarray(0, 100))
    expect(stream).not.toHaveBeenCalled()
  })

  it('without WebAssembly, hands entries from the threshold on to the stream inflater', async () => {
    const js = createWebInflater({ streamFrom: 200, stream, wasm: false })
    stream.mockClear()
    expect(small.length).toBeLessThan(200)
    expect(packed.length).toBeGreaterThanOrEqual(200)
    const r = js.inflateRawAsync!(packed, text.length, 2 ** 24)
    expect(r).toBeInstanceOf(Promise)
    expect(await r).toMatchObject({ ok: true, data: text })
    expect(stream).toHaveBeenCalledTimes(1)
  })

  it('with WebAssembly, inflates in the module whatever the size, and streams only what does not fit it', async () => {
    stream.mockClear()
    expect(inflater.inflateRawAsync!(packed, text.length, 2 ** 24, crc32(text))).toMatchObject({
      ok: true,
      data: text,
      crcChecked: true,
    })
    expect(stream).not.toHaveBeenCalled()
    const zeros = new Uint8Array(WASM_MAX_BYTES)
    const r = inflater.inflateRawAsync!(deflateSync(zeros), zeros.length, 2 ** 24, crc32(zeros))
    expect(r).toBeInstanceOf(Promise)
    const streamed = await r
    expect(streamed.ok && streamed.data.length === zeros.length && streamed.data.every((b) => b === 0)).toBe(
      true,
    )
    expect(stream).toHaveBeenCalledTimes(1)
    // Without a stream (streamFrom Infinity, as in Node), JavaScript takes it.
    const node = createWebInflater({ streamFrom: Number.POSITIVE_INFINITY, stream })
    const js = node.inflateRawAsync!(deflateSync(zeros), zeros.length, 2 ** 24)
    expect(js).not.toBeInstanceOf(Promise)
    expect((js as InflateResult).ok && (js as { data: Uint8Array }).data.length).toBe(zeros.length)
    expect(stream).toHaveBeenCalledTimes(1)
  })

  it('inflates synchronous calls without the stream whatever the size', () => {
    stream.mockClear()
    expect(inflater.inflateRaw(packed, text.length, 2 ** 24)).toMatchObject({ ok: true, data: text })
    expect(stream).not.toHaveBeenCalled()
  })

  it('inflates small entries with the WebAssembly build (which checks the CRC-32), unless told not to', async () => {
    const crc = crc32(text.subarray(0, 100))
    expect(await inflater.inflateRawAsync!(small, 100, 2 ** 20, crc)).toMatchObject({
      ok: true,
      crcChecked: true,
    })
    const js = createWebInflater({ streamFrom: 200, stream, wasm: false })
    const r = await js.inflateRawAsync!(small, 100, 2 ** 20, crc)
    expect(r).toEqual({ ok: true, data: text.subarray(0, 100) })
    expect(js.inflateRaw(small, 100, 2 ** 20)).toEqual(r)
  })
})
