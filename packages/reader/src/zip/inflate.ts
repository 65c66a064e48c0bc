/**
 * Inflating under a budget. The browser-safe inflater pushes the compressed bytes into
 * fflate's streaming `Inflate` in slices no bigger than the remaining budget divided by
 * deflate's maximum ratio (1032:1), so a bomb is stopped after about the limit's worth of work.
 * An entry whose compressed size times that ratio fits the budget cannot pass it, so it is
 * inflated in one call.
 */
import { Inflate, inflateSync } from 'fflate'

/** Outcome of one inflation: exactly `declared` bytes, or why not. */
export type InflateResult =
  | {
      ok: true
      data: Uint8Array
      /** True when the inflater already checked the data against the `crc` it was given. */
      crcChecked?: boolean
    }
  | { ok: false; reason: 'limit' | 'size' | 'corrupt'; produced: number; message?: string }

/** A raw-deflate inflater that never produces more than `limit` bytes of work. */
export interface Inflater {
  /**
   * Inflates `input`; output beyond `declared` is counted, not kept; the moment more than
   * `limit` bytes came out it stops with reason `limit`.
   */
  inflateRaw(input: Uint8Array, declared: number, limit: number): InflateResult
  /**
   * The same contract, for callers that can wait: an inflater with a faster asynchronous path
   * (`DecompressionStream`) takes it here for the entries it pays off on, and answers the others
   * synchronously. With the entry's expected `crc` it may check the CRC-32 itself (natively) and
   * say so with `crcChecked`; otherwise the caller checks it.
   */
  inflateRawAsync?(
    input: Uint8Array,
    declared: number,
    limit: number,
    crc?: number,
  ): InflateResult | Promise<InflateResult>
}

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

/** Where the web inflater switches from fflate to `DecompressionStream`. */
export interface WebInflaterOptions {
  /**
   * Compressed size (bytes) from which `inflateRawAsync` uses the stream; `Infinity` never.
   * Below it, one stream's promise round trips cost more than fflate's whole inflation.
   */
  streamFrom: number
  /** The stream inflater (injected by tests). */
  stream: (input: Uint8Array, declared: number, limit: number, crc?: number) => Promise<InflateResult>
}

/**
 * An inflater that is fflate for synchronous calls and for small entries, and the given stream
 * inflater for asynchronous calls on entries of at least `streamFrom` compressed bytes.
 */
export function createWebInflater(options: WebInflaterOptions): Inflater {
  return {
    inflateRaw: fflateInflater.inflateRaw,
    inflateRawAsync(input, declared, limit, crc) {
      // Read on every call: the default backend resolves its threshold on first use.
      if (input.length < options.streamFrom) return fflateInflater.inflateRaw(input, declared, limit)
      return options.stream(input, declared, limit, crc)
    },
  }
}
