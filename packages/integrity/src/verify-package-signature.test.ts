import { importKeyWithoutEd25519 } from '@spkg/test-utils'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { nobleEd25519 } from './ed25519-noble'
import { forceEd25519Backend } from './internal/ed25519'
import { generateSigningKeys, type SigningKeys, signChecksum } from './sign'
import { verifyPackageSignature } from './verify-package-signature'

const enc = new TextEncoder()
const checksum = enc.encode(`${'a'.repeat(64)}  manifest.json\n${'b'.repeat(64)}  story/a.sty\n`)
let author: SigningKeys
let other: SigningKeys
let sig: string

beforeAll(async () => {
  author = await generateSigningKeys()
  other = await generateSigningKeys()
  sig = await signChecksum(checksum, author.secretKeyText)
})
afterEach(() => forceEd25519Backend(undefined))

const files = () =>
  new Map<string, Uint8Array>([
    ['META-PKG/checksum.sha256', checksum],
    ['META-PKG/signature.sig', enc.encode(sig)],
    ['META-PKG/author.pub', enc.encode(author.publicKeyText)],
  ])

describe('verifyPackageSignature', () => {
  it('reports an unsigned package with no diagnostics', async () => {
    expect(await verifyPackageSignature({ files: new Map(), manifest: {} })).toEqual({
      status: 'unsigned',
      diagnostics: [],
    })
  })

  it.each(['webcrypto', 'noble'] as const)('verifies with a trusted signify key (%s)', async (backend) => {
    forceEd25519Backend(backend)
    const result = await verifyPackageSignature({
      files: files(),
      manifest: { signed: true, signature: author.fingerprint },
      trustedKeys: [author.publicKeyText],
      ed25519Fallback: nobleEd25519,
    })
    expect(result).toEqual({
      status: 'verified',
      fingerprint: author.fingerprint,
      keyId: author.keyId,
      diagnostics: [],
    })
  })

  it('verifies with a trusted raw key or a trusted fingerprint of the embedded key', async () => {
    for (const trusted of [author.publicKey, author.fingerprint]) {
      const result = await verifyPackageSignature({ files: files(), trustedKeys: [other.publicKey, trusted] })
      expect(result.status).toBe('verified')
    }
  })

  it('loads a valid signature by an untrusted embedded key as untrusted, with its own warning', async () => {
    const result = await verifyPackageSignature({ files: files(), trustedKeys: [other.publicKeyText] })
    expect(result.status).toBe('untrusted')
    expect(result.fingerprint).toBe(author.fingerprint)
    expect(result.diagnostics).toEqual([
      {
        code: 'pkg/untrusted-key',
        severity: 'warning',
        message: `the signature verifies with the embedded META-PKG/author.pub (${author.fingerprint}), but no trusted key vouches for it; the publisher is unverified`,
        path: 'META-PKG/author.pub',
      },
    ])
  })

  it('reports pkg/signature-mismatch (error) when the checksum bytes were changed after signing', async () => {
    const tampered = files().set('META-PKG/checksum.sha256', enc.encode(`${'c'.repeat(64)}  manifest.json\n`))
    const result = await verifyPackageSignature({ files: tampered, trustedKeys: [author.publicKeyText] })
    expect(result.status).toBe('invalid')
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['pkg/signature-mismatch', 'error', 'META-PKG/signature.sig'],
    ])
  })

  it('does not let an attacker-embedded key pass as trusted after re-signing', async () => {
    const forged = new Map<string, Uint8Array>([
      ['META-PKG/checksum.sha256', checksum],
      ['META-PKG/signature.sig', enc.encode(await signChecksum(checksum, other.secretKeyText))],
      ['META-PKG/author.pub', enc.encode(other.publicKeyText)],
    ])
    const result = await verifyPackageSignature({ files: forged, trustedKeys: [author.publicKeyText] })
    expect(result.status).toBe('untrusted')
    expect(result.fingerprint).toBe(other.fingerprint)
  })

  it('treats a signed package whose META-PKG files are missing as a signature error', async () => {
    const noSig = await verifyPackageSignature({ files: new Map(), manifest: { signed: true } })
    expect(noSig.status).toBe('invalid')
    expect(noSig.diagnostics.map((d) => [d.code, d.severity, d.path, d.field])).toEqual([
      ['pkg/signature-missing', 'error', 'META-PKG/signature.sig', '/signed'],
    ])
    const f = files()
    f.delete('META-PKG/checksum.sha256')
    const noChecksum = await verifyPackageSignature({ files: f })
    expect(noChecksum.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['pkg/signature-missing', 'META-PKG/checksum.sha256'],
    ])
  })

  it('reports a malformed signature file', async () => {
    const result = await verifyPackageSignature({
      files: files().set('META-PKG/signature.sig', enc.encode('junk')),
    })
    expect(result.status).toBe('invalid')
    expect(result.diagnostics[0]).toMatchObject({
      code: 'pkg/signature-malformed',
      path: 'META-PKG/signature.sig',
    })
  })

  it('reports a missing key when neither a trusted key nor author.pub has the key id', async () => {
    const f = files()
    f.delete('META-PKG/author.pub')
    const result = await verifyPackageSignature({ files: f, trustedKeys: [other.publicKeyText] })
    expect(result).toMatchObject({ status: 'invalid', keyId: author.keyId })
    expect(result.diagnostics.map((d) => d.code)).toEqual(['pkg/public-key-missing'])
  })

  it('reports a malformed author.pub and a malformed trusted key but still uses good keys', async () => {
    const result = await verifyPackageSignature({
      files: files().set('META-PKG/author.pub', enc.encode('nope')),
      trustedKeys: ['not a key', author.publicKeyText],
    })
    expect(result.status).toBe('verified')
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['pkg/key-malformed', 'error', 'META-PKG/author.pub'],
      ['pkg/key-malformed', 'error', undefined],
    ])
  })

  it('reports a manifest signature field that names another key', async () => {
    const result = await verifyPackageSignature({
      files: files(),
      manifest: { signed: true, signature: other.fingerprint },
      trustedKeys: [author.publicKeyText],
    })
    expect(result.status).toBe('verified')
    expect(result.diagnostics).toEqual([
      {
        code: 'pkg/signer-mismatch',
        severity: 'error',
        message: `manifest signature is "${other.fingerprint}" but the package was signed by ${author.fingerprint}`,
        path: 'manifest.json',
        field: '/signature',
      },
    ])
  })

  it('prefers explicit inputs over the files map', async () => {
    const result = await verifyPackageSignature({
      files: new Map(),
      checksumBytes: checksum,
      signatureText: sig,
      publicKeyText: author.publicKeyText,
      trustedKeys: [author.fingerprint],
    })
    expect(result.status).toBe('verified')
  })

  describe('on a browser without WebCrypto Ed25519 (importKey refuses it, as before Chrome 137)', () => {
    afterEach(() => {
      vi.restoreAllMocks()
      vi.resetModules()
    })

    // A fresh copy of the modules, WebCrypto stubbed first: detection runs once per module instance.
    const withoutWebCryptoEd25519 = async () => {
      vi.spyOn(crypto.subtle, 'importKey').mockImplementation(
        importKeyWithoutEd25519(crypto.subtle.importKey.bind(crypto.subtle)),
      )
      vi.resetModules()
      return (await import('./verify-package-signature')).verifyPackageSignature
    }

    it('reports pkg/signature-unsupported, never verified, without the opt-in fallback', async () => {
      const verify = await withoutWebCryptoEd25519()
      const result = await verify({
        files: files(),
        manifest: { signed: true, signature: author.fingerprint },
        trustedKeys: [author.publicKeyText],
      })
      expect(result).toEqual({
        status: 'invalid',
        keyId: author.keyId,
        diagnostics: [
          {
            code: 'pkg/signature-unsupported',
            severity: 'warning',
            message: `this runtime's WebCrypto has no Ed25519 and no fallback was passed, so the signature in META-PKG/signature.sig (key id ${author.keyId}) cannot be checked; the publisher is unverified`,
            path: 'META-PKG/signature.sig',
          },
        ],
      })
    })

    it('verifies with nobleEd25519 passed as ed25519Fallback, and still refuses a bad signature', async () => {
      const verify = await withoutWebCryptoEd25519()
      const { nobleEd25519: fallback } = await import('./ed25519-noble')
      const ok = await verify({
        files: files(),
        trustedKeys: [author.publicKeyText],
        ed25519Fallback: fallback,
      })
      expect(ok).toMatchObject({ status: 'verified', fingerprint: author.fingerprint, diagnostics: [] })
      const tampered = files().set(
        'META-PKG/checksum.sha256',
        enc.encode(`${'c'.repeat(64)}  manifest.json\n`),
      )
      const bad = await verify({
        files: tampered,
        trustedKeys: [author.publicKeyText],
        ed25519Fallback: fallback,
      })
      expect(bad.diagnostics.map((d) => d.code)).toEqual(['pkg/signature-mismatch'])
    })
  })
})
