/**
 * The Node backend: node:zlib inflates (output capped at the budget, so a bomb stops after at
 * most the limit's work) and checks CRC-32, node:crypto hashes. Same results as the web backend.
 */
import { isUtf8 } from 'node:buffer'
import * as crypto from 'node:crypto'
import { crc32, inflateRawSync } from 'node:zlib'
import {
  countWasm,
  type InflateFailure,
  type InflateResult,
  type Inflater,
  loadInflateWasmSync,
} from '@spkg/zip'
import type { ReaderBackend } from '../zip/backend'

/** The node:zlib call the inflater makes (injected by tests, to watch what it is asked to allocate). */
export type InflateRawSync = (
  input: Uint8Array,
  options: { maxOutputLength: number; chunkSize: number },
) => Buffer

/**
 * Inflates with node:zlib, at most `cap` bytes (at least 1) into one output chunk of `chunk`
 * bytes: the data, `'longer'` when the stream holds more than `cap`, or the corrupt-data failure.
 */
function zlibAtMost(
  zlib: InflateRawSync,
  input: Uint8Array,
  cap: number,
  chunk: number,
): Uint8Array | 'longer' | InflateFailure {
  try {
    const out = zlib(input, { maxOutputLength: cap, chunkSize: Math.max(64, chunk) })
    return new Uint8Array(out.buffer, out.byteOffset, out.length) // a plain Uint8Array view, not a Buffer
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    if (err.code === 'ERR_BUFFER_TOO_LARGE') return 'longer'
    return { ok: false, reason: 'corrupt', produced: 0, message: err.message }
  }
}

/** Entries declaring up to this size go to node:zlib first, into one buffer of their declared size. */
const ZLIB_FIRST_BYTES = 1024 * 1024

/**
 * The Node inflater: node:zlib, with no output buffer larger than what the entry really inflates
 * to (a server validating a stream of hostile uploads could reach 3.2 GiB of RSS when
 * zlib allocated the declared size, up to the whole budget, before it read a byte, and every
 * buffer a corrupt stream, a bomb or a lie about the size left behind waited for the garbage
 * collector). An entry declaring up to 1 MiB is inflated by zlib into one buffer of that size
 * plus one byte, and zlib stops at that byte: a stream longer than declared is then counted in
 * the bounded inflater's WebAssembly build, in a 32 KiB window of its fixed memory (reused by
 * every call), to tell a bomb past the budget from a size mismatch. A larger entry is counted
 * there first, so a corrupt stream, a bomb or a size lie is refused without allocating anything,
 * and only an entry that inflates to exactly its declared size within the budget reaches zlib.
 * Where WebAssembly is unavailable, or the compressed data is too large for the module, zlib
 * counts, as before. The answers are zlib's (backend.test.ts compares them with zlib alone on
 * generated and mutated streams), except that a corrupt stream the module counted carries its
 * message, which is the web backend's (on a truncated block header it names the bad field where
 * zlib says "unexpected end of file"). An honest entry over 1 MiB is decoded twice.
 */
export function createNodeInflater(zlib: InflateRawSync = inflateRawSync): Inflater {
  /** The whole output's length up to the budget, without keeping it, or why not. */
  const count = (input: Uint8Array, limit: number): number | InflateFailure => {
    const counted = loadInflateWasmSync() ? countWasm(input, limit) : undefined
    if (counted) return counted.ok ? counted.produced : counted
    // Chunks of 64 KiB, so the count costs what the stream holds, not what it declares.
    const r = zlibAtMost(zlib, input, limit + 1, 64 * 1024)
    if (r === 'longer') return { ok: false, reason: 'limit', produced: limit + 1 }
    return r instanceof Uint8Array ? r.length : r
  }
  const inflate = (input: Uint8Array, declared: number, limit: number): InflateResult => {
    const keep = Math.min(declared, limit)
    if (keep >= 1 && keep <= ZLIB_FIRST_BYTES) {
      const r = zlibAtMost(zlib, input, keep, keep + 1)
      if (r instanceof Uint8Array)
        return r.length === declared
          ? { ok: true, data: r }
          : { ok: false, reason: 'size', produced: r.length }
      if (r !== 'longer') return r
      if (keep >= limit) return { ok: false, reason: 'limit', produced: limit + 1 }
    }
    const n = count(input, limit)
    if (typeof n !== 'number') return n
    if (n > limit) return { ok: false, reason: 'limit', produced: n }
    if (n !== declared) return { ok: false, reason: 'size', produced: n }
    if (n === 0) return { ok: true, data: new Uint8Array(0) }
    // Exactly `declared` bytes: one buffer of that size (and the byte zlib needs to see the end).
    const r = zlibAtMost(zlib, input, limit + 1, declared + 1)
    if (!(r instanceof Uint8Array))
      return r === 'longer' ? { ok: false, reason: 'limit', produced: limit + 1 } : r
    return r.length === declared ? { ok: true, data: r } : { ok: false, reason: 'size', produced: r.length }
  }
  return { inflateRaw: inflate }
}

/** The node:zlib inflater (see {@link createNodeInflater}). */
export const zlibInflater: Inflater = createNodeInflater()

/**
 * Lowercase hex SHA-256: node:crypto's one-shot `hash()` (Node >= 20.12; no Hash object per
 * file, which is most of the cost for small files), else `createHash`.
 */
const sha256Hex: (data: Uint8Array) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => crypto.createHash('sha256').update(data).digest('hex')

/** node:zlib + node:crypto. */
export const nodeBackend: ReaderBackend = {
  inflater: zlibInflater,
  crc32: (data) => crc32(data),
  sha256Hex,
  isUtf8: (data) => isUtf8(data),
}
