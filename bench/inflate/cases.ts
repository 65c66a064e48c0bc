/**
 * The measured work of `pnpm bench inflate`, the same code in Node and in Chromium: each inflater
 * over one set of raw-deflate streams, the first pass (cold) and the median of later passes.
 */
import { inflateBounded } from '../../packages/zip/src/inflate-bounded'
import { inflateWasm } from '../../packages/zip/src/inflate-wasm'
import { fflateInflater } from '../reader-browser/fflate-inflater'

export { manyHuffmanBlocks } from '@spkg/test-utils/deflate-blocks'

/** A stream set: the streams and the size each inflates to. */
export interface StreamSet {
  name: string
  streams: Uint8Array[]
  sizes: number[]
}

export const INFLATERS = [
  'bounded WebAssembly (shipped; module compiled before the first pass)',
  'bounded JavaScript (fallback)',
  'fflate (before)',
] as const

export { loadInflateWasm } from '../../packages/zip/src/inflate-wasm'

// The package limit (LIMITS.maxUncompressedBytes), written out so the measured page loads no
// more than the two inflaters.
const LIMIT = 52_428_800

/** Inflates every stream of `set` with `inflater` once; returns the wall time in ms. */
export function inflateAll(set: StreamSet, inflater: (typeof INFLATERS)[number]): number {
  const t0 = performance.now()
  for (let i = 0; i < set.streams.length; i++) {
    const r =
      inflater === 'fflate (before)'
        ? fflateInflater.inflateRaw(set.streams[i]!, set.sizes[i]!, LIMIT)
        : inflater === 'bounded JavaScript (fallback)'
          ? inflateBounded(set.streams[i]!, set.sizes[i]!, LIMIT)
          : inflateWasm(set.streams[i]!, set.sizes[i]!, LIMIT)
    if (!r?.ok) throw new Error(`${inflater} fails on ${set.name}: ${r ? r.reason : 'declined'}`)
  }
  return performance.now() - t0
}
