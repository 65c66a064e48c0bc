import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keyFingerprint } from '@spkg/integrity'
import { parseSignifySecretKey, signChecksum } from '@spkg/integrity/sign'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'

const fresh = () => mkdtempSync(join(tmpdir(), 'spkg-keygen-'))

function hasSignify(): boolean {
  try {
    execFileSync('signify-openbsd', [], { stdio: 'ignore' })
    return true
  } catch (e) {
    return (e as { code?: string }).code !== 'ENOENT'
  }
}

describe('spkg keygen', () => {
  it('writes a signify key pair, the secret key with mode 0600, and prints the fingerprint', async () => {
    const cwd = fresh()
    const r = await runCli(['keygen', '-o', 'author'], { cwd })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const pub = readFileSync(join(cwd, 'author.pub'), 'utf8')
    const sec = readFileSync(join(cwd, 'author.sec'), 'utf8')
    expect(pub).toMatch(/^untrusted comment: signify public key\n[A-Za-z0-9+/]{56}\n$/)
    expect(statSync(join(cwd, 'author.sec')).mode & 0o777).toBe(0o600)
    expect((await parseSignifySecretKey(sec)).publicKey.length).toBe(32)
    expect(r.stdout).toContain(`fingerprint: ${await keyFingerprint(pub)}\n`)
    expect(r.stdout).toMatch(
      /^wrote author\.pub and author\.sec \(secret, mode 0600\)\nkey id: +[0-9a-f]{16}\n/,
    )
    expect(readdirSync(cwd).sort()).toEqual(['author.pub', 'author.sec']) // no temporary files left
    // 'spkg sign' writes "signature" itself; one put in the source by hand is removed by 'spkg pack'.
    expect(r.stdout).not.toContain('in manifest.json')
    expect(r.stdout).toMatch(
      /\nSign with 'spkg sign <file\.spkg> --key author\.sec' \(it writes the fingerprint into the manifest\); keep author\.sec private\.\n$/,
    )
  })

  it.skipIf(!hasSignify())('makes keys that signify-openbsd verifies signatures with', async () => {
    const cwd = fresh()
    await runCli(['keygen', '-o', 'k', '--comment', 'my key'], { cwd })
    expect(readFileSync(join(cwd, 'k.pub'), 'utf8')).toMatch(/^untrusted comment: my key\n/)
    const message = new TextEncoder().encode('checksum bytes\n')
    writeFileSync(join(cwd, 'm'), message)
    writeFileSync(join(cwd, 'm.sig'), await signChecksum(message, readFileSync(join(cwd, 'k.sec'))))
    const out = execFileSync('signify-openbsd', ['-V', '-p', 'k.pub', '-x', 'm.sig', '-m', 'm'], { cwd })
    expect(out.toString()).toContain('Signature Verified')
  })

  it('refuses to overwrite existing key files without --force, leaving them untouched', async () => {
    const cwd = fresh()
    writeFileSync(join(cwd, 'author.pub'), 'mine')
    const r = await runCli(['keygen', '-o', 'author'], { cwd })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe("spkg keygen: 'author.pub' already exists; use --force to overwrite it\n")
    expect(readFileSync(join(cwd, 'author.pub'), 'utf8')).toBe('mine')
    expect(readdirSync(cwd)).toEqual(['author.pub'])
  })

  it('overwrites with --force and still sets mode 0600 on the secret key', async () => {
    const cwd = fresh()
    writeFileSync(join(cwd, 'author.sec'), 'old', { mode: 0o644 })
    const r = await runCli(['keygen', '-o', 'author', '--force'], { cwd })
    expect(r.code).toBe(0)
    expect(readFileSync(join(cwd, 'author.sec'), 'utf8')).toMatch(/^untrusted comment: signify secret key\n/)
    expect(statSync(join(cwd, 'author.sec')).mode & 0o777).toBe(0o600)
  })

  it('reports usage errors with exit 2', async () => {
    const cwd = fresh()
    const missing = await runCli(['keygen'], { cwd })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('spkg keygen: missing -o <basename>\nUsage: spkg keygen -o <basename>')
    const ext = await runCli(['keygen', '-o', 'a.sec'], { cwd })
    expect(ext.stderr).toContain('give the basename without extension: -o a')
    const extra = await runCli(['keygen', '-o', 'a', 'b'], { cwd })
    expect(extra.stderr).toContain("unexpected argument 'b'")
    // signify-openbsd cannot read a .pub whose comment passes its 1024-byte buffer.
    const long = await runCli(['keygen', '-o', 'a', '--comment', 'x'.repeat(2000)], { cwd })
    expect(long.code).toBe(2)
    expect(long.stderr).toContain('--comment is 2000 bytes; signify reads comments of at most 1023 bytes')
    expect(readdirSync(cwd)).toEqual([])
    expect((await runCli(['keygen', '-o', 'a', '--comment', 'é'.repeat(511)], { cwd })).code).toBe(0)
  })

  it('reports a missing directory as an I/O failure (exit 2) and writes nothing', async () => {
    const cwd = fresh()
    const r = await runCli(['keygen', '-o', 'no/such/dir/key'], { cwd })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe("spkg keygen: cannot write 'no/such/dir/key.sec': no such directory\n")
  })

  it('prints help', async () => {
    const r = await runCli(['keygen', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Usage: spkg keygen -o <basename> [--force] [--comment <text>]')
    expect(r.stdout).toContain('--force')
  })
})
