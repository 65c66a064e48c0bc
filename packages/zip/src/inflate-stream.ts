/**
 * Inflating with the platform's `DecompressionStream('deflate-raw')` under the same budget as
 * the bounded inflater. Measured in Chromium it inflates large entries 3-5 times faster than
 * fflate did (native zlib); per stream it costs a few promise round trips. The web inflater uses it
 * for the entries too large for the WebAssembly module, and, where WebAssembly is refused, for
 * entries from 1 KiB (see the chooser in inflate.ts and bench/reader-browser/RESULTS.md). The
 * caller checks the CRC-32: framing each entry as a gzip member so that zlib checked it measured
 * level on 30 MB and inside the run-order noise on 50 MB (bench/reader-browser/HISTORY.md,
 * 2026-11-23), for 0.5 KB gzip of every browser bundle, and went.
 *
 * Budget: the compressed bytes are written in slices no bigger than the remaining budget divided
 * by deflate's maximum ratio (1032:1), minus what the previous slice may still produce. The
 * output is read chunk by chunk and counted; the moment more than `limit` bytes came out, the stream is cancelled and nothing more is written. A stream transforms
 * the next slice only once its output queue is empty and a read is pending, that is once every
 * earlier chunk was counted, so at most the current and the previous slice are uncounted.
 */
import type { InflateResult } from './inflate-types'

const MAX_RATIO = 1032
const MIN_SLICE = 512
const MAX_SLICE = 65536

/**
 * True when the platform has `DecompressionStream` with the `deflate-raw` format (browsers that
 * have the class without that format throw on construction: Chromium before 103, Safari before
 * 16.4, Firefox before 113).
 */
export function hasDeflateRawStream(): boolean {
  if (typeof DecompressionStream !== 'function') return false
  try {
    new DecompressionStream('deflate-raw')
    return true
  } catch {
    return false
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e))
const ignore = () => {}

/**
 * Inflates raw deflate `input` through `DecompressionStream`: exactly `declared` bytes, or
 * `limit` (more than `limit` bytes came out), `size` (more or fewer than `declared`) or `corrupt`;
 * output past `declared` is counted, not kept. Never rejects.
 */
export async function inflateRawStream(
  input: Uint8Array,
  declared: number,
  limit: number,
): Promise<InflateResult> {
  const stream = new DecompressionStream('deflate-raw')
  const writer = stream.writable.getWriter()
  const reader = stream.readable.getReader()
  const cap = Math.min(declared, limit)
  const out = new Uint8Array(cap)
  let produced = 0
  let stopped = false

  // Writes the input slice by slice; a write resolves once its slice was transformed.
  const feed = async () => {
    let i = 0
    let pending = 0 // what the previous slice may still produce, not yet counted
    while (i < input.length && !stopped) {
      const room = limit - produced - pending
      const slice =
        input.length - i <= room / MAX_RATIO
          ? input.length - i // the rest cannot pass the budget: one write
          : Math.min(MAX_SLICE, Math.max(MIN_SLICE, Math.floor(room / MAX_RATIO)))
      pending = slice * MAX_RATIO
      await writer.write(input.subarray(i, i + slice) as Uint8Array<ArrayBuffer>)
      i += slice
    }
    if (!stopped) await writer.close()
  }
  const fed = feed().catch(ignore) // a failed write shows as a failed read below

  let failure: InflateResult | undefined
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const room = cap - produced
      if (room > 0) out.set(room >= value.length ? value : value.subarray(0, room), produced)
      produced += value.length
      // As the contract says, output past `declared` is counted, not kept, up to the budget.
      if (produced > limit) {
        failure = { ok: false, reason: 'limit', produced }
        break
      }
    }
  } catch (e) {
    failure = { ok: false, reason: 'corrupt', produced, message: messageOf(e) }
  }
  if (failure) {
    stopped = true
    reader.cancel().catch(ignore)
    writer.abort().catch(ignore)
    await fed
    return failure
  }
  await fed
  if (produced !== declared) return { ok: false, reason: 'size', produced }
  return { ok: true, data: out }
}
