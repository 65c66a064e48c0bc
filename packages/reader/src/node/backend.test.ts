/**
 * The Node inflater allocates output only for an entry that inflates to exactly its declared size
 * (a stream of hostile packages could take a server to 3.2 GiB of RSS, because node:zlib
 * allocates the declared size up front and every buffer a corrupt stream, a bomb or a size lie
 * left behind waited for the garbage collector). node:zlib is watched through the injected call.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { fc, test } from '@fast-check/vitest'
import { deflateBomb, mutate } from '@spkg/test-utils'
import { type InflateResult, inflateBounded } from '@spkg/zip'
import { describe, expect, it } from 'vitest'
import { describeInflater } from '../../../zip/test/inflater-contract'
import { createNodeInflater, type InflateRawSync, zlibInflater } from './backend'

const MiB = 1024 * 1024
const LIMIT = 50 * MiB

/** A node inflater whose node:zlib calls are recorded. */
function watched() {
  const calls: { declaredChunk: number; maxOutputLength: number }[] = []
  const zlib: InflateRawSync = (input, options) => {
    calls.push({ declaredChunk: options.chunkSize, maxOutputLength: options.maxOutputLength })
    return inflateRawSync(input, options)
  }
  return { inflater: createNodeInflater(zlib), calls }
}

/** Text-like bytes that deflate well. */
function text(n: number): Uint8Array {
  const b = new Uint8Array(n)
  for (let i = 0; i < n; i++) b[i] = 97 + ((i * 7 + (i >> 9)) % 26)
  return b
}

describe('createNodeInflater: output is allocated only for an entry of exactly its declared size', () => {
  it('refuses a bomb past the budget without calling node:zlib', () => {
    const { inflater, calls } = watched()
    const r = inflater.inflateRaw(deflateBomb(LIMIT + MiB), 8 * MiB, LIMIT)
    expect(r).toEqual({ ok: false, reason: 'limit', produced: LIMIT + 1 })
    expect(calls).toEqual([])
  })

  it('refuses a lie about the size (declares 40 MiB, holds 600 bytes) without calling node:zlib', () => {
    const { inflater, calls } = watched()
    const r = inflater.inflateRaw(deflateRawSync(text(600)), 40 * MiB, LIMIT)
    expect(r).toEqual({ ok: false, reason: 'size', produced: 600 })
    expect(calls).toEqual([])
  })

  it('refuses a bomb that declares less than it holds, under the budget, without calling node:zlib', () => {
    const { inflater, calls } = watched()
    const r = inflater.inflateRaw(deflateBomb(30 * MiB), 5 * MiB, LIMIT)
    expect(r).toEqual({ ok: false, reason: 'size', produced: 30 * MiB })
    expect(calls).toEqual([])
  })

  it('refuses a corrupt stream with zlib’s message without calling node:zlib', () => {
    const { inflater, calls } = watched()
    const good = deflateRawSync(text(6 * MiB))
    const bad = good.slice(0, good.length >> 1) // ends early
    const r = inflater.inflateRaw(bad, 6 * MiB, LIMIT)
    let zlibMessage = ''
    try {
      inflateRawSync(bad)
    } catch (e) {
      zlibMessage = (e as Error).message
    }
    expect(r).toMatchObject({ ok: false, reason: 'corrupt', message: zlibMessage })
    expect(calls).toEqual([])
  })

  it('inflates an honest large entry with node:zlib into one buffer of its size', () => {
    const { inflater, calls } = watched()
    const data = text(6 * MiB)
    const r = inflater.inflateRaw(deflateRawSync(data), data.length, LIMIT)
    expect(r.ok && Buffer.from(r.data).equals(data)).toBe(true)
    expect(calls).toEqual([{ declaredChunk: data.length + 1, maxOutputLength: LIMIT + 1 }])
  })

  it('inflates a small entry with node:zlib into one buffer of its size, stopping one byte past it', () => {
    const { inflater, calls } = watched()
    const data = text(20_000)
    const r = inflater.inflateRaw(deflateRawSync(data), data.length, LIMIT)
    expect(r.ok && Buffer.from(r.data).equals(data)).toBe(true)
    expect(calls).toEqual([{ declaredChunk: data.length + 1, maxOutputLength: data.length }])
  })

  it('stops a bomb that declares 100 bytes at the 101st, then counts it past the budget without allocating', () => {
    const { inflater, calls } = watched()
    const r = inflater.inflateRaw(deflateBomb(LIMIT + MiB), 100, LIMIT)
    expect(r).toEqual({ ok: false, reason: 'limit', produced: LIMIT + 1 })
    expect(calls).toEqual([{ declaredChunk: 101, maxOutputLength: 100 }])
  })

  it('gives node:zlib’s answers on small entries: size, budget and corrupt data', () => {
    const { inflater } = watched()
    const data = text(3000)
    const z = deflateRawSync(data)
    expect(inflater.inflateRaw(z, 2999, LIMIT)).toEqual({ ok: false, reason: 'size', produced: 3000 })
    expect(inflater.inflateRaw(z, 3000, 2000)).toEqual({ ok: false, reason: 'limit', produced: 2001 })
    const bad = Uint8Array.from(z)
    bad[0] = 0xff // block type 3
    expect(inflater.inflateRaw(bad, 3000, LIMIT)).toMatchObject({
      ok: false,
      reason: 'corrupt',
      message: 'invalid block type',
    })
  })
})

/** The plain inflater, the reference for the answers: zlib alone, up to the budget. */
function reference(input: Uint8Array, declared: number, limit: number) {
  let out: Buffer
  try {
    out = inflateRawSync(input, { maxOutputLength: limit + 1, chunkSize: 64 * 1024 })
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    return err.code === 'ERR_BUFFER_TOO_LARGE'
      ? { reason: 'limit' }
      : { reason: 'corrupt', message: err.message }
  }
  if (out.length > limit) return { reason: 'limit' }
  if (out.length !== declared) return { reason: 'size', produced: out.length }
  return { data: Buffer.from(out).toString('hex') }
}

const answer = (r: InflateResult) =>
  r.ok
    ? { data: Buffer.from(r.data).toString('hex') }
    : r.reason === 'corrupt'
      ? { reason: r.reason, message: r.message }
      : r.reason === 'size'
        ? { reason: r.reason, produced: r.produced }
        : { reason: r.reason }

describe('createNodeInflater gives the answers zlib alone gave', () => {
  const inflater = createNodeInflater()
  const small = text(3000)
  const large = text(1536 * 1024)
  test.prop(
    [
      fc.constantFrom(small, large, new Uint8Array(0)),
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.integer({ min: 0, max: 255 }),
          fc.constantFrom('flip', 'cut', 'drop', 'insert'),
        ),
        { maxLength: 3 },
      ),
      fc.constantFrom(-1, 0, 1, 'small', 'large'),
      fc.constantFrom('roomy', 'exact', 'short', 'tiny'),
    ],
    { numRuns: 120 },
  )(
    'on generated and mutated streams, declared sizes right or wrong, budgets roomy or tight',
    (data, edits, lie, budget) => {
      const input = mutate(deflateRawSync(data), edits as never)
      const declared =
        lie === 'small' ? 100 : lie === 'large' ? 2 * MiB + 7 : Math.max(0, data.length + (lie as number))
      const limit =
        budget === 'roomy'
          ? LIMIT
          : budget === 'exact'
            ? data.length
            : budget === 'short'
              ? Math.max(0, data.length - 1)
              : 10
      const got = answer(inflater.inflateRaw(input, declared, limit) as InflateResult)
      const want = reference(input, declared, limit)
      // A stream that passes the budget and is corrupt further on may be refused for either
      // reason (zlib itself says one or the other depending on its chunk size): both refuse it.
      const whole = inflateBounded(input, 0, 2 ** 31 - 1)
      if (got.reason === 'limit' && want.reason === 'corrupt')
        expect(!whole.ok && whole.produced > limit).toBe(true)
      // A stream counted in the WebAssembly build and found corrupt carries the bounded
      // inflater's message, the web backend's: on a truncated block header it names the bad
      // field where zlib says "unexpected end of file". Same code (pkg/corrupt-entry) either way.
      else if (got.reason === 'corrupt' && want.reason === 'corrupt' && got.message !== want.message)
        expect(got.message).toBe(!whole.ok && whole.message)
      else expect(got).toEqual(want)
    },
  )
})

describeInflater('node:zlib', zlibInflater.inflateRaw)
