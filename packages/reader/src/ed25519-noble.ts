/**
 * `@spkg/reader/ed25519-noble`: the opt-in Ed25519 fallback of the reader, for hosts that must
 * verify package signatures on browsers whose WebCrypto lacks Ed25519 (Chrome and Edge before 137,
 * Firefox before 129, Safari before 17). `@spkg/integrity/ed25519-noble`, re-exported so that a
 * host needs no dependency on `@spkg/integrity`. `@noble/ed25519` stays a lazy chunk, downloaded
 * only by browsers without WebCrypto Ed25519.
 *
 * @example
 * import { openPackage } from '@spkg/reader'
 * import { nobleEd25519 } from '@spkg/reader/ed25519-noble'
 * const result = await openPackage(bytes, { trustedKeys, ed25519Fallback: nobleEd25519 })
 */
export { type Ed25519Fallback, nobleEd25519 } from '@spkg/integrity/ed25519-noble'
