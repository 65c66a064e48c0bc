/**
 * @spkg/integrity: SHA-256 integrity maps, the META-PKG checksum file and Ed25519 signature
 * verification for spkg packages. Isomorphic (WebCrypto); signing is in `@spkg/integrity/sign`,
 * the encrypted container in `@spkg/integrity/encrypt`, `node:crypto` hashing in `@spkg/integrity/node`,
 * the opt-in Ed25519 fallback for browsers without WebCrypto Ed25519 in `@spkg/integrity/ed25519-noble`.
 */

export type { ParsedChecksumFile } from './checksum-file'
export { compareUtf8, createChecksumFile, parseChecksumFile } from './checksum-file'
export type { Ed25519Fallback } from './internal/ed25519'
export { CHECKSUM_PATH, MANIFEST_PATH, PUBLIC_KEY_PATH, SIGNATURE_PATH } from './internal/paths'
export { FINGERPRINT_PATTERN, keyFingerprint } from './key-fingerprint'
export { normalizeDigest, toSriDigest } from './normalize-digest'
export type { DeltaPlan } from './plan-delta-update'
export { planDeltaUpdate } from './plan-delta-update'
export { sha256, sha256Hex, sha256HexSync } from './sha256'
export type { SignifyPublicKey, SignifySignature } from './signify-format'
export { parseSignifyPublicKey, parseSignifySignature } from './signify-format'
export { verifyChecksums } from './verify-checksums'
export type { VerifyIntegrityOptions } from './verify-integrity'
export { verifyIntegrity } from './verify-integrity'
export type { PackageSignatureResult, VerifyPackageSignatureInput } from './verify-package-signature'
export { verifyPackageSignature } from './verify-package-signature'
