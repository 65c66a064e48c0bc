/**
 * SHA-256, the one module of the project: `sha256` and `sha256Hex` through WebCrypto
 * (`crypto.subtle`, in browsers, workers, Deno, Bun and Node), and `sha256HexSync`, a synchronous
 * SHA-256 (FIPS 180-4) in plain JavaScript for small inputs: WebCrypto's `digest` costs a promise
 * and a trip through the platform per call, which for a few kilobytes is more than the hashing
 * itself. The Node entry `@spkg/integrity/node` exports the same names backed by `node:crypto`.
 */
import { HEX, ownBytes } from './internal/bytes'

/**
 * SHA-256 digest of `bytes` (32 bytes).
 *
 * @example
 * const digest = await sha256(new TextEncoder().encode('abc')) // Uint8Array(32)
 */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', ownBytes(bytes)))
}

/**
 * SHA-256 digest of `bytes` as 64 lowercase hex digits (the form of `manifest.integrity`).
 *
 * @example
 * await sha256Hex(new TextEncoder().encode('abc'))
 * // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hexOfDigest(await sha256(bytes))
}

/**
 * A 32-byte digest as 64 lowercase hex digits, the one hex builder of both digests: one string built
 * from character codes, since a cold page runs this once per file of a package and 32 concatenations
 * each leave 31 intermediate strings behind.
 */
function hexOfDigest(digest: Uint8Array): string {
  for (let i = 0; i < 32; i++) {
    HEX_CHARS[2 * i] = HEX_CODES[2 * digest[i]!]!
    HEX_CHARS[2 * i + 1] = HEX_CODES[2 * digest[i]! + 1]!
  }
  return String.fromCharCode.apply(null, HEX_CHARS as unknown as number[])
}

/** The two hex digits' character codes of every byte value. */
const HEX_CODES = /* @__PURE__ */ Uint16Array.from({ length: 512 }, (_, i) => HEX[i >> 1]!.charCodeAt(i & 1))
const HEX_CHARS = /* @__PURE__ */ new Uint16Array(64)

const K = /* @__PURE__ */ new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])

const W = /* @__PURE__ */ new Int32Array(64)
const H = /* @__PURE__ */ new Int32Array(8)
const TAIL = /* @__PURE__ */ new Uint8Array(128)
const DIGEST = /* @__PURE__ */ new Uint8Array(32)

/** Runs the compression function over the 64-byte blocks of `p` from `start` to `end`. */
function blocks(p: Uint8Array, start: number, end: number): void {
  const w = W
  const k = K
  let h0 = H[0]!
  let h1 = H[1]!
  let h2 = H[2]!
  let h3 = H[3]!
  let h4 = H[4]!
  let h5 = H[5]!
  let h6 = H[6]!
  let h7 = H[7]!
  for (let off = start; off < end; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + i * 4
      w[i] = (p[j]! << 24) | (p[j + 1]! << 16) | (p[j + 2]! << 8) | p[j + 3]!
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!
      const b = w[i - 2]!
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3)
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10)
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0
    }
    let a = h0
    let b = h1
    let c = h2
    let d = h3
    let e = h4
    let f = h5
    let g = h6
    let h = h7
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + k[i]! + w[i]!) | 0
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
      h = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    h0 = (h0 + a) | 0
    h1 = (h1 + b) | 0
    h2 = (h2 + c) | 0
    h3 = (h3 + d) | 0
    h4 = (h4 + e) | 0
    h5 = (h5 + f) | 0
    h6 = (h6 + g) | 0
    h7 = (h7 + h) | 0
  }
  H[0] = h0
  H[1] = h1
  H[2] = h2
  H[3] = h3
  H[4] = h4
  H[5] = h5
  H[6] = h6
  H[7] = h7
}

/**
 * Lowercase hex SHA-256 of `data`, computed synchronously in plain JavaScript (the same result as
 * {@link sha256Hex}).
 *
 * @example
 * sha256HexSync(new TextEncoder().encode('abc'))
 * // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256HexSync(data: Uint8Array): string {
  H.set([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const n = data.length
  const whole = n - (n % 64)
  blocks(data, 0, whole)
  // Padding: 0x80, zeros, then the length in bits as a 64-bit big-endian number.
  const rest = n - whole
  const tail = TAIL
  tail.fill(0)
  tail.set(data.subarray(whole), 0)
  tail[rest] = 0x80
  const len = rest < 56 ? 64 : 128
  const bits = n * 8
  const hi = Math.floor(bits / 0x100000000)
  tail[len - 8] = hi >>> 24
  tail[len - 7] = hi >>> 16
  tail[len - 6] = hi >>> 8
  tail[len - 5] = hi
  tail[len - 4] = bits >>> 24
  tail[len - 3] = bits >>> 16
  tail[len - 2] = bits >>> 8
  tail[len - 1] = bits
  blocks(tail, 0, len)
  const digest = DIGEST
  for (let i = 0; i < 8; i++) {
    const v = H[i]!
    digest[4 * i] = v >>> 24
    digest[4 * i + 1] = v >>> 16
    digest[4 * i + 2] = v >>> 8
    digest[4 * i + 3] = v
  }
  return hexOfDigest(digest)
}
