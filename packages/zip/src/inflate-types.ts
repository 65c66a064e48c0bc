/**
 * The inflater contract shared by the inflaters (`inflate-bounded.ts`, `inflate-wasm.ts`,
 * `inflate-stream.ts`, node:zlib in `../node/backend.ts`) and their callers: a leaf module, so
 * the inflaters need not import `inflate.ts`, which imports them.
 */
/** Outcome of one inflation: exactly `declared` bytes, or why not. */
export type InflateResult =
  | {
      ok: true
      data: Uint8Array
      /** True when the inflater already checked the data against the `crc` it was given. */
      crcChecked?: boolean
    }
  | InflateFailure

/** Why an inflation gave no data: past the budget, another size than declared, or corrupt. */
export interface InflateFailure {
  ok: false
  reason: 'limit' | 'size' | 'corrupt'
  produced: number
  message?: string
}

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
  /**
   * Inflates a run of small deflated entries of the archive `bytes` at once, their inputs all in
   * `[lo, hi)`, each to exactly its declared size with its CRC-32 checked (and as UTF-8 where
   * `text(i)`), stopping at the first that fails (see `inflateBatchWasm`). `undefined` when this
   * inflater has no such path or the run does not fit it: the caller inflates entry by entry.
   */
  inflateBatch?(
    bytes: Uint8Array,
    entries: readonly BatchEntry[],
    lo: number,
    hi: number,
    text: (i: number) => boolean,
  ): BatchResult | undefined | Promise<BatchResult | undefined>
}

/** One entry of an {@link Inflater.inflateBatch} run: where its deflated bytes are, what it declares. */
export interface BatchEntry {
  readonly dataOffset: number
  readonly compressedSize: number
  readonly size: number
  readonly crc32: number
}

/** What {@link Inflater.inflateBatch} inflated: the first `count` entries of the run. */
export interface BatchResult {
  /** How many entries, from the first, inflated to their declared size with their CRC-32. */
  count: number
  /** Their outputs one after another, in one buffer (entry i's bytes follow entry i-1's). */
  data: Uint8Array
  /** Per entry, 1 when it is valid UTF-8 or was not to be checked, 0 when it is not UTF-8. */
  utf8: Uint8Array
}
