/**
 * Browser side of the isomorphism test: runs the library in Chromium on inputs made in Node and
 * returns plain results for Node to compare.
 */

import { nobleEd25519 } from '../../src/ed25519-noble'
import { decryptPackage, encryptPackage } from '../../src/encrypt'
import { sha256Hex, verifyPackageSignature } from '../../src/index'
import { ed25519Backend, forceEd25519Backend } from '../../src/internal/ed25519'
import { signChecksum } from '../../src/sign'

export interface BrowserInput {
  data: string // base64
  checksum: string // base64
  signatureText: string
  publicKeyText: string
  secretKeyText: string
  sealed: string // base64, encrypted in Node
  key: string // base64
}

const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
const toB64 = (b: Uint8Array) => btoa(Array.from(b, (x) => String.fromCharCode(x)).join(''))

async function run(input: BrowserInput) {
  const data = b64(input.data)
  const checksum = b64(input.checksum)
  const key = b64(input.key)
  const out: Record<string, unknown> = {}
  out.detectedBackend = await ed25519Backend()
  out.sha256 = await sha256Hex(data)
  out.sha256Empty = await sha256Hex(new Uint8Array())
  for (const backend of ['webcrypto', 'noble'] as const) {
    forceEd25519Backend(backend)
    try {
      const r = await verifyPackageSignature({
        checksumBytes: checksum,
        signatureText: input.signatureText,
        publicKeyText: input.publicKeyText,
        trustedKeys: [input.publicKeyText],
        ed25519Fallback: nobleEd25519,
      })
      out[`verify_${backend}`] = r.status
      out[`sign_${backend}`] = await signChecksum(checksum, input.secretKeyText)
    } catch (e) {
      out[`verify_${backend}`] = `threw ${(e as Error).message}`
    }
  }
  // Without the opt-in fallback, a browser without WebCrypto Ed25519 reports that it cannot verify.
  forceEd25519Backend('noble')
  const unsupported = await verifyPackageSignature({
    checksumBytes: checksum,
    signatureText: input.signatureText,
    publicKeyText: input.publicKeyText,
    trustedKeys: [input.publicKeyText],
  })
  out.verify_unsupported = [unsupported.status, ...unsupported.diagnostics.map((d) => d.code)].join(' ')
  forceEd25519Backend(undefined)
  out.decrypted = toB64(await decryptPackage(b64(input.sealed), key))
  out.encrypted = toB64(await encryptPackage(data, key))
  const tampered = b64(input.sealed)
  tampered[40]! ^= 1
  out.tamperedCode = await decryptPackage(tampered, key).then(
    () => 'no error',
    (e: { code?: string }) => e.code,
  )
  return out
}

;(globalThis as unknown as { runIntegrity: typeof run }).runIntegrity = run
