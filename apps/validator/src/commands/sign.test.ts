import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { keyFingerprint } from '@spkg/integrity'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { centralDirectory, freshDir, storyTree, writeTree } from '../../test/helpers/tree'

function has(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** A folder packed to inn.spkg and a key pair author.{pub,sec}, in a fresh directory. */
async function packedAndKeys(): Promise<string> {
  const cwd = freshDir()
  writeTree(join(cwd, 'inn'), storyTree())
  expect((await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })).code).toBe(0)
  expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
  return cwd
}

function extract(cwd: string, file: string): string {
  const dir = join(cwd, `x-${file}`)
  mkdirSync(dir)
  execFileSync('unzip', ['-q', join(cwd, file), '-d', dir])
  return dir
}

describe('spkg sign', () => {
  it.skipIf(!has('unzip') || !has('sha256sum'))(
    'writes the three META-PKG files and a checksum file sha256sum -c --strict accepts',
    async () => {
      const cwd = await packedAndKeys()
      const r = await runCli(['sign', 'inn.spkg', '--key', 'author.sec', '-o', 'signed.spkg'], { cwd })
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      const fp = await keyFingerprint(readFileSync(join(cwd, 'author.pub'), 'utf8'))
      expect(r.stdout).toContain(`signed signed.spkg with ${fp}: 5 files in META-PKG/checksum.sha256`)
      const dir = extract(cwd, 'signed.spkg')
      const check = execFileSync('sha256sum', ['-c', '--strict', 'META-PKG/checksum.sha256'], { cwd: dir })
      expect(check.toString().trim().split('\n')).toEqual([
        'META-PKG/author.pub: OK',
        'assets/cover.jpg: OK',
        'manifest.json: OK',
        'story/0001-inn.sty: OK',
        'story/0002-road.sty: OK',
      ])
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
      expect(manifest.signed).toBe(true)
      expect(manifest.signature).toBe(fp)
      expect(Object.keys(manifest).slice(-3)).toEqual(['integrity', 'signed', 'signature'])
      expect(readFileSync(join(dir, 'META-PKG/author.pub'), 'utf8')).toBe(
        readFileSync(join(cwd, 'author.pub'), 'utf8'),
      )
      // The unsigned input is left as it was.
      expect(centralDirectory(new Uint8Array(readFileSync(join(cwd, 'inn.spkg')))).length).toBe(4)
    },
  )

  it.skipIf(!has('unzip') || !has('signify-openbsd'))(
    'makes a signature signify-openbsd -V accepts',
    async () => {
      const cwd = await packedAndKeys()
      expect((await runCli(['sign', 'inn.spkg', '-k', 'author.sec'], { cwd })).code).toBe(0)
      const dir = extract(cwd, 'inn.spkg')
      const out = execFileSync(
        'signify-openbsd',
        ['-V', '-p', 'META-PKG/author.pub', '-x', 'META-PKG/signature.sig', '-m', 'META-PKG/checksum.sha256'],
        { cwd: dir },
      )
      expect(out.toString()).toContain('Signature Verified')
    },
  )

  it('signs deterministically and replaces an earlier signature', async () => {
    const cwd = await packedAndKeys()
    await runCli(['keygen', '-o', 'other'], { cwd })
    expect((await runCli(['sign', 'inn.spkg', '-k', 'author.sec', '-o', 'a.spkg'], { cwd })).code).toBe(0)
    expect((await runCli(['sign', 'inn.spkg', '-k', 'author.sec', '-o', 'b.spkg'], { cwd })).code).toBe(0)
    expect(Buffer.compare(readFileSync(join(cwd, 'a.spkg')), readFileSync(join(cwd, 'b.spkg')))).toBe(0)
    const re = await runCli(['sign', 'a.spkg', '-k', 'other.sec', '-o', 'c.spkg'], { cwd })
    expect(re.code).toBe(0)
    const fp = await keyFingerprint(readFileSync(join(cwd, 'other.pub'), 'utf8'))
    const v = await runCli(['verify', 'c.spkg', '--trusted-key', 'other.pub'], { cwd })
    expect(v.stdout).toContain(`signature: verified, signed by trusted key ${fp}`)
    expect(v.code).toBe(0)
  })

  it('writes only the signed package to standard output with -o -, its report on stderr', async () => {
    const cwd = await packedAndKeys()
    const file = await runCli(['sign', 'inn.spkg', '--key', 'author.sec', '-o', 'signed.spkg'], { cwd })
    expect(file.code).toBe(0)
    const piped = await runCli(['sign', 'inn.spkg', '--key', 'author.sec', '-o', '-'], { cwd })
    expect(piped.code).toBe(0)
    expect(piped.stderr).toMatch(/^signed standard output with ed25519:/m)
    expect(Buffer.from(piped.stdout, 'latin1')).toEqual(readFileSync(join(cwd, 'signed.spkg')))
    const tty = await runCli(['sign', 'inn.spkg', '--key', 'author.sec', '-o', '-'], { cwd, tty: true })
    expect(tty.code).toBe(2)
    expect(tty.stdout).toBe('')
    const stdin = await runCli(['sign', '-', '--key', 'author.sec'], { cwd, stdin: 'x' })
    expect(stdin.code).toBe(2)
    expect(stdin.stderr).toContain('a package read from standard input needs -o <out.spkg>')
  })

  it('refuses a package a reader refuses, and a flat archive', async () => {
    const cwd = await packedAndKeys()
    writeFileSync(join(cwd, 'junk.spkg'), 'not a zip at all')
    const junk = await runCli(['sign', 'junk.spkg', '-k', 'author.sec'], { cwd })
    expect(junk.code).toBe(1)
    expect(junk.stdout).toContain('fatal pkg/not-zip')
    expect(junk.stdout).toContain('a reader refuses it, so it was not signed')
    expect(readFileSync(join(cwd, 'junk.spkg'), 'utf8')).toBe('not a zip at all')
    writeTree(join(cwd, 'flat'), { 'a.sty': 'Hello\n' })
    execFileSync('zip', ['-q', '-X', join(cwd, 'flat.spkg'), 'a.sty'], { cwd: join(cwd, 'flat') })
    const flat = await runCli(['sign', 'flat.spkg', '-k', 'author.sec'], { cwd })
    expect(flat.code).toBe(1)
    // The advice works: packing the same folder again would give a flat archive again.
    expect(flat.stdout).toContain(
      "a flat archive has no manifest to sign; move its .sty files into a story/ folder and pack that with 'spkg pack', which writes the manifest",
    )
    writeTree(join(cwd, 'moved'), { 'story/a.sty': 'Hello\n' })
    expect((await runCli(['pack', 'moved', '-o', 'moved.spkg'], { cwd })).code).toBe(0)
    expect((await runCli(['sign', 'moved.spkg', '-k', 'author.sec'], { cwd })).code).toBe(0)
  })

  it('refuses to sign a package at the entry limit: the META-PKG files would break it', async () => {
    const cwd = freshDir()
    const tree = storyTree()
    for (let i = 0; i < 495; i++) tree[`assets/f${String(i).padStart(3, '0')}.txt`] = `${i}`
    writeTree(join(cwd, 'inn'), tree)
    expect((await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })).code).toBe(0)
    await runCli(['keygen', '-o', 'author'], { cwd })
    const r = await runCli(['sign', 'inn.spkg', '-k', 'author.sec', '-o', 'signed.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(
      'fatal pkg/too-many-entries: signing adds META-PKG files: the signed package would have 502 entries, more than 500',
    )
    expect(existsSync(join(cwd, 'signed.spkg'))).toBe(false)
  })

  it('reports a missing or bad key with exit 2', async () => {
    const cwd = await packedAndKeys()
    const none = await runCli(['sign', 'inn.spkg'], { cwd })
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('missing --key <secret.sec>')
    const pub = await runCli(['sign', 'inn.spkg', '-k', 'author.pub'], { cwd })
    expect(pub.code).toBe(2)
    expect(pub.stderr).toContain("spkg sign: 'author.pub' is not a passphrase-less signify secret key")
    const stdin = await runCli(['sign', '-', '-k', 'author.sec'], { cwd, stdin: 'x' })
    expect(stdin.code).toBe(2)
    expect(stdin.stderr).toContain('a package read from standard input needs -o <out.spkg>')
    const gone = await runCli(['sign', 'inn.spkg', '-k', 'nope.sec'], { cwd })
    expect(gone.code).toBe(2)
    expect(gone.stderr).toBe("spkg sign: cannot read 'nope.sec': no such file or directory\n")
  })

  it('signs a story that requires a host namespace only when --host-namespace registers it', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ requires: ['host'] }))
    expect((await runCli(['pack', 'inn', '-o', 'inn.spkg', '--host-namespace', 'host'], { cwd })).code).toBe(
      0,
    )
    expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
    const refused = await runCli(['sign', 'inn.spkg', '-k', 'author.sec', '-o', 'signed.spkg'], { cwd })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toContain('fatal pkg/unsupported-requires')
    expect(refused.stdout).toContain('Pass --host-namespace host to register it')
    expect(existsSync(join(cwd, 'signed.spkg'))).toBe(false)
    const ok = await runCli(
      ['sign', 'inn.spkg', '-k', 'author.sec', '-o', 'signed.spkg', '--host-namespace', 'host'],
      { cwd },
    )
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/^signed signed\.spkg with ed25519:/m)
    const help = await runCli(['sign', '--help'])
    expect(help.stdout).toMatch(
      /--host-namespace <ns> +register a host-extension namespace, as an embedder would; repeatable/,
    )
  })

  it('refuses a package validate calls invalid (a story error), unless --allow-errors', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'broken'), {
      ...storyTree(),
      'story/0001-inn.sty': '# The inn\n\nYou wake in the inn.\n[[ 0009-cellar.sty ]]\n',
    })
    const packed = await runCli(['pack', 'broken', '-o', 'broken.spkg', '--allow-errors'], { cwd })
    expect(packed.code).toBe(0)
    expect((await runCli(['validate', 'broken.spkg'], { cwd })).code).toBe(1)
    expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
    const before = readFileSync(join(cwd, 'broken.spkg'))
    const refused = await runCli(['sign', 'broken.spkg', '-k', 'author.sec'], { cwd })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toMatch(/^story\/0001-inn\.sty:\d+:\d+: error story\/unknown-part: /m)
    expect(refused.stdout).toMatch(
      /broken\.spkg: .*1 error.*; fix the errors before signing \(--allow-errors signs it anyway\)\n$/,
    )
    expect(readFileSync(join(cwd, 'broken.spkg'))).toEqual(before)
    const allowed = await runCli(['sign', 'broken.spkg', '-k', 'author.sec', '--allow-errors'], { cwd })
    expect(allowed.code).toBe(0)
    expect(allowed.stdout).toMatch(/error story\/unknown-part: /)
    expect(allowed.stdout).toMatch(/^signed broken\.spkg with ed25519:/m)
    const verified = await runCli(['verify', 'broken.spkg', '-k', 'author.pub'], { cwd })
    expect(verified.code).toBe(0)
    // Signing it again: the earlier signature's findings are replaced, not counted against it.
    const again = await runCli(['sign', 'broken.spkg', '-k', 'author.sec'], { cwd })
    expect(again.code).toBe(1)
    expect(again.stdout).not.toMatch(/pkg\/(signature-|checksum-|untrusted-key)/)
  })

  it('signs a package with only warnings and infos (no cover), and prints them', async () => {
    const cwd = freshDir()
    const tree = storyTree({ cover: undefined, assets: undefined })
    delete tree['assets/cover.jpg']
    writeTree(join(cwd, 'inn'), tree)
    expect((await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })).code).toBe(0)
    expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
    const r = await runCli(['sign', 'inn.spkg', '-k', 'author.sec'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/warning pkg\/no-cover/)
    expect(r.stdout).toMatch(/^signed inn\.spkg with ed25519:/m)
  })
})
