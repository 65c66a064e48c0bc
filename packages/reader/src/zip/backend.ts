/**
 * The platform pieces behind the safe reader: inflater, CRC-32 and SHA-256. The main entry
 * uses fflate and WebCrypto; `@spkg/reader/node` swaps in node:zlib and node:crypto.
 */
import { crc32 } from './crc32'
import { fflateInflater, type Inflater } from './inflate'

/** Platform primitives the reader needs. */
export interface ReaderBackend {
  readonly inflater: Inflater
  crc32(data: Uint8Array): number
  /** Lowercase hex SHA-256. */
  sha256Hex(data: Uint8Array): Promise<string> | string
  /** True when `data` is valid UTF-8 (a faster check than decoding, where the platform has one). */
  isUtf8?(data: Uint8Array): boolean
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Lowercase hex SHA-256 through WebCrypto. */
export async function webSha256Hex(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>))
  let s = ''
  for (const b of digest) s += HEX[b]
  return s
}

/** The isomorphic backend: fflate, a slicing-by-8 CRC-32 and WebCrypto. */
export const webBackend: ReaderBackend = { inflater: fflateInflater, crc32, sha256Hex: webSha256Hex }
