/**
 * Ed25519 signing and key derivation (RFC 8032) for publishers, through WebCrypto where it has
 * Ed25519, else through `@noble/ed25519` imported on first use. Only `@spkg/integrity/sign`
 * reaches this module: a reader, which only verifies, never bundles it (nor its lazy chunk).
 */
import { concatBytes, fromBase64, fromHex, ownBytes } from './bytes'
import { ED25519, ed25519Backend } from './ed25519'

const PKCS8_PREFIX = /* @__PURE__ */ fromHex('302e020100300506032b657004220420')!

let nobleSign: Promise<typeof import('./ed25519-noble-sign')> | undefined

/** `@noble/ed25519`'s signing, imported on first use. */
const nobleSigning = () => {
  nobleSign ??= import('./ed25519-noble-sign')
  return nobleSign
}

/** Ed25519 signature (64 bytes) of `message` with the 32-byte secret seed. */
export async function ed25519Sign(seed: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  if ((await ed25519Backend()) === 'webcrypto') {
    const key = await crypto.subtle.importKey('pkcs8', concatBytes(PKCS8_PREFIX, seed), ED25519, false, [
      'sign',
    ])
    return new Uint8Array(await crypto.subtle.sign(ED25519, key, ownBytes(message)))
  }
  return (await nobleSigning()).signAsync(message, seed)
}

/** The 32-byte public key of a 32-byte secret seed. */
export async function ed25519PublicKey(seed: Uint8Array): Promise<Uint8Array> {
  if ((await ed25519Backend()) === 'webcrypto') {
    // A JWK of an OKP private key carries its public half as `x` (RFC 8037), base64url.
    const key = await crypto.subtle.importKey('pkcs8', concatBytes(PKCS8_PREFIX, seed), ED25519, true, [
      'sign',
    ])
    const { x } = await crypto.subtle.exportKey('jwk', key)
    const publicKey = fromBase64((x ?? '').replace(/-/g, '+').replace(/_/g, '/').padEnd(44, '='))
    if (publicKey?.length === 32) return publicKey
    throw new TypeError('WebCrypto exported no Ed25519 public key')
  }
  return (await nobleSigning()).getPublicKeyAsync(seed)
}
