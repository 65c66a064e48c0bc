/**
 * Interop with the real OpenBSD signify: keys and signatures it makes must verify here, and what
 * we write must satisfy `signify -V` and be usable by `signify -S`. Skips only if the binary is absent.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { keyFingerprint } from './key-fingerprint'
import { generateSigningKeys, parseSignifySecretKey, publicKeyFromSecret, signChecksum } from './sign'
import { parseSignifyPublicKey } from './signify-format'
import { verifyPackageSignature } from './verify-package-signature'

const SIGNIFY = 'signify-openbsd'
function hasSignify(): boolean {
  try {
    execFileSync(SIGNIFY, [], { stdio: 'ignore' })
    return true
  } catch (e) {
    return (e as { code?: string }).code !== 'ENOENT'
  }
}

describe.skipIf(!hasSignify())('signify-openbsd interop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-signify-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const at = (name: string) => join(dir, name)
  const run = (args: string[]) => execFileSync(SIGNIFY, args, { cwd: dir, stdio: 'pipe' }).toString()
  const checksum = new TextEncoder().encode(
    `${'a'.repeat(64)}  manifest.json\n${'b'.repeat(64)}  story/a.sty\n`,
  )
  writeFileSync(at('checksum.sha256'), checksum)

  it('signify -V accepts our signature made with our generated key', async () => {
    const keys = await generateSigningKeys()
    writeFileSync(at('ours.pub'), keys.publicKeyText)
    writeFileSync(at('ours.sig'), await signChecksum(checksum, keys.secretKeyText))
    expect(run(['-V', '-p', 'ours.pub', '-x', 'ours.sig', '-m', 'checksum.sha256'])).toContain(
      'Signature Verified',
    )
    writeFileSync(at('tampered.sha256'), new Uint8Array([...checksum, 10]))
    expect(() => run(['-V', '-q', '-p', 'ours.pub', '-x', 'ours.sig', '-m', 'tampered.sha256'])).toThrow()
  })

  it('signify -S signs with our secret key file, and we verify its signature', async () => {
    const keys = await generateSigningKeys()
    writeFileSync(at('ours2.sec'), keys.secretKeyText, { mode: 0o600 })
    run(['-S', '-s', 'ours2.sec', '-m', 'checksum.sha256', '-x', 'theirs.sig'])
    const result = await verifyPackageSignature({
      checksumBytes: checksum,
      signatureText: readFileSync(at('theirs.sig')),
      trustedKeys: [keys.publicKeyText],
    })
    expect(result).toMatchObject({ status: 'verified', fingerprint: keys.fingerprint, diagnostics: [] })
  })

  it('verifies keys and signatures the real tool made, and signs with its secret key', async () => {
    run(['-G', '-n', '-c', 'spkg test', '-p', 'tool.pub', '-s', 'tool.sec'])
    run(['-S', '-s', 'tool.sec', '-m', 'checksum.sha256', '-x', 'tool.sig'])
    const pub = readFileSync(at('tool.pub'), 'utf8')
    const result = await verifyPackageSignature({
      checksumBytes: checksum,
      signatureText: readFileSync(at('tool.sig'), 'utf8'),
      publicKeyText: pub,
      trustedKeys: [pub],
    })
    expect(result.status).toBe('verified')
    expect(result.fingerprint).toBe(await keyFingerprint(pub))

    const secret = readFileSync(at('tool.sec'), 'utf8')
    expect((await parseSignifySecretKey(secret)).publicKey).toEqual(parseSignifyPublicKey(pub).publicKey)
    expect(parseSignifyPublicKey(await publicKeyFromSecret(secret)).publicKey).toEqual(
      parseSignifyPublicKey(pub).publicKey,
    )
    // Ed25519 is deterministic: our signature with the tool's key equals the tool's own bytes.
    expect(await signChecksum(checksum, secret, { publicKeyName: 'tool.pub' })).toBe(
      readFileSync(at('tool.sig'), 'utf8'),
    )
  })

  it('refuses a passphrase-protected signify key with a clear pkg/key-malformed', async () => {
    // signify reads the passphrase from stdin when it is not a terminal.
    execFileSync(SIGNIFY, ['-G', '-c', 'x', '-p', 'pw.pub', '-s', 'pw.sec'], {
      cwd: dir,
      input: 'correct horse\ncorrect horse\n',
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    await expect(parseSignifySecretKey(readFileSync(at('pw.sec')))).rejects.toMatchObject({
      code: 'pkg/key-malformed',
      message: expect.stringContaining('passphrase-protected keys are not supported'),
    })
  })
})
