/**
 * Signature check of a package: Ed25519 over the exact bytes of `META-PKG/checksum.sha256`,
 * verified with a key the embedder trusts. `META-PKG/author.pub` is only a hint: a valid signature
 * by a key nobody vouches for loads as `untrusted`. Never throws on bad input.
 *
 * Verification is WebCrypto's Ed25519. A host that must also verify on browsers without it (Chrome
 * and Edge before 137, Firefox before 129, Safari before 17) passes `ed25519Fallback:
 * nobleEd25519` (`@spkg/integrity/ed25519-noble`); without it such a browser reports
 * `pkg/signature-unsupported`, and the package is not verified.
 *
 * This does not re-hash files: call {@link verifyChecksums} first; a fatal there refuses the
 * package, and this function then tells whether the intact bytes come from a trusted publisher.
 */
import { createDiagnostic, type Diagnostic, isSpkgError } from '@spkg/manifest'
import { bytesEqual, toHex } from './internal/bytes'
import { type Ed25519Fallback, ed25519Verifier } from './internal/ed25519'
import { CHECKSUM_PATH, PUBLIC_KEY_PATH, SIGNATURE_PATH } from './internal/paths'
import { FINGERPRINT_PATTERN, keyFingerprint } from './key-fingerprint'
import { parseSignifyPublicKey, parseSignifySignature, type SignifySignature } from './signify-format'

/** Input of {@link verifyPackageSignature}. */
export interface VerifyPackageSignatureInput {
  /** Archive files by path; only `META-PKG/checksum.sha256`, `signature.sig` and `author.pub` are read. */
  files?: ReadonlyMap<string, Uint8Array>
  /** Bytes of `META-PKG/checksum.sha256` (overrides `files`). */
  checksumBytes?: Uint8Array
  /** `META-PKG/signature.sig` (overrides `files`). */
  signatureText?: string | Uint8Array
  /** `META-PKG/author.pub`, a hint only (overrides `files`). */
  publicKeyText?: string | Uint8Array
  /** The manifest's `signed` and `signature` fields. */
  manifest?: { signed?: boolean; signature?: string }
  /**
   * Keys the embedder trusts for this story: signify `.pub` texts, raw 32-byte keys, or
   * fingerprints `ed25519:<base64>` (which vouch for a matching embedded `author.pub`).
   * @default []
   */
  trustedKeys?: readonly (string | Uint8Array)[]
  /**
   * The Ed25519 verification for a runtime whose WebCrypto has none (Chrome and Edge before 137,
   * Firefox before 129, Safari before 17): `nobleEd25519` of `@spkg/integrity/ed25519-noble`. Opt-in,
   * so that a bundle without it carries no `@noble/ed25519`; there, such a runtime reports
   * `pkg/signature-unsupported` (status `invalid`). Node and current browsers never use it.
   */
  ed25519Fallback?: Ed25519Fallback
}

/** Outcome of {@link verifyPackageSignature}. */
export interface PackageSignatureResult {
  /**
   * `unsigned`: no signature and none declared. `verified`: a trusted key signed it.
   * `untrusted`: valid, but only the embedded `author.pub` vouches for the key.
   * `invalid`: declared or present but missing, malformed, not verifying, or not verifiable on
   * this runtime (`pkg/signature-unsupported`).
   */
  status: 'unsigned' | 'verified' | 'untrusted' | 'invalid'
  /** Fingerprint of the key whose signature verified (`ed25519:<base64>`). */
  fingerprint?: string
  /** signify key number of the signature, as hex. */
  keyId?: string
  diagnostics: Diagnostic[]
}

interface Candidate {
  publicKey: Uint8Array
  trusted: boolean
}

function pick(
  explicit: string | Uint8Array | undefined,
  files: ReadonlyMap<string, Uint8Array> | undefined,
  path: string,
): string | Uint8Array | undefined {
  return explicit ?? files?.get(path)
}

/** Trusted keys that may have made `sig`, plus the embedded key when nobody vouches for it. */
async function candidates(
  sig: SignifySignature,
  input: VerifyPackageSignatureInput,
  embedded: Uint8Array | undefined,
  diagnostics: Diagnostic[],
): Promise<Candidate[]> {
  const out: Candidate[] = []
  const fingerprints = new Set<string>()
  for (const [i, key] of (input.trustedKeys ?? []).entries()) {
    if (typeof key === 'string' && FINGERPRINT_PATTERN.test(key.trim())) {
      fingerprints.add(key.trim())
    } else if (key instanceof Uint8Array && key.length === 32) {
      out.push({ publicKey: key, trusted: true })
    } else {
      try {
        const parsed = parseSignifyPublicKey(key)
        if (bytesEqual(parsed.keyId, sig.keyId)) out.push({ publicKey: parsed.publicKey, trusted: true })
      } catch {
        diagnostics.push(
          createDiagnostic('pkg/key-malformed', `trusted key #${i + 1} is not a signify Ed25519 public key`),
        )
      }
    }
  }
  if (embedded) {
    const vouched = fingerprints.has(await keyFingerprint(embedded))
    out.push({ publicKey: embedded, trusted: vouched })
  }
  return out
}

/**
 * Verifies `META-PKG/signature.sig` over `META-PKG/checksum.sha256` and reports who signed.
 *
 * Codes: `pkg/signature-missing` (signed but a file is missing), `pkg/signature-malformed`,
 * `pkg/key-malformed`, `pkg/public-key-missing`, `pkg/signature-mismatch` (error: the story
 * loads, the publisher is unverified), `pkg/untrusted-key` (warning), `pkg/signer-mismatch`,
 * `pkg/signature-unsupported` (warning: no WebCrypto Ed25519 and no `ed25519Fallback`).
 *
 * @example
 * const result = await verifyPackageSignature({ files, manifest, trustedKeys: [pinnedPub] })
 * if (result.status !== 'verified') showUnverifiedPublisherNotice()
 */
export async function verifyPackageSignature(
  input: VerifyPackageSignatureInput,
): Promise<PackageSignatureResult> {
  const diagnostics: Diagnostic[] = []
  const checksum = input.checksumBytes ?? input.files?.get(CHECKSUM_PATH)
  const sigInput = pick(input.signatureText, input.files, SIGNATURE_PATH)
  const pubInput = pick(input.publicKeyText, input.files, PUBLIC_KEY_PATH)
  const declared = input.manifest?.signed === true
  const invalid = (): PackageSignatureResult => ({ status: 'invalid', diagnostics })

  if (sigInput === undefined) {
    if (!declared) return { status: 'unsigned', diagnostics }
    diagnostics.push(
      createDiagnostic(
        'pkg/signature-missing',
        `the manifest declares signed: true but ${SIGNATURE_PATH} is missing`,
        {
          path: SIGNATURE_PATH,
          field: '/signed',
        },
      ),
    )
    return invalid()
  }
  if (checksum === undefined) {
    diagnostics.push(
      createDiagnostic(
        'pkg/signature-missing',
        `${SIGNATURE_PATH} is present but ${CHECKSUM_PATH}, which it signs, is missing`,
        {
          path: CHECKSUM_PATH,
        },
      ),
    )
    return invalid()
  }
  let sig: SignifySignature
  try {
    sig = parseSignifySignature(sigInput)
  } catch (e) {
    diagnostics.push(
      createDiagnostic('pkg/signature-malformed', isSpkgError(e) ? e.message : 'unreadable signature', {
        path: SIGNATURE_PATH,
      }),
    )
    return invalid()
  }
  const keyId = toHex(sig.keyId)
  let embedded: Uint8Array | undefined
  if (pubInput !== undefined) {
    try {
      const parsed = parseSignifyPublicKey(pubInput)
      if (bytesEqual(parsed.keyId, sig.keyId)) embedded = parsed.publicKey
    } catch (e) {
      diagnostics.push(
        createDiagnostic('pkg/key-malformed', isSpkgError(e) ? e.message : 'unreadable public key', {
          path: PUBLIC_KEY_PATH,
        }),
      )
    }
  }
  const keys = await candidates(sig, input, embedded, diagnostics)
  if (keys.length === 0) {
    diagnostics.push(
      createDiagnostic(
        'pkg/public-key-missing',
        `no trusted key and no ${PUBLIC_KEY_PATH} has key id ${keyId}, so the signature cannot be checked`,
        { path: SIGNATURE_PATH },
      ),
    )
    return { status: 'invalid', keyId, diagnostics }
  }
  const verify = await ed25519Verifier(input.ed25519Fallback)
  if (!verify) {
    diagnostics.push(
      createDiagnostic(
        'pkg/signature-unsupported',
        `this runtime's WebCrypto has no Ed25519 and no fallback was passed, so the signature in ${SIGNATURE_PATH} (key id ${keyId}) cannot be checked; the publisher is unverified`,
        { path: SIGNATURE_PATH },
      ),
    )
    return { status: 'invalid', keyId, diagnostics }
  }
  // Trusted keys first: a trusted match wins over the embedded hint.
  keys.sort((a, b) => Number(b.trusted) - Number(a.trusted))
  let signer: Candidate | undefined
  for (const key of keys) {
    if (await verify(key.publicKey, checksum, sig.signature)) {
      signer = key
      break
    }
  }
  if (!signer) {
    diagnostics.push(
      createDiagnostic(
        'pkg/signature-mismatch',
        `the signature in ${SIGNATURE_PATH} does not verify over ${CHECKSUM_PATH} (key id ${keyId}); the publisher is unverified`,
        { path: SIGNATURE_PATH },
      ),
    )
    return { status: 'invalid', keyId, diagnostics }
  }
  const fingerprint = await keyFingerprint(signer.publicKey)
  if (!signer.trusted) {
    diagnostics.push(
      createDiagnostic(
        'pkg/untrusted-key',
        `the signature verifies with the embedded ${PUBLIC_KEY_PATH} (${fingerprint}), but no trusted key vouches for it; the publisher is unverified`,
        { path: PUBLIC_KEY_PATH },
      ),
    )
  }
  checkDeclaredSigner(input.manifest?.signature, fingerprint, diagnostics)
  return { status: signer.trusted ? 'verified' : 'untrusted', fingerprint, keyId, diagnostics }
}

function checkDeclaredSigner(declared: unknown, fingerprint: string, diagnostics: Diagnostic[]): void {
  if (declared === undefined) return
  if (declared !== fingerprint) {
    diagnostics.push(
      createDiagnostic(
        'pkg/signer-mismatch',
        `manifest signature is ${JSON.stringify(declared)} but the package was signed by ${fingerprint}`,
        { path: 'manifest.json', field: '/signature' },
      ),
    )
  }
}
