/**
 * Inflating under a budget. The isomorphic inflater is {@link inflateBounded}: it keeps the output
 * in one buffer of the declared size (or of the budget, when the entry declares more), counts
 * what a longer stream produces past it, and stops the moment the output passes the budget, so
 * a bomb costs at most the limit's worth of work.
 *
 * It replaced fflate (bench/reader-browser/RESULTS.md, 2026-11-26): fflate builds a lookup table
 * of 2^(longest code) entries for every block, so a stream of tiny blocks with 15-bit codes that
 * inflates to nothing kept it busy for seconds per megabyte (4.5 s for 0.9 MB in Node), and its
 * per-block allocations made it the slowest part of opening many small entries. The web inflater
 * runs its WebAssembly build (`inflate-wasm.ts`, same answers) once that has loaded.
 */
import { inflateBounded } from './inflate-bounded'
import type { InflateResult, Inflater } from './inflate-types'
import {
  inflateBatchWasm,
  inflateFastest,
  inflateWasm,
  inflateWasmReady,
  loadInflateWasm,
} from './inflate-wasm'

/** The isomorphic inflater (zlib's algorithm in JavaScript, bounded by construction). */
export const boundedInflater: Inflater = { inflateRaw: inflateBounded }

/** How the web inflater chooses between its WebAssembly build, `DecompressionStream` and JavaScript. */
export interface WebInflaterOptions {
  /**
   * Inflate with the WebAssembly build of the bounded inflater where it loads (the same answers,
   * several times faster on a cold page, and faster than the stream on every bench package): it
   * then takes every entry that fits its memory, whatever `streamFrom` says. `false` leaves the
   * choice to `streamFrom`. Default `true`.
   */
  wasm?: boolean
  /**
   * Without WebAssembly, the compressed size (bytes) from which `inflateRawAsync` uses the stream
   * (below it, a stream's promise round trips cost more than inflating in JavaScript); with it,
   * the stream takes only the entries too large for the module, if this is finite. `Infinity`:
   * never the stream.
   */
  streamFrom: number
  /** The stream inflater (injected by tests). */
  stream: (input: Uint8Array, declared: number, limit: number) => Promise<InflateResult>
}

/**
 * The web inflater: the WebAssembly build of the bounded inflater once loaded (unless `wasm:
 * false`), otherwise, and for entries too large for it, the given stream inflater for entries of
 * at least `streamFrom` compressed bytes and the JavaScript build for the rest. Synchronous calls
 * never wait for the module or use the stream.
 */
export function createWebInflater(options: WebInflaterOptions): Inflater {
  // Read options on every call: the default backend resolves them on first use.
  const withoutWasm = (input: Uint8Array, declared: number, limit: number) =>
    input.length >= options.streamFrom
      ? options.stream(input, declared, limit)
      : inflateBounded(input, declared, limit)
  const withWasm = (input: Uint8Array, declared: number, limit: number, crc?: number) =>
    inflateWasm(input, declared, limit, crc) ??
    (Number.isFinite(options.streamFrom)
      ? options.stream(input, declared, limit)
      : inflateBounded(input, declared, limit))
  // `use` at once when the module is loaded; else once it has loaded, or `otherwise` where it cannot.
  const withModule = <R>(use: () => R | Promise<R>, otherwise: () => R | Promise<R>): R | Promise<R> =>
    inflateWasmReady() ? use() : loadInflateWasm().then((loaded) => (loaded ? use() : otherwise()))
  return {
    prepare() {
      if (options.wasm !== false) void loadInflateWasm()
    },
    inflateRaw(input, declared, limit) {
      if (options.wasm === false) return inflateBounded(input, declared, limit)
      return inflateFastest(input, declared, limit)
    },
    inflateBatch(bytes, entries, lo, hi, text) {
      if (options.wasm === false) return undefined
      return withModule(
        () => inflateBatchWasm(bytes, entries, lo, hi, text),
        () => undefined,
      )
    },
    inflateRawAsync(input, declared, limit, crc) {
      if (options.wasm === false) return withoutWasm(input, declared, limit)
      return withModule(
        () => withWasm(input, declared, limit, crc),
        () => withoutWasm(input, declared, limit),
      )
    },
  }
}
