/**
 * Byte helpers shared by the integrity modules: hex and strict base64 without `Buffer`
 * (the library runs in browsers too), constant-length comparisons and concatenation.
 */

/** The two lowercase hex digits of each byte value. */
export const HEX = /* @__PURE__ */ Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!]
  return s
}

/** Bytes of an even-length hex string, or `undefined` when it is not hex. */
export function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]))

/** Standard padded base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!
    const b = bytes[i + 1]
    const c = bytes[i + 2]
    s += B64[a >> 2]! + B64[((a & 3) << 4) | ((b ?? 0) >> 4)]!
    s += b === undefined ? '=' : B64[((b & 15) << 2) | ((c ?? 0) >> 6)]!
    s += c === undefined ? '=' : B64[c & 63]!
  }
  return s
}

/**
 * Bytes of a standard padded base64 string, or `undefined` when it is not canonical base64
 * (wrong alphabet, missing padding, whitespace, or non-zero bits in the last character).
 */
export function fromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  const out = new Uint8Array((text.length / 4) * 3 - pad)
  let o = 0
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length
    const q: number[] = []
    for (let j = 0; j < 4; j++) {
      const ch = text[i + j]!
      if (ch === '=' && last && j >= 4 - pad) {
        q.push(0)
        continue
      }
      const v = B64_INDEX.get(ch)
      if (v === undefined) return undefined
      q.push(v)
    }
    const n = (q[0]! << 18) | (q[1]! << 12) | (q[2]! << 6) | q[3]!
    if (o < out.length) out[o++] = (n >> 16) & 255
    if (o < out.length) out[o++] = (n >> 8) & 255
    if (o < out.length) out[o++] = n & 255
    if (last && pad > 0 && (n & (pad === 2 ? 0xffff : 0xff)) !== 0) return undefined
  }
  return out
}

/** True when both arrays hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

/** One array holding `parts` in order. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

/**
 * A copy of `bytes` backed by its own `ArrayBuffer`: WebCrypto's TypeScript signatures want
 * `Uint8Array<ArrayBuffer>`, and a view of a shared or larger buffer must not leak beyond its range.
 */
export function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes)
}

/** Strict UTF-8 decoding: `undefined` on invalid sequences instead of replacement characters. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** Text of a `string | Uint8Array` input (strict UTF-8), or `undefined`. */
export function asText(input: string | Uint8Array): string | undefined {
  return typeof input === 'string' ? input : decodeUtf8(input)
}
