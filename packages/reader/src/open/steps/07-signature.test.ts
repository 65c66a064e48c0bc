import { createHash } from 'node:crypto'
import { createChecksumFile } from '@spkg/integrity'
import { generateSigningKeys, signChecksum } from '@spkg/integrity/sign'
import { buildArchive, buildPackage, importKeyWithoutEd25519, packageFiles } from '@spkg/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { nodeBackend } from '../../node/backend'
import { prepareOpening } from '../open-archive'
import type { Opening } from '../opening'
import { checkSignature } from './07-signature'

const enc = new TextEncoder()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const opening = async (bytes: Uint8Array) => (await prepareOpening(bytes, {}, nodeBackend, false)) as Opening

/** A signed package (signed: true, author.pub embedded) and its keys. */
async function signedPackage() {
  const keys = await generateSigningKeys()
  const files = packageFiles({ manifest: { signed: true, signature: keys.fingerprint } })
  files.set('META-PKG/author.pub', enc.encode(keys.publicKeyText))
  const checksum = createChecksumFile(new Map([...files].map(([k, v]) => [k, sha(v)])))
  files.set('META-PKG/checksum.sha256', checksum)
  files.set('META-PKG/signature.sig', enc.encode(await signChecksum(checksum, keys.secretKeyText)))
  return { keys, bytes: buildArchive(Object.fromEntries(files)) }
}

describe('step 7: the signature', () => {
  it('is unsigned without a signature file or signed: true', async () => {
    const o = await opening(buildPackage())
    const before = o.diagnostics.length
    expect(await checkSignature(o, [])).toEqual({ status: 'unsigned' })
    expect(o.diagnostics.length).toBe(before)
  })

  it('is unverified when the manifest says signed and the files are missing', async () => {
    const o = await opening(buildPackage({ manifest: { signed: true } }))
    expect(await checkSignature(o, [])).toEqual({ status: 'unverified' })
    expect(o.diagnostics.map((d) => d.code)).toContain('pkg/signature-missing')
  })

  it('is verified by a trusted key and unverified by another', async () => {
    const { keys, bytes } = await signedPackage()
    expect(await checkSignature(await opening(bytes), [keys.publicKeyText])).toEqual({
      status: 'verified',
      fingerprint: keys.fingerprint,
    })
    const stranger = await generateSigningKeys()
    const o = await opening(bytes)
    expect((await checkSignature(o, [stranger.publicKeyText])).status).toBe('unverified')
    expect(o.diagnostics.map((d) => d.code)).toContain('pkg/untrusted-key')
  })

  describe('on a browser without WebCrypto Ed25519 (importKey refuses it, as before Chrome 137)', () => {
    afterEach(() => {
      vi.restoreAllMocks()
      vi.resetModules()
    })

    // Fresh modules after the stub: @spkg/integrity detects WebCrypto Ed25519 once per instance.
    const withoutWebCryptoEd25519 = async () => {
      vi.spyOn(crypto.subtle, 'importKey').mockImplementation(
        importKeyWithoutEd25519(crypto.subtle.importKey.bind(crypto.subtle)),
      )
      vi.resetModules()
      return {
        ...(await import('./07-signature')),
        ...(await import('../../ed25519-noble')),
      }
    }

    it('is unverified with pkg/signature-unsupported without the opt-in fallback', async () => {
      const { keys, bytes } = await signedPackage()
      const m = await withoutWebCryptoEd25519()
      const o = await opening(bytes)
      expect(await m.checkSignature(o, [keys.publicKeyText])).toEqual({ status: 'unverified' })
      const d = o.diagnostics.find((x) => x.code === 'pkg/signature-unsupported')
      expect(d).toMatchObject({ severity: 'warning', path: 'META-PKG/signature.sig' })
    })

    it('is verified with ed25519Fallback: nobleEd25519 of @spkg/reader/ed25519-noble', async () => {
      const { keys, bytes } = await signedPackage()
      const m = await withoutWebCryptoEd25519()
      const o = await opening(bytes)
      expect(await m.checkSignature(o, [keys.publicKeyText], m.nobleEd25519)).toEqual({
        status: 'verified',
        fingerprint: keys.fingerprint,
      })
      expect(o.diagnostics.map((d) => d.code)).not.toContain('pkg/signature-unsupported')
    })
  })
})
