/**
 * The inflater the web backend used before its own bounded inflater (fflate: one call when the
 * budget allows, else its streaming Inflate fed budget-sized slices), kept in the bench only to
 * measure the two side by side (bench/reader-browser/RESULTS.md).
 */
import { Inflate, inflateSync } from 'fflate'
import type { Inflater } from '../../packages/zip/src/inflate-types'

const MAX_RATIO = 1032
const STOP = Symbol('limit')

/** The isomorphic inflater on fflate. */
export const fflateInflater: Inflater = {
  inflateRaw(input, declared, limit) {
    // Fast path: when even the densest stream cannot inflate past the budget, one call into a
    // buffer of the declared size plus one byte (fflate drops writes past its end, so a longer
    // stream is caught by the extra byte, a shorter one by the length).
    if (input.length * MAX_RATIO <= limit && declared < limit) {
      const buf = new Uint8Array(declared + 1)
      let data: Uint8Array
      try {
        data = inflateSync(input, { out: buf })
      } catch (e) {
        return {
          ok: false,
          reason: 'corrupt',
          produced: 0,
          message: e instanceof Error ? e.message : String(e),
        }
      }
      if (data.length !== declared) return { ok: false, reason: 'size', produced: data.length }
      return { ok: true, data }
    }
    const out = new Uint8Array(Math.min(declared, limit))
    let produced = 0
    const inflate = new Inflate((chunk) => {
      const room = out.length - produced
      if (room > 0) out.set(room >= chunk.length ? chunk : chunk.subarray(0, room), produced)
      produced += chunk.length
      if (produced > limit) throw STOP
    })
    try {
      let i = 0
      do {
        const slice = Math.min(65536, Math.max(512, Math.floor((limit - produced) / MAX_RATIO)))
        const last = i + slice >= input.length
        inflate.push(input.subarray(i, i + slice), last)
        i += slice
      } while (i < input.length)
    } catch (e) {
      if (e === STOP) return { ok: false, reason: 'limit', produced }
      return { ok: false, reason: 'corrupt', produced, message: e instanceof Error ? e.message : String(e) }
    }
    if (produced !== declared) return { ok: false, reason: 'size', produced }
    return { ok: true, data: out }
  },
}
