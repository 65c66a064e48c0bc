/**
 * `@spkg/integrity/ed25519-noble`: the opt-in Ed25519 fallback, for hosts that must verify package
 * signatures on browsers whose WebCrypto lacks Ed25519 (Chrome and Edge before 137, Firefox before
 * 129, Safari before 17). Without it, such a browser reports `pkg/signature-unsupported` and the
 * publisher stays unverified; Node and current browsers verify with WebCrypto either way.
 *
 * Importing it costs a few bytes: `@noble/ed25519` (audited, 3.1 KB gzip) is a lazy chunk, loaded
 * with a dynamic `import()` on the first verification WebCrypto cannot do, so browsers that have
 * Ed25519 never download it.
 */
import type { Ed25519Fallback } from './internal/ed25519'

export type { Ed25519Fallback } from './internal/ed25519'

let noble: Promise<typeof import('./internal/ed25519-noble')> | undefined

/**
 * Ed25519 verification by `@noble/ed25519` (strict RFC 8032, as WebCrypto), for the
 * `ed25519Fallback` option of `verifyPackageSignature` (and of `@spkg/reader`'s opens).
 *
 * @example
 * import { nobleEd25519 } from '@spkg/integrity/ed25519-noble'
 * const result = await verifyPackageSignature({ files, trustedKeys, ed25519Fallback: nobleEd25519 })
 */
export const nobleEd25519: Ed25519Fallback = {
  async verify(publicKey, message, signature) {
    noble ??= import('./internal/ed25519-noble')
    return (await noble).verifyAsync(signature, message, publicKey, { zip215: false })
  },
}
