import { createHash } from 'node:crypto'
import { createChecksumFile } from '@spkg/integrity'
import { generateSigningKeys, signChecksum } from '@spkg/integrity/sign'
import { buildArchive, buildPackage, packageFiles } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { nodeBackend } from '../../node/backend'
import { prepareOpening } from '../open-archive'
import type { Opening } from '../opening'
import { checkSignature } from './07-signature'

const enc = new TextEncoder()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const opening = async (bytes: Uint8Array) => (await prepareOpening(bytes, {}, nodeBackend, false)) as Opening

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
    const keys = await generateSigningKeys()
    const files = packageFiles({ manifest: { signed: true, signature: keys.fingerprint } })
    files.set('META-PKG/author.pub', enc.encode(keys.publicKeyText))
    const checksum = createChecksumFile(new Map([...files].map(([k, v]) => [k, sha(v)])))
    files.set('META-PKG/checksum.sha256', checksum)
    files.set('META-PKG/signature.sig', enc.encode(await signChecksum(checksum, keys.secretKeyText)))
    const bytes = buildArchive(Object.fromEntries(files))
    expect(await checkSignature(await opening(bytes), [keys.publicKeyText])).toEqual({
      status: 'verified',
      fingerprint: keys.fingerprint,
    })
    const stranger = await generateSigningKeys()
    const o = await opening(bytes)
    expect((await checkSignature(o, [stranger.publicKeyText])).status).toBe('unverified')
    expect(o.diagnostics.map((d) => d.code)).toContain('pkg/untrusted-key')
  })
})
