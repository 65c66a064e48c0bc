/**
 * Ed25519 verification (RFC 8032, pure, no prehash) through WebCrypto, which Node ≥ 18.4,
 * Chrome and Edge 137, Firefox 129 and Safari 17 have. Detection runs once (the RFC 8032 vector).
 *
 * On a runtime without it, verification goes through the {@link Ed25519Fallback} the host passed,
 * or does not happen: `verifyPackageSignature` then reports `pkg/signature-unsupported`. The
 * pure-JavaScript fallback, `nobleEd25519` of `@spkg/integrity/ed25519-noble`, is opt-in so that
 * a bundle that does not ask for it carries no `@noble/ed25519` at all, not even as a lazy chunk
 * (3.1 KB gzip of a reader + story player). Signing is in `ed25519-sign.ts`, apart: a reader only
 * verifies.
 */
import { fromHex, ownBytes } from './bytes'

/** Which implementation signs and verifies: `noble` where WebCrypto has no Ed25519. */
export type Ed25519Backend = 'webcrypto' | 'noble'

/**
 * An Ed25519 verification for runtimes whose WebCrypto lacks Ed25519 (Chrome and Edge before 137,
 * Firefox before 129, Safari before 17): `nobleEd25519` of `@spkg/integrity/ed25519-noble`, or
 * your own. Used only where WebCrypto cannot verify; strict RFC 8032 (no ZIP-215), like WebCrypto.
 */
export interface Ed25519Fallback {
  /** True when `signature` (64 bytes) is a valid signature of `message` by `publicKey` (32 bytes). */
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean>
}

/** A verification that answers false, never throws, on bad input. */
export type Ed25519Verify = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => Promise<boolean>

// RFC 8032 §7.1 test 1: empty message.
const TEST_PK = /* @__PURE__ */ fromHex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a')!
const TEST_SIG = /* @__PURE__ */ fromHex(
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
)!
export const ED25519 = { name: 'Ed25519' } as const

let forced: Ed25519Backend | undefined
let detected: Promise<Ed25519Backend> | undefined

async function detect(): Promise<Ed25519Backend> {
  try {
    const key = await crypto.subtle.importKey('raw', ownBytes(TEST_PK), ED25519, false, ['verify'])
    const ok = await crypto.subtle.verify(ED25519, key, ownBytes(TEST_SIG), new Uint8Array())
    return ok ? 'webcrypto' : 'noble'
  } catch {
    return 'noble'
  }
}

/** `webcrypto` when WebCrypto verifies the RFC 8032 vector, else `noble` (WebCrypto cannot be used). */
export function ed25519Backend(): Promise<Ed25519Backend> {
  if (forced) return Promise.resolve(forced)
  detected ??= detect()
  return detected
}

/**
 * Forces a backend (tests use `noble` to play a runtime without WebCrypto Ed25519); `undefined`
 * restores detection.
 */
export function forceEd25519Backend(backend: Ed25519Backend | undefined): void {
  forced = backend
}

const webCryptoVerify = async (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => {
  const key = await crypto.subtle.importKey('raw', ownBytes(publicKey), ED25519, false, ['verify'])
  return crypto.subtle.verify(ED25519, key, ownBytes(signature), ownBytes(message))
}

/**
 * The verification of this runtime: WebCrypto's, else the `fallback`'s, else `undefined` (this
 * runtime cannot verify Ed25519). The function it gives answers false on wrong lengths, and on
 * keys that are not curve points (which make some implementations throw).
 */
export async function ed25519Verifier(fallback?: Ed25519Fallback): Promise<Ed25519Verify | undefined> {
  const verify = (await ed25519Backend()) === 'webcrypto' ? webCryptoVerify : fallback?.verify.bind(fallback)
  if (!verify) return undefined
  return async (publicKey, message, signature) => {
    if (publicKey.length !== 32 || signature.length !== 64) return false
    try {
      return (await verify(publicKey, message, signature)) === true
    } catch {
      return false
    }
  }
}
