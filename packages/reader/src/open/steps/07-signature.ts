/**
 * Step 7, the signature through `@spkg/integrity`: the signify Ed25519 signature over the
 * checksum file, against the embedder's `trustedKeys`. A signature that does not verify is an
 * error, not fatal: the package loads as `unverified` and the diagnostics say why.
 */
import {
  CHECKSUM_PATH,
  type Ed25519Fallback,
  PUBLIC_KEY_PATH,
  SIGNATURE_PATH,
  verifyPackageSignature,
} from '@spkg/integrity'
import type { Opening } from '../opening'
import type { SignatureInfo } from '../types'

/**
 * Who signed the package: `unsigned` when the manifest does not say `signed` and there is no
 * signature file; otherwise `verified` (a trusted key) or `unverified` (untrusted key, bad or
 * missing signature), with the findings pushed. `@spkg/integrity`'s `untrusted` and `invalid`
 * both map to `unverified`, as does a browser that cannot verify Ed25519 (`pkg/signature-unsupported`:
 * no WebCrypto Ed25519 and no `ed25519Fallback`).
 */
export async function checkSignature(
  o: Opening,
  trustedKeys: string[],
  ed25519Fallback?: Ed25519Fallback,
): Promise<SignatureInfo> {
  const { manifest, store } = o
  const has = (path: string) => store.files.has(path)
  if (manifest?.signed !== true && !has(SIGNATURE_PATH)) return { status: 'unsigned' }
  const files = new Map<string, Uint8Array>()
  for (const path of [CHECKSUM_PATH, SIGNATURE_PATH, PUBLIC_KEY_PATH])
    if (has(path)) files.set(path, store.read(path))
  const r = await verifyPackageSignature({
    files,
    manifest: { signed: manifest?.signed, signature: manifest?.signature },
    trustedKeys,
    ...(ed25519Fallback ? { ed25519Fallback } : {}),
  })
  o.diagnostics.push(...r.diagnostics)
  if (r.status === 'verified') return { status: 'verified', fingerprint: r.fingerprint }
  if (r.status === 'unsigned') return { status: 'unsigned' }
  return { status: 'unverified', ...(r.fingerprint ? { fingerprint: r.fingerprint } : {}) }
}
