import { deflateBomb } from '@spkg/test-utils'
import { deflateSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { zlibInflater } from '../node/backend'
import { fflateInflater } from './inflate'

const text = new TextEncoder().encode('the inn door creaks open. '.repeat(4000))
const packed = deflateSync(text)

describe.each([
  ['fflate', fflateInflater],
  ['node:zlib', zlibInflater],
])('%s inflater', (_, inflater) => {
  // A large limit takes fflate's one-call path, a tight one its sliced streaming path.
  it.each([
    ['a roomy budget', 50 * 2 ** 20],
    ['a tight budget', text.length + 10],
  ])('inflates exactly the declared size under %s', (_, limit) => {
    const r = inflater.inflateRaw(packed, text.length, limit)
    expect(r.ok && r.data).toEqual(text)
  })

  it.each([
    ['longer', text.length - 1],
    ['shorter', text.length + 1],
  ])('reports a stream %s than declared as a size mismatch', (_, declared) => {
    for (const limit of [50 * 2 ** 20, text.length + 100]) {
      const r = inflater.inflateRaw(packed, declared, limit)
      expect(r).toMatchObject({ ok: false, reason: 'size' })
    }
  })

  it('reports a corrupt stream', () => {
    expect(inflater.inflateRaw(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 10, 1000)).toMatchObject({
      ok: false,
      reason: 'corrupt',
    })
    expect(inflater.inflateRaw(packed.subarray(0, packed.length >> 1), text.length, 2 ** 20)).toMatchObject({
      ok: false,
    })
  })

  it('stops a bomb at the limit, whatever it declares', () => {
    const bomb = deflateBomb(64 * 2 ** 20)
    for (const declared of [10, 64 * 2 ** 20]) {
      const r = inflater.inflateRaw(bomb, declared, 2 ** 20)
      expect(r).toMatchObject({ ok: false, reason: 'limit' })
      // At most one slice past the limit: the work is bounded by the limit, not by the bomb.
      if (!r.ok) expect(r.produced).toBeLessThanOrEqual(2 ** 20 + 1032 * 512)
    }
  })

  it('inflates an empty entry', () => {
    const r = inflater.inflateRaw(deflateSync(new Uint8Array(0)), 0, 100)
    expect(r.ok && r.data.length).toBe(0)
  })
})
