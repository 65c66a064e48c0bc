/**
 * The Node backend: node:zlib inflates (output capped at the budget, so a bomb stops after at
 * most the limit's work) and checks CRC-32, node:crypto hashes. Same results as the web backend.
 */
import { isUtf8 } from 'node:buffer'
import * as crypto from 'node:crypto'
import { crc32, inflateRawSync } from 'node:zlib'
import type { ReaderBackend } from '../zip/backend'
import type { InflateResult, Inflater } from '../zip/inflate-types'

/** What a node:zlib error means: past the limit (`maxOutputLength`), else corrupt data. */
function inflateFailure(err: NodeJS.ErrnoException, limit: number): InflateResult {
  if (err.code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, reason: 'limit', produced: limit + 1 }
  return { ok: false, reason: 'corrupt', produced: 0, message: err.message }
}

/** The node:zlib inflater. */
export const zlibInflater: Inflater = {
  inflateRaw(input, declared, limit) {
    let data: Uint8Array
    try {
      // One output chunk of the declared size (plus the byte that catches a longer stream):
      // no chunk list to concatenate for the usual entry. Past it, zlib adds chunks of that
      // size until maxOutputLength stops it.
      const out = inflateRawSync(input, {
        maxOutputLength: Math.max(1, limit + 1),
        chunkSize: Math.max(64, Math.min(declared, limit) + 1),
      })
      data = new Uint8Array(out.buffer, out.byteOffset, out.length) // a plain Uint8Array view, not a Buffer
    } catch (e) {
      return inflateFailure(e as NodeJS.ErrnoException, limit)
    }
    if (data.length > limit) return { ok: false, reason: 'limit', produced: data.length }
    if (data.length !== declared) return { ok: false, reason: 'size', produced: data.length }
    return { ok: true, data }
  },
}

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
