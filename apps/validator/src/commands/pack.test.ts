import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { sha256HexSync } from '@spkg/integrity/node'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { centralDirectory, freshDir, storyTree, writeTree } from '../../test/helpers/tree'

function hasTool(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('spkg pack', () => {
  it('writes a canonical package: manifest first, integrity, deflated text, stored media, 1980 dates', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^wrote inn\.spkg: 4 entries \(3 deflated, 1 stored\), \d+ bytes; /m)
    const bytes = new Uint8Array(readFileSync(join(cwd, 'inn.spkg')))
    const cd = centralDirectory(bytes)
    expect(cd.map((e) => [e.name, e.method])).toEqual([
      ['manifest.json', 8],
      ['assets/cover.jpg', 0],
      ['story/0001-inn.sty', 8],
      ['story/0002-road.sty', 8],
    ])
    for (const e of cd) {
      expect([e.dosDate, e.dosTime]).toEqual([(1 << 5) | 1, 0])
      expect(e.externalAttributes >>> 16).toBe(0o100644)
    }
    const out = join(cwd, 'x')
    mkdirSync(out)
    execFileSync('unzip', ['-q', join(cwd, 'inn.spkg'), '-d', out])
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    // The source manifest has no versions: the canonical form gets the current ones.
    expect(Object.keys(manifest)).toEqual([
      'story_lang',
      'manifest',
      'id',
      'title',
      'cover',
      'parts',
      'assets',
      'integrity',
    ])
    expect([manifest.story_lang, manifest.manifest]).toEqual(['1.0', '1.0'])
    expect(r.stdout).toContain(
      `manifest.json: info pkg/pack-rewritten-field: "story_lang" was completed with the current version '1.0' [/story_lang]`,
    )
    expect(r.stdout).toContain(
      `manifest.json: info pkg/pack-rewritten-field: "manifest" was completed with the current version '1.0' [/manifest]`,
    )
    expect(manifest.parts).toEqual([
      { file: 'story/0001-inn.sty', name: 'Inn' },
      { file: 'story/0002-road.sty', name: 'Road' },
    ])
    expect(manifest.integrity['story/0001-inn.sty']).toBe(
      sha256HexSync(readFileSync(join(cwd, 'inn/story/0001-inn.sty'))),
    )
    expect(Object.keys(manifest.integrity)).toEqual([
      'assets/cover.jpg',
      'story/0001-inn.sty',
      'story/0002-road.sty',
    ])
  })

  it.each([
    ['not JSON', '{"id": ', 'manifest/not-json'],
    ['not an object', '["story/0001-inn.sty"]', 'manifest/not-object'],
  ])('refuses a source manifest.json that is %s and writes nothing', async (_, text, code) => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), { ...storyTree(), 'manifest.json': text })
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(`${r.stdout}${r.stderr}`).toContain(code)
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(false)
  })

  it('gives identical bytes for the same folder, whatever the file dates', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    expect((await runCli(['pack', 'inn', '-o', 'a.spkg'], { cwd })).code).toBe(0)
    utimesSync(join(cwd, 'inn/story/0001-inn.sty'), new Date('2031-05-06'), new Date('2031-05-06'))
    expect((await runCli(['pack', 'inn', '-o', 'b.spkg'], { cwd })).code).toBe(0)
    expect(Buffer.compare(readFileSync(join(cwd, 'a.spkg')), readFileSync(join(cwd, 'b.spkg')))).toBe(0)
  })

  it('completes parts and assets, generates a missing id with a warning, and leaves out system files', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), {
      'manifest.json': JSON.stringify({ title: 'No id' }),
      'story/0002-b.sty': 'B\n',
      'story/0001-a.sty': 'A\n',
      'assets/cover.png': new Uint8Array([1, 2, 3]),
      '.DS_Store': 'x',
      'assets/._cover.png': 'x',
      '.git/config': 'x',
      'Thumbs.db': 'x',
    })
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /manifest\.json: warning pkg\/generated-id: manifest\.json has no usable "id"; the package got the random id [0-9a-f-]{36}/,
    )
    expect(r.stdout).toContain(
      "info pkg/ignored-entry: '.DS_Store' is a system or hidden file; it is not packed",
    )
    const cd = centralDirectory(new Uint8Array(readFileSync(join(cwd, 'inn.spkg'))))
    expect(cd.map((e) => e.name)).toEqual([
      'manifest.json',
      'assets/cover.png',
      'story/0001-a.sty',
      'story/0002-b.sty',
    ])
    const dir = join(cwd, 'x')
    mkdirSync(dir)
    execFileSync('unzip', ['-q', join(cwd, 'inn.spkg'), '-d', dir])
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
    expect(m.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(m.parts.map((p: { file: string }) => p.file)).toEqual(['story/0001-a.sty', 'story/0002-b.sty'])
    expect(m.assets).toEqual([{ file: 'assets/cover.png' }])
  })

  it('removes signature fields and stale META-PKG signature files from the source', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), {
      ...storyTree({ signed: true, signature: 'ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' }),
      'META-PKG/checksum.sha256': 'stale\n',
      'META-PKG/signature.sig': 'stale\n',
    })
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('info pkg/pack-rewritten-field: "signed" was removed')
    const names = centralDirectory(new Uint8Array(readFileSync(join(cwd, 'inn.spkg')))).map((e) => e.name)
    expect(names.some((n) => n.startsWith('META-PKG/'))).toBe(false)
  })

  it('packs a folder of root .sty files without a manifest in the flat layout', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'flat'), {
      'b.sty': 'Second\n',
      'a.sty': '![Map](map.png)\n',
      'map.png': new Uint8Array([7]),
    })
    const r = await runCli(['pack', 'flat', '-o', 'flat.spkg'], { cwd })
    expect(r.code).toBe(0)
    const names = centralDirectory(new Uint8Array(readFileSync(join(cwd, 'flat.spkg')))).map((e) => e.name)
    expect(names).toEqual(['a.sty', 'b.sty', 'map.png'])
    const v = JSON.parse((await runCli(['validate', 'flat.spkg', '--format', 'json'], { cwd })).stdout)
    expect(v).toMatchObject({ loads: true, layout: 'flat', entry: 'a.sty', manifest: null })
  })

  it('refuses a folder with a symbolic link and writes nothing', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    symlinkSync('/etc/passwd', join(cwd, 'inn/assets/passwd'))
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(
      "assets/passwd: fatal pkg/unsafe-path: 'assets/passwd' is a symbolic link; spkg pack never follows links",
    )
    expect(r.stdout).toMatch(/nothing was written\n$/)
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(false)
  })

  it('refuses more than 500 files before reading them', async () => {
    const cwd = freshDir()
    const tree = storyTree()
    for (let i = 0; i < 500; i++) tree[`assets/f${String(i).padStart(3, '0')}.txt`] = 'x'
    writeTree(join(cwd, 'inn'), tree)
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(
      'fatal pkg/too-many-entries: the folder has more than 500 files, the package entry limit',
    )
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(false)
  })

  it('refuses files adding up to more than 50 MiB from their sizes alone', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    const big = join(cwd, 'inn/assets/big.mp4')
    writeFileSync(big, '')
    truncateSync(big, 52_428_800) // sparse: no 50 MiB written to disk
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('fatal pkg/too-large:')
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(false)
  })

  it('refuses a package the reader would report errors for (a listed part missing)', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ parts: ['story/0001-inn.sty', 'story/0009-gone.sty'] }))
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('pkg/missing-part')
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(false)
    const allowed = await runCli(['pack', 'inn', '-o', 'inn.spkg', '--allow-errors'], { cwd })
    expect(allowed.code).toBe(0)
    expect(allowed.stdout).toMatch(/^wrote inn\.spkg: .*; 1 error/m)
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(true)
  })

  it('prints each finding once, as spkg validate does (a manifest warning is not repeated)', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ id: 'inn-001' }))
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout.match(/manifest\/invalid-id/g)).toHaveLength(1)
    expect(r.stdout).toMatch(/^wrote inn\.spkg: .*; 1 warning/m)
    const v = await runCli(['validate', 'inn'], { cwd })
    expect(v.stdout.match(/manifest\/invalid-id/g)).toHaveLength(1)
  })

  it('leaves the output out of the package when it is written inside the folder', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    expect((await runCli(['pack', '.', '-o', 'inn.spkg'], { cwd: join(cwd, 'inn') })).code).toBe(0)
    const r = await runCli(['pack', '.', '-o', 'inn.spkg'], { cwd: join(cwd, 'inn') })
    expect(r.code).toBe(0)
    const names = centralDirectory(new Uint8Array(readFileSync(join(cwd, 'inn/inn.spkg')))).map((e) => e.name)
    expect(names).not.toContain('inn.spkg')
  })

  it('reports I/O and usage problems with exit 2 and leaves no temporary file', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    const noDir = await runCli(['pack', 'inn', '-o', 'missing/inn.spkg'], { cwd })
    expect(noDir.code).toBe(2)
    expect(noDir.stderr).toBe("spkg pack: cannot write 'missing/inn.spkg': no such file or directory\n")
    expect(readdirSync(cwd)).toEqual(['inn'])
    const noFolder = await runCli(['pack', 'nope', '-o', 'x.spkg'], { cwd })
    expect(noFolder.code).toBe(2)
    expect(noFolder.stderr).toBe("spkg pack: cannot read 'nope': no such folder\n")
    const noOut = await runCli(['pack', 'inn'], { cwd })
    expect(noOut.code).toBe(2)
    expect(noOut.stderr).toContain('missing -o <file.spkg>')
  })

  it('leaves an existing package as it was when the new one is refused or cannot be written', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ parts: ['story/0001-inn.sty', 'story/0009-gone.sty'] }))
    writeFileSync(join(cwd, 'inn.spkg'), 'the last good package')
    const refused = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(refused.code).toBe(1)
    expect(readFileSync(join(cwd, 'inn.spkg'), 'utf8')).toBe('the last good package')
    expect(readdirSync(cwd).sort()).toEqual(['inn', 'inn.spkg'])
    // A folder where the package should go: the write fails, nothing is left beside it.
    writeTree(join(cwd, 'ok'), storyTree())
    mkdirSync(join(cwd, 'out.spkg'))
    const blocked = await runCli(['pack', 'ok', '-o', 'out.spkg'], { cwd })
    expect(blocked.code).toBe(2)
    expect(blocked.stderr).toBe("spkg pack: cannot write 'out.spkg': is a directory\n")
    expect(readdirSync(cwd).sort()).toEqual(['inn', 'inn.spkg', 'ok', 'out.spkg'])
    expect(readdirSync(join(cwd, 'out.spkg'))).toEqual([])
  })

  it('draws a progress line on a TTY, never with --quiet', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    const tty = await runCli(['pack', 'inn', '-o', 'a.spkg'], { cwd, tty: true })
    expect(tty.stderr).toMatch(/^\r\x1b\[2Kreading 1\/4 assets\/cover\.jpg/)
    expect(tty.stderr.endsWith('\r\x1b[2K')).toBe(true)
    const quiet = await runCli(['pack', 'inn', '-o', 'b.spkg', '--quiet'], { cwd, tty: true })
    expect(quiet.stderr).toBe('')
    expect(quiet.stdout).toMatch(/^wrote b\.spkg/)
  })

  it.skipIf(!hasTool('unzip'))('makes archives unzip tests clean', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ title: 'Überfahrt' }))
    writeTree(join(cwd, 'inn'), { 'assets/café.png': new Uint8Array([9]) })
    expect((await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })).code).toBe(0)
    const out = execFileSync('unzip', ['-t', join(cwd, 'inn.spkg')]).toString()
    expect(out).toContain('No errors detected')
    expect(out).toContain('assets/café.png')
  })

  it('prints help', async () => {
    const r = await runCli(['pack', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      'Usage: spkg pack <folder|repo-url> -o <file.spkg|-> [--allow-errors] [--host-namespace <ns>]... [--quiet]',
    )
    expect(r.stdout).toMatch(
      /--host-namespace <ns> +register a host-extension namespace, as an embedder would; repeatable/,
    )
  })

  it('packs a story that requires a host namespace only when --host-namespace registers it', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ requires: ['host'] }))
    const refused = await runCli(['pack', 'inn', '-o', 'inn.spkg', '--allow-errors'], { cwd })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toContain(
      'fatal pkg/unsupported-requires: The story requires the host-extension namespace "host", which this host has not registered. Pass --host-namespace host to register it',
    )
    expect(refused.stdout).toMatch(/nothing was written\n$/)
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(false)
    const ok = await runCli(['pack', 'inn', '-o', 'inn.spkg', '--host-namespace', 'host'], { cwd })
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(true)
  })

  it('completes only the version fields the source manifest omits', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ story_lang: '1.0' }))
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain('"story_lang" was completed')
    expect(r.stdout).toContain(`"manifest" was completed with the current version '1.0'`)
    const out = join(cwd, 'x')
    mkdirSync(out)
    execFileSync('unzip', ['-q', join(cwd, 'inn.spkg'), '-d', out])
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    expect([manifest.story_lang, manifest.manifest]).toEqual(['1.0', '1.0'])
    // Both given: nothing is said about them.
    writeTree(join(cwd, 'inn'), storyTree({ story_lang: '1.0', manifest: '1.0' }))
    const both = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(both.code).toBe(0)
    expect(both.stdout).not.toContain('was completed with the current version')
  })
})
