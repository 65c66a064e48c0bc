/**
 * Inflating under a budget. The browser-safe inflater pushes the compressed bytes into
 * fflate's streaming `Inflate` in slices no bigger than the remaining budget divided by
 * deflate's maximum ratio (1032:1), so a bomb is stopped after about the limit's worth of work.
 */
import { Inflate } from 'fflate'

/** Outcome of one inflation: exactly `declared` bytes, or why not. */
export type InflateResult =
  | { ok: true; data: Uint8Array }
  | { ok: false; reason: 'limit' | 'size' | 'corrupt'; produced: number; message?: string }

/** A raw-deflate inflater that never produces more than `limit` bytes of work. */
export interface Inflater {
  /**
   * Inflates `input`; output beyond `declared` is counted, not kept; the moment more than
   * `limit` bytes came out it stops with reason `limit`.
   */
  inflateRaw(input: Uint8Array, declared: number, limit: number): InflateResult
}

const MAX_RATIO = 1032
const STOP = Symbol('limit')

/** The isomorphic inflater on fflate. */
export const fflateInflater: Inflater = {
  inflateRaw(input, declared, limit) {
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
