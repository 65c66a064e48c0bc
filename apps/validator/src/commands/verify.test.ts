import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { keyFingerprint } from '@spkg/integrity'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, storyTree, writeTree } from '../../test/helpers/tree'
import { writeZip } from '../pack/write-zip'

async function signedPackage(): Promise<string> {
  const cwd = freshDir()
  writeTree(join(cwd, 'inn'), storyTree())
  expect((await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })).code).toBe(0)
  expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
  expect((await runCli(['keygen', '-o', 'stranger'], { cwd })).code).toBe(0)
  expect((await runCli(['sign', 'inn.spkg', '-k', 'author.sec', '-o', 'signed.spkg'], { cwd })).code).toBe(0)
  return cwd
}

/** Re-zips the files of a package given as a path → bytes map, with `edit` applied. */
function rezip(files: Map<string, Uint8Array>): Uint8Array {
  return writeZip([...files].map(([path, data]) => ({ path, data, method: 8 as const }))).bytes
}

async function filesOf(cwd: string, file: string): Promise<Map<string, Uint8Array>> {
  const { openPackage } = await import('@spkg/reader/node')
  const opened = await openPackage(new Uint8Array(readFileSync(join(cwd, file))))
  if (!opened.ok) throw new Error('fixture does not open')
  const files = new Map<string, Uint8Array>()
  for (const e of opened.package.entries) files.set(e.path, await opened.package.readBytes(e.path))
  return files
}

describe('spkg verify', () => {
  it('verifies a package signed by a trusted key (exit 0)', async () => {
    const cwd = await signedPackage()
    const fp = await keyFingerprint(readFileSync(join(cwd, 'author.pub'), 'utf8'))
    const r = await runCli(['verify', 'signed.spkg', '--trusted-key', 'author.pub'], { cwd })
    expect(r.stdout).toBe(
      `integrity: ok\nchecksums: ok\nsignature: verified, signed by trusted key ${fp}\nsigned.spkg: OK\n`,
    )
    expect(r.code).toBe(0)
    const byFingerprint = await runCli(['verify', 'signed.spkg', '-k', fp], { cwd })
    expect(byFingerprint.code).toBe(0)
    expect(byFingerprint.stdout).toContain('signature: verified')
  })

  it('accepts a valid signature by the embedded key when no key is trusted, and says so', async () => {
    const cwd = await signedPackage()
    const r = await runCli(['verify', 'signed.spkg'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('(the key the package carries; pass --trusted-key to pin the publisher)')
  })

  it('fails a signature no trusted key vouches for, and an unsigned package (exit 1)', async () => {
    const cwd = await signedPackage()
    const r = await runCli(['verify', 'signed.spkg', '--trusted-key', 'stranger.pub'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('signature: NOT TRUSTED')
    expect(r.stdout).toMatch(/signed\.spkg: VERIFICATION FAILED\n$/)
    const unsigned = await runCli(['verify', 'inn.spkg'], { cwd })
    expect(unsigned.code).toBe(1)
    expect(unsigned.stdout).toContain('checksums: absent (no META-PKG/checksum.sha256)')
    expect(unsigned.stdout).toContain('signature: UNSIGNED')
  })

  it('refuses a package whose file differs from its hashes (exit 1)', async () => {
    const cwd = await signedPackage()
    const files = await filesOf(cwd, 'signed.spkg')
    files.set('story/0002-road.sty', new TextEncoder().encode('# The road\n\nA different road.\n'))
    writeFileSync(join(cwd, 'tampered.spkg'), rezip(files))
    const r = await runCli(['verify', 'tampered.spkg', '-k', 'author.pub'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('fatal pkg/integrity-mismatch')
    expect(r.stdout).toMatch(/tampered\.spkg: REFUSED: a reader would not open this package\n$/)
  })

  it('reports a signature that does not verify over intact bytes as invalid', async () => {
    const cwd = await signedPackage()
    const files = await filesOf(cwd, 'signed.spkg')
    const other = await filesOf(cwd, 'signed.spkg')
    // A signature by the same key id over different bytes: flip one byte of the signature.
    const sig = new TextDecoder().decode(other.get('META-PKG/signature.sig')!).split('\n')
    const raw = Buffer.from(sig[1]!, 'base64')
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1
    sig[1] = raw.toString('base64')
    files.set('META-PKG/signature.sig', new TextEncoder().encode(sig.join('\n')))
    writeFileSync(join(cwd, 'badsig.spkg'), rezip(files))
    const r = await runCli(['verify', 'badsig.spkg', '-k', 'author.pub', '--format', 'json'], { cwd })
    expect(r.code).toBe(1)
    const v = JSON.parse(r.stdout)
    expect(v).toMatchObject({ ok: false, loads: true })
    expect([v.integrity, v.checksums, v.signature]).toEqual(['ok', 'ok', 'invalid'])
    expect(v.diagnostics.map((d: { code: string }) => d.code)).toContain('pkg/signature-mismatch')
  })

  it('says in JSON what a refused package did not get to check (null), not absent or unsigned', async () => {
    const cwd = await signedPackage()
    const files = await filesOf(cwd, 'signed.spkg')
    files.set('story/0001-inn.sty', new TextEncoder().encode('# The inn\n\nSomeone changed this.\n'))
    writeFileSync(join(cwd, 'tampered.spkg'), rezip(files))
    const r = await runCli(['verify', 'tampered.spkg', '-k', 'author.pub', '--format', 'json'], { cwd })
    expect(r.code).toBe(1)
    // Both hashes differ: manifest.integrity and META-PKG/checksum.sha256 (same code, told apart by field).
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      loads: false,
      integrity: 'failed',
      checksums: 'failed',
      signature: null,
      fingerprint: null,
    })
    writeFileSync(join(cwd, 'junk.spkg'), 'not a zip')
    const junk = JSON.parse((await runCli(['verify', 'junk.spkg', '--format', 'json'], { cwd })).stdout)
    expect(junk).toMatchObject({ loads: false, integrity: null, checksums: null, signature: null })
  })

  it('reports usage errors with exit 2', async () => {
    const cwd = await signedPackage()
    const badKey = await runCli(['verify', 'signed.spkg', '-k', 'author.sec'], { cwd })
    expect(badKey.code).toBe(2)
    expect(badKey.stderr).toContain("--trusted-key 'author.sec' is not a signify Ed25519 public key")
    const fmt = await runCli(['verify', 'signed.spkg', '--format', 'xml'], { cwd })
    expect(fmt.code).toBe(2)
    // A mistyped fingerprint is named as one, not looked for as a file.
    const shortPrint = await runCli(['verify', 'signed.spkg', '-k', 'ed25519:abc'], { cwd })
    expect(shortPrint.code).toBe(2)
    expect(shortPrint.stderr).toContain(
      "--trusted-key 'ed25519:abc' is not a key fingerprint: 'ed25519:' must be followed by 44 base64 characters",
    )
    expect(shortPrint.stderr).not.toContain('no such file')
  })

  it('verifies a story that requires a host namespace only when --host-namespace registers it', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ requires: ['host'] }))
    const hostNs = ['--host-namespace', 'host']
    expect((await runCli(['pack', 'inn', '-o', 'inn.spkg', ...hostNs], { cwd })).code).toBe(0)
    expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
    expect((await runCli(['sign', 'inn.spkg', '-k', 'author.sec', ...hostNs], { cwd })).code).toBe(0)
    const refused = await runCli(['verify', 'inn.spkg', '-k', 'author.pub'], { cwd })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toContain('fatal pkg/unsupported-requires')
    expect(refused.stdout).toContain('Pass --host-namespace host to register it')
    expect(refused.stdout).toMatch(/REFUSED/)
    const ok = await runCli(['verify', 'inn.spkg', '-k', 'author.pub', ...hostNs], { cwd })
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/signature: verified.*\ninn\.spkg: OK\n$/s)
    const help = await runCli(['verify', '--help'])
    expect(help.stdout).toMatch(
      /--host-namespace <ns> +register a host-extension namespace, as an embedder would; repeatable/,
    )
  })

  it('writes diagnostics in --format json as validate does: path null for the archive as a whole', async () => {
    const cwd = freshDir()
    writeFileSync(join(cwd, 'notes.txt'), 'just some text, not a package\n')
    const verified = await runCli(['verify', 'notes.txt', '--format', 'json'], { cwd })
    const validated = await runCli(['validate', 'notes.txt', '--format', 'json'], { cwd })
    expect(verified.code).toBe(1)
    const ds = JSON.parse(verified.stdout).diagnostics
    expect(ds).toEqual(JSON.parse(validated.stdout).diagnostics)
    expect(ds[0]).toMatchObject({ code: 'pkg/not-zip', severity: 'fatal', path: null })
    expect(Object.keys(ds[0]).slice(0, 4)).toEqual(['code', 'severity', 'message', 'path'])
  })
})
