import { cpSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'

const EXAMPLE = join(__dirname, '../../../../examples/crooked-inn')
const fresh = () => mkdtempSync(join(tmpdir(), 'spkg-encrypt-'))

describe('spkg keygen --encryption, encrypt, decrypt', () => {
  it('round-trips a signed package; inspect, validate and play open the .spkg.enc with the key', async () => {
    const cwd = fresh()
    const k = await runCli(['keygen', '--encryption', '-o', 'inn.key'], { cwd })
    expect(k.stderr).toBe('')
    expect(k.code).toBe(0)
    expect(k.stdout).toMatch(/^wrote inn\.key \(a 256-bit encryption key, mode 0600\)\n/)
    expect(readFileSync(join(cwd, 'inn.key'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/)
    expect(statSync(join(cwd, 'inn.key')).mode & 0o777).toBe(0o600)
    // A second key differs, and an existing key is never overwritten without --force.
    await runCli(['keygen', '--encryption', '-o', 'other.key'], { cwd })
    expect(readFileSync(join(cwd, 'other.key'), 'utf8')).not.toBe(readFileSync(join(cwd, 'inn.key'), 'utf8'))
    const again = await runCli(['keygen', '--encryption', '-o', 'inn.key'], { cwd })
    expect(again.code).toBe(2)
    expect(again.stderr).toBe("spkg keygen: 'inn.key' already exists; use --force to overwrite it\n")

    expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
    expect((await runCli(['pack', EXAMPLE, '-o', 'inn.spkg', '-q'], { cwd })).code).toBe(0)
    expect((await runCli(['sign', 'inn.spkg', '--key', 'author.sec'], { cwd })).code).toBe(0)
    const signed = readFileSync(join(cwd, 'inn.spkg'))

    const e = await runCli(['encrypt', 'inn.spkg', '--key', 'inn.key', '-o', 'inn.spkg.enc'], { cwd })
    expect(e.stderr).toBe('')
    expect(e.code).toBe(0)
    expect(e.stdout).toMatch(/^wrote inn\.spkg\.enc: \d+ bytes, encrypted/)
    const sealed = readFileSync(join(cwd, 'inn.spkg.enc'))
    expect(sealed.subarray(0, 8).toString('latin1')).toBe('SPKGENC\0')
    expect(sealed.includes(Buffer.from('Crooked Inn'))).toBe(false)

    const inspect = await runCli(
      ['inspect', 'inn.spkg.enc', '--decryption-key', 'inn.key', '--format', 'json'],
      {
        cwd,
      },
    )
    expect(inspect.code).toBe(0)
    expect(inspect.stdout).toContain('The Crooked Inn')
    const v = await runCli(
      [
        'validate',
        'inn.spkg.enc',
        '--decryption-key',
        'inn.key',
        '--trusted-key',
        'author.pub',
        '--format',
        'json',
      ],
      { cwd },
    )
    expect(JSON.parse(v.stdout).valid).toBe(true)
    const p = await runCli(['play', 'inn.spkg.enc', '--decryption-key', 'inn.key', '--choose', '1,1'], {
      cwd,
    })
    expect(p.code).toBe(0)
    expect(p.stdout).toContain('Dawn. You settle your bill.\n')
    // Without the key, or with another, it does not open.
    expect((await runCli(['validate', 'inn.spkg.enc'], { cwd })).code).toBe(1)

    const d = await runCli(['decrypt', 'inn.spkg.enc', '--key', 'inn.key', '-o', 'back.spkg'], { cwd })
    expect(d.code).toBe(0)
    expect(readFileSync(join(cwd, 'back.spkg')).equals(signed)).toBe(true)
    // The default output drops .enc, and is never an existing file without --force.
    const d2 = await runCli(['decrypt', 'inn.spkg.enc', '--key', 'inn.key'], { cwd })
    expect(d2.code).toBe(2)
    expect(d2.stderr).toBe("spkg decrypt: 'inn.spkg' already exists; use --force to overwrite it\n")
    expect((await runCli(['decrypt', 'inn.spkg.enc', '--key', 'inn.key', '--force'], { cwd })).code).toBe(0)
  })

  it('refuses a wrong key, a tampered file, a non-package and a non-key, writing nothing', async () => {
    const cwd = fresh()
    await runCli(['keygen', '--encryption', '-o', 'a.key'], { cwd })
    await runCli(['keygen', '--encryption', '-o', 'b.key'], { cwd })
    await runCli(['pack', EXAMPLE, '-o', 'inn.spkg', '-q'], { cwd })
    await runCli(['encrypt', 'inn.spkg', '--key', 'a.key'], { cwd })
    expect(existsSync(join(cwd, 'inn.spkg.enc'))).toBe(true)

    const wrong = await runCli(['decrypt', 'inn.spkg.enc', '--key', 'b.key', '-o', 'x.spkg'], { cwd })
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toMatch(/^inn\.spkg\.enc: fatal pkg\/decrypt-failed: /)
    expect(existsSync(join(cwd, 'x.spkg'))).toBe(false)

    const bytes = readFileSync(join(cwd, 'inn.spkg.enc'))
    const at = bytes.length - 5
    bytes.writeUInt8(bytes.readUInt8(at) ^ 1, at)
    writeFileSync(join(cwd, 'bad.spkg.enc'), bytes)
    const tampered = await runCli(['decrypt', 'bad.spkg.enc', '--key', 'a.key'], { cwd })
    expect(tampered.code).toBe(1)
    expect(tampered.stderr).toContain('pkg/decrypt-failed')
    expect(existsSync(join(cwd, 'bad.spkg'))).toBe(false)

    const twice = await runCli(['encrypt', 'inn.spkg.enc', '--key', 'a.key', '-o', 'y'], { cwd })
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain("'inn.spkg.enc' is already encrypted")
    writeFileSync(join(cwd, 'notes.txt'), 'hello')
    expect((await runCli(['encrypt', 'notes.txt', '--key', 'a.key'], { cwd })).stderr).toContain(
      "'notes.txt' is not a package",
    )
    const notKey = await runCli(['encrypt', 'inn.spkg', '--key', 'notes.txt', '-o', 'z'], { cwd })
    expect(notKey.code).toBe(2)
    expect(notKey.stderr).toContain("--key 'notes.txt' does not hold an encryption key")
    expect((await runCli(['encrypt', 'inn.spkg', '-o', 'z'], { cwd })).stderr).toContain('missing --key')
  })

  it('spkg pack refuses a story folder holding an encryption key', async () => {
    const cwd = fresh()
    cpSync(EXAMPLE, join(cwd, 'inn'), { recursive: true })
    const k = await runCli(['keygen', '--encryption', '-o', 'inn/assets/inn.key'], { cwd })
    expect(k.code).toBe(0)
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout + r.stderr).toMatch(
      /assets\/inn\.key: fatal pkg\/secret-key: 'assets\/inn\.key' is an encryption key/,
    )
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(false)
  })
})
