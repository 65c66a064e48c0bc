/**
 * Ed25519 (RFC 8032, pure, no prehash) through WebCrypto when the runtime has it (Node ≥ 18.4,
 * Safari 17, Firefox 129, recent Chromium), otherwise through `@noble/ed25519` (audited, async API
 * hashing with WebCrypto SHA-512). Detection runs once; both paths give identical results because
 * Ed25519 signatures are deterministic.
 *
 * `@noble/ed25519` is loaded with a dynamic `import()`, only once a runtime turns out to lack
 * WebCrypto Ed25519: a browser bundle keeps it in a chunk of its own that runtimes with Ed25519
 * never download (6.6 KB minified of the reader's bundle, a tenth of a player's budget). Verification and signing are
 * two such imports, so a bundle that only verifies (a reader) leaves signing out (0.5 KB).
 */
import { concatBytes, fromBase64, fromHex, ownBytes } from './bytes'

/** Which implementation signs and verifies. */
export type Ed25519Backend = 'webcrypto' | 'noble'

// RFC 8032 §7.1 test 1: empty message.
const TEST_PK = fromHex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a')!
const TEST_SIG = fromHex(
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
)!
const PKCS8_PREFIX = /* @__PURE__ */ fromHex('302e020100300506032b657004220420')!
const ALG = { name: 'Ed25519' } as const

let forced: Ed25519Backend | undefined
let detected: Promise<Ed25519Backend> | undefined
let nobleVerify: Promise<typeof import('./ed25519-noble')> | undefined
let nobleSign: Promise<typeof import('./ed25519-noble-sign')> | undefined

/** `@noble/ed25519`'s verification, imported on first use. */
const noble = () => {
  nobleVerify ??= import('./ed25519-noble')
  return nobleVerify
}

/** `@noble/ed25519`'s signing, imported on first use (apart: a reader only verifies). */
const nobleSigning = () => {
  nobleSign ??= import('./ed25519-noble-sign')
  return nobleSign
}

async function detect(): Promise<Ed25519Backend> {
  try {
    const key = await crypto.subtle.importKey('raw', ownBytes(TEST_PK), ALG, false, ['verify'])
    const ok = await crypto.subtle.verify(ALG, key, ownBytes(TEST_SIG), new Uint8Array())
    return ok ? 'webcrypto' : 'noble'
  } catch {
    return 'noble'
  }
}

/** The backend in use: WebCrypto when it verifies the RFC 8032 vector, else `@noble/ed25519`. */
export function ed25519Backend(): Promise<Ed25519Backend> {
  if (forced) return Promise.resolve(forced)
  detected ??= detect()
  return detected
}

/** Forces a backend (tests use it to exercise the fallback); `undefined` restores detection. */
export function forceEd25519Backend(backend: Ed25519Backend | undefined): void {
  forced = backend
}

/** True when `signature` is a valid Ed25519 signature of `message` by `publicKey`; never throws. */
export async function ed25519Verify(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (publicKey.length !== 32 || signature.length !== 64) return false
  try {
    if ((await ed25519Backend()) === 'webcrypto') {
      const key = await crypto.subtle.importKey('raw', ownBytes(publicKey), ALG, false, ['verify'])
      return await crypto.subtle.verify(ALG, key, ownBytes(signature), ownBytes(message))
    }
    return await (await noble()).verifyAsync(signature, message, publicKey, { zip215: false })
  } catch {
    // Keys that are not curve points make some implementations throw instead of returning false.
    return false
  }
}

/** Ed25519 signature (64 bytes) of `message` with the 32-byte secret seed. */
export async function ed25519Sign(seed: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  if ((await ed25519Backend()) === 'webcrypto') {
    const key = await crypto.subtle.importKey('pkcs8', concatBytes(PKCS8_PREFIX, seed), ALG, false, ['sign'])
    return new Uint8Array(await crypto.subtle.sign(ALG, key, ownBytes(message)))
  }
  return (await nobleSigning()).signAsync(message, seed)
}

/** The 32-byte public key of a 32-byte secret seed. */
export async function ed25519PublicKey(seed: Uint8Array): Promise<Uint8Array> {
  if ((await ed25519Backend()) === 'webcrypto') {
    // A JWK of an OKP private key carries its public half as `x` (RFC 8037), base64url.
    const key = await crypto.subtle.importKey('pkcs8', concatBytes(PKCS8_PREFIX, seed), ALG, true, ['sign'])
    const { x } = await crypto.subtle.exportKey('jwk', key)
    const publicKey = fromBase64((x ?? '').replace(/-/g, '+').replace(/_/g, '/').padEnd(44, '='))
    if (publicKey?.length === 32) return publicKey
    throw new TypeError('WebCrypto exported no Ed25519 public key')
  }
  return (await nobleSigning()).getPublicKeyAsync(seed)
}
