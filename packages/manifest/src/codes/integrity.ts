import { defineCodes, error, fatal, warning } from './types'

/** Codes of integrity, checksums, signatures and encryption (owned by @spkg/integrity). */
export const INTEGRITY_CODES = defineCodes({
  'pkg/integrity-mismatch': fatal(
    'the recomputed SHA-256 of a file listed in `integrity` (or the checksum file) differs, or its `integrity` value is not a SHA-256 digest; the package is refused',
  ),
  'pkg/integrity-missing-file': fatal(
    'a file listed in `integrity` is absent from the archive, so it cannot be verified',
  ),
  'pkg/integrity-malformed': fatal(
    '`integrity` itself is not an object, so no file can be verified (delta update plans also use it for a value that is not a SHA-256 digest)',
  ),
  'pkg/integrity-unlisted-file': error(
    'a packaged file is missing from `integrity` (closed world: every file must be listed)',
  ),
  'pkg/integrity-excluded-entry': warning(
    '`integrity` lists `manifest.json` or a `META-PKG/` file, which it never covers; ignored',
  ),
  'pkg/checksum-malformed': error(
    '`META-PKG/checksum.sha256` is not strict GNU text-mode lines (`<hex>  <path>`, sorted, UTF-8, final LF)',
  ),
  'pkg/checksum-missing-file': error(
    'a file listed in `META-PKG/checksum.sha256` is absent from the archive',
  ),
  'pkg/checksum-unlisted-file': error(
    'an archive file is missing from `META-PKG/checksum.sha256` (closed world)',
  ),
  'pkg/signature-missing': error(
    'the manifest declares `signed: true` (or a signature exists) but a `META-PKG/` signing file is missing',
  ),
  'pkg/signature-malformed': error('`META-PKG/signature.sig` is not a signify Ed25519 signature file'),
  'pkg/signature-mismatch': error(
    'the signature does not verify while the bytes are intact; the story loads, the publisher is unverified',
  ),
  'pkg/public-key-missing': error(
    'no trusted key and no `META-PKG/author.pub` carries the key id of the signature',
  ),
  'pkg/signature-unsupported': warning(
    'the runtime cannot verify Ed25519 (a browser whose WebCrypto lacks it, and the host passed no fallback), so the signature is not checked; the story loads, the publisher is unverified',
  ),
  'pkg/key-malformed': error(
    'a public or secret key is not in signify Ed25519 format (or is passphrase-protected)',
  ),
  'pkg/untrusted-key': warning(
    'the signature verifies with the embedded `author.pub`, which no trusted key vouches for; the publisher is unverified',
  ),
  'pkg/signer-mismatch': error(
    'the manifest `signature` field is not the fingerprint of the key that signed the package',
  ),
  'pkg/key-required': fatal('the package is encrypted (`.spkg.enc`) and no decryption key was supplied'),
  'pkg/decrypt-failed': fatal(
    'the encrypted container cannot be decrypted: wrong key, bad header, tampered, truncated or reordered chunks',
  ),
})
