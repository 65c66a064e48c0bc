/**
 * What every inflater answers, whatever its backend: the bounded JavaScript one, the WebAssembly
 * build, `DecompressionStream`, and the reader's node:zlib one (its tests run these cases too).
 */
import { deflateBomb } from '@spkg/test-utils'
import { deflateSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import type { InflateResult } from '../src/inflate-types'

const text = new TextEncoder().encode('the inn door creaks open. '.repeat(4000))
const packed = deflateSync(text)

/** An inflater's raw entry point, synchronous or not. */
export type InflateRaw = (
  input: Uint8Array,
  declared: number,
  limit: number,
) => InflateResult | Promise<InflateResult>

/** The inflater contract: exact sizes, size mismatches, corrupt streams, bombs, empty entries. */
export function describeInflater(name: string, inflateRaw: InflateRaw): void {
  describe(`${name} inflater`, () => {
    // A large limit takes the one-call (one-write) path, a tight one the sliced path.
    it.each([
      ['a roomy budget', 50 * 2 ** 20],
      ['a tight budget', text.length + 10],
    ])('inflates exactly the declared size under %s', async (_, limit) => {
      const r = await inflateRaw(packed, text.length, limit)
      expect(r.ok && r.data).toEqual(text)
    })

    it.each([
      ['longer', text.length - 1],
      ['shorter', text.length + 1],
    ])('reports a stream %s than declared as a size mismatch', async (_, declared) => {
      for (const limit of [50 * 2 ** 20, text.length + 100]) {
        const r = await inflateRaw(packed, declared, limit)
        expect(r).toMatchObject({ ok: false, reason: 'size' })
      }
    })

    it('reports a corrupt stream', async () => {
      expect(await inflateRaw(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 10, 1000)).toMatchObject({
        ok: false,
        reason: 'corrupt',
      })
      expect(await inflateRaw(packed.subarray(0, packed.length >> 1), text.length, 2 ** 20)).toMatchObject({
        ok: false,
      })
    })

    it('stops a bomb at the limit, whatever it declares', async () => {
      const bomb = deflateBomb(64 * 2 ** 20)
      for (const declared of [10, 64 * 2 ** 20]) {
        const r = await inflateRaw(bomb, declared, 2 ** 20)
        expect(r).toMatchObject({ ok: false, reason: 'limit' })
        // A few slices past the limit at most: the work is bounded by the limit, not by the bomb.
        if (!r.ok) expect(r.produced).toBeLessThanOrEqual(2 ** 20 + 2 * 1032 * 512)
      }
    })

    it('inflates an empty entry', async () => {
      const r = await inflateRaw(deflateSync(new Uint8Array(0)), 0, 100)
      expect(r.ok && r.data.length).toBe(0)
    })
  })
}
