/**
 * The part of `@noble/ed25519` the fallback signs with (`ed25519Sign`, `ed25519PublicKey`), apart
 * from verification (`ed25519-noble.ts`): a bundle that never signs leaves this chunk out.
 */
export { getPublicKeyAsync, signAsync } from '@noble/ed25519'
