/**
 * Inflating with the platform's `DecompressionStream('deflate-raw')` under the same budget as
 * the bounded inflater. Measured in Chromium it inflates large entries 3-5 times faster than
 * fflate did (native zlib); per stream it costs a few promise round trips. The web inflater uses it
 * for the entries too large for the WebAssembly module, and, where WebAssembly is refused, for
 * entries from 1 KiB (see the chooser in inflate.ts and bench/reader-browser/RESULTS.md).
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

/** The CRC-32 and size that end a gzip member. */
function gzipTrailer(crc: number, declared: number): Uint8Array<ArrayBuffer> {
  const trailer = new Uint8Array(8)
  const view = new DataView(trailer.buffer)
  view.setUint32(0, crc >>> 0, true)
  view.setUint32(4, declared >>> 0, true)
  return trailer
}

/** A gzip member header: deflate, no flags, no time, unknown OS. */
const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])

/**
 * Inflates raw deflate `input` through `DecompressionStream`: exactly `declared` bytes, or
 * `limit` (more than `limit` bytes came out), `size` (more or fewer than `declared`) or `corrupt`;
 * output past `declared` is counted, not kept. Never rejects.
 *
 * With the entry's expected `crc` the deflate data is framed as a gzip member (a 10-byte header
 * written before it, the CRC-32 and size written after it), so the platform's zlib checks the
 * CRC-32 natively and the result says `crcChecked`. When that stream fails for any reason the
 * entry is inflated again as raw deflate, so the outcome (and the diagnostic: corrupt data or a
 * failed CRC-32, checked by the caller) is the raw path's.
 */
export async function inflateRawStream(
  input: Uint8Array,
  declared: number,
  limit: number,
  crc?: number,
): Promise<InflateResult> {
  if (crc === undefined) return inflate(input, declared, limit, undefined)
  const r = await inflate(input, declared, limit, crc)
  return r.ok || r.reason !== 'corrupt' ? r : inflate(input, declared, limit, undefined)
}

async function inflate(
  input: Uint8Array,
  declared: number,
  limit: number,
  crc: number | undefined,
): Promise<InflateResult> {
  const stream = new DecompressionStream(crc === undefined ? 'deflate-raw' : 'gzip')
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
    if (crc !== undefined) {
      if (input.length <= limit / MAX_RATIO) {
        // The whole entry cannot pass the budget: header, data and trailer in one write (one
        // round trip, like the unframed stream; copying the compressed bytes is cheap).
        const framed = new Uint8Array(GZIP_HEADER.length + input.length + 8)
        framed.set(GZIP_HEADER)
        framed.set(input, GZIP_HEADER.length)
        framed.set(gzipTrailer(crc, declared), GZIP_HEADER.length + input.length)
        await writer.write(framed)
        if (!stopped) await writer.close()
        return
      }
      await writer.write(GZIP_HEADER)
    }
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
    if (crc !== undefined && !stopped) await writer.write(gzipTrailer(crc, declared))
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
  return crc === undefined ? { ok: true, data: out } : { ok: true, data: out, crcChecked: true }
}
