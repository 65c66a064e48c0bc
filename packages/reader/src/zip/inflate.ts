/**
 * Inflating under a budget. The isomorphic inflater is {@link inflateBounded}: it keeps the output
 * in one buffer of the declared size (or of the budget, when the entry declares more), counts
 * what a longer stream produces past it, and stops the moment the output passes the budget, so
 * a bomb costs at most the limit's worth of work.
 *
 * It replaced fflate (bench/reader-browser/RESULTS.md, 2026-11-26): fflate builds a lookup table
 * of 2^(longest code) entries for every block, so a stream of tiny blocks with 15-bit codes that
 * inflates to nothing kept it busy for seconds per megabyte (4.5 s for 0.9 MB in Node), and its
 * per-block allocations made it the slowest part of opening many small entries.
 */
import { inflateBounded } from './inflate-bounded'
import { inflateFastest, inflateWasmReady, loadInflateWasm } from './inflate-wasm'

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
  /**
   * Called when a caller is about to inflate many entries (`openPackage` calls it first thing):
   * an inflater with something to load (the WebAssembly module) starts loading it here, in the
   * background, instead of at its first entry.
   */
  prepare?(): void
}

/** The isomorphic inflater (zlib's algorithm in JavaScript, bounded by construction). */
export const boundedInflater: Inflater = { inflateRaw: inflateBounded }

/** Where the web inflater switches from the JavaScript inflater to `DecompressionStream`. */
export interface WebInflaterOptions {
  /**
   * Inflate below `streamFrom` with the WebAssembly build of the bounded inflater where it loads
   * (the same answers, several times faster on a cold page); `false` keeps them in JavaScript.
   * Default `true`.
   */
  wasm?: boolean
  /**
   * Compressed size (bytes) from which `inflateRawAsync` uses the stream; `Infinity` never.
   * Below it, one stream's promise round trips cost more than the whole inflation in JavaScript.
   */
  streamFrom: number
  /** The stream inflater (injected by tests). */
  stream: (input: Uint8Array, declared: number, limit: number, crc?: number) => Promise<InflateResult>
}

/**
 * An inflater that is the bounded inflater (its WebAssembly build where that loads, unless
 * `wasm: false`) for synchronous calls and for small entries, and the given stream inflater for
 * asynchronous calls on entries of at least `streamFrom` compressed bytes.
 */
export function createWebInflater(options: WebInflaterOptions): Inflater {
  return {
    prepare() {
      if (options.wasm !== false) void loadInflateWasm()
    },
    inflateRaw(input, declared, limit) {
      // Synchronous: the WebAssembly build once it is loaded, JavaScript until then.
      if (options.wasm === false) return inflateBounded(input, declared, limit)
      return inflateFastest(input, declared, limit)
    },
    inflateRawAsync(input, declared, limit, crc) {
      // Read on every call: the default backend resolves its options on first use.
      if (input.length >= options.streamFrom) return options.stream(input, declared, limit, crc)
      if (options.wasm === false) return inflateBounded(input, declared, limit)
      if (inflateWasmReady()) return inflateFastest(input, declared, limit, crc)
      return loadInflateWasm().then(() => inflateFastest(input, declared, limit, crc))
    },
  }
}
