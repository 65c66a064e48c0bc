import { defineCodes } from './types'

/** Codes of integrity, checksums, signatures and encryption (owned by @spkg/integrity). */
export const INTEGRITY_CODES = defineCodes({
  'pkg/integrity-mismatch': {
    severity: 'fatal',
    description:
      'the recomputed SHA-256 of a file listed in `integrity` (or the checksum file) differs, or its `integrity` value is not a SHA-256 digest; the package is refused',
  },
  'pkg/integrity-missing-file': {
    severity: 'fatal',
    description: 'a file listed in `integrity` is absent from the archive, so it cannot be verified',
  },
  'pkg/integrity-malformed': {
    severity: 'fatal',
    description:
      '`integrity` itself is not an object, so no file can be verified (delta update plans also use it for a value that is not a SHA-256 digest)',
  },
  'pkg/integrity-unlisted-file': {
    severity: 'error',
    description: 'a packaged file is missing from `integrity` (closed world: every file must be listed)',
  },
  'pkg/integrity-excluded-entry': {
    severity: 'warning',
    description: '`integrity` lists `manifest.json` or a `META-PKG/` file, which it never covers; ignored',
  },
  'pkg/checksum-malformed': {
    severity: 'error',
    description:
      '`META-PKG/checksum.sha256` is not strict GNU text-mode lines (`<hex>  <path>`, sorted, UTF-8, final LF)',
  },
  'pkg/checksum-missing-file': {
    severity: 'error',
    description: 'a file listed in `META-PKG/checksum.sha256` is absent from the archive',
  },
  'pkg/checksum-unlisted-file': {
    severity: 'error',
    description: 'an archive file is missing from `META-PKG/checksum.sha256` (closed world)',
  },
  'pkg/signature-missing': {
    severity: 'error',
    description:
      'the manifest declares `signed: true` (or a signature exists) but a `META-PKG/` signing file is missing',
  },
  'pkg/signature-malformed': {
    severity: 'error',
    description: '`META-PKG/signature.sig` is not a signify Ed25519 signature file',
  },
  'pkg/signature-mismatch': {
    severity: 'error',
    description:
      'the signature does not verify while the bytes are intact; the story loads, the publisher is unverified',
  },
  'pkg/public-key-missing': {
    severity: 'error',
    description: 'no trusted key and no `META-PKG/author.pub` carries the key id of the signature',
  },
  'pkg/key-malformed': {
    severity: 'error',
    description: 'a public or secret key is not in signify Ed25519 format (or is passphrase-protected)',
  },
  'pkg/untrusted-key': {
    severity: 'warning',
    description:
      'the signature verifies with the embedded `author.pub`, which no trusted key vouches for; the publisher is unverified',
  },
  'pkg/signer-mismatch': {
    severity: 'error',
    description: 'the manifest `signature` field is not the fingerprint of the key that signed the package',
  },
  'pkg/key-required': {
    severity: 'fatal',
    description: 'the package is encrypted (`.spkg.enc`) and no decryption key was supplied',
  },
  'pkg/decrypt-failed': {
    severity: 'fatal',
    description:
      'the encrypted container cannot be decrypted: wrong key, bad header, tampered, truncated or reordered chunks',
  },
})
