import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, storyTree, writeTree } from '../../test/helpers/tree'

const codes = (json: { diagnostics: { code: string }[] }) => json.diagnostics.map((d) => d.code)

describe('spkg validate', () => {
  it('validates a folder as the package pack would make (exit 0, JSON shape)', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    const r = await runCli(['validate', 'inn', '--format', 'json'], { cwd, tty: true })
    expect(r.stderr).toBe('') // never a progress line with JSON output
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(Object.keys(report)).toEqual([
      'loads',
      'valid',
      'layout',
      'type',
      'entry',
      'parts',
      'manifest',
      'diagnostics',
    ])
    expect(report).toMatchObject({
      loads: true,
      valid: true,
      layout: 'packaged',
      type: 'story',
      entry: 'story/0001-inn.sty',
      parts: ['story/0001-inn.sty', 'story/0002-road.sty'],
      manifest: { id: '0b7c2f4e-9a1d-4c3b-8e5f-6a7b8c9d0e1f', title: 'Test Inn' },
    })
    expect(Object.keys(report.manifest.integrity)).toHaveLength(3)
    // The source manifest is compact JSON: the author hears about it, and it does not fail the check.
    expect(codes(report)).toContain('pkg/non-canonical-manifest')
    const text = await runCli(['validate', 'inn'], { cwd })
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/^inn: valid: \d+ info\n$/m)
  })

  it.skipIf(
    !(() => {
      try {
        execFileSync('sh', ['-c', 'command -v zip'], { stdio: 'ignore' })
        return true
      } catch {
        return false
      }
    })(),
  )('runs the author checks on an archive made by Info-ZIP zip', async () => {
    const cwd = freshDir()
    const root = writeTree(join(cwd, 'src'), {
      'manifest.json': JSON.stringify({
        id: 'a2b1c3d4-0000-4000-8000-000000000001',
        parts: ['story/0001-inn.sty'],
        assets: ['assets/map.jpg', 'assets/gone.png'],
      }),
      'story/0001-inn.sty': '# Inn\n\nThe innkeeper shows you ![the portrait](assets/portrait.webp).\n',
      'assets/map.jpg': new Uint8Array(Array.from({ length: 4000 }, (_, i) => i % 16)),
      'assets/portrait.webp': new Uint8Array([1, 2, 3]),
      'assets/unused.txt': 'left over\n',
    })
    execFileSync('zip', ['-q', '-r', '-X', join(cwd, 'made.spkg'), '.'], { cwd: root })
    const r = await runCli(['validate', 'made.spkg', '--format', 'json'], { cwd })
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout)
    expect(report.loads).toBe(true)
    expect(report.valid).toBe(false)
    const byCode = (c: string) => report.diagnostics.filter((d: { code: string }) => d.code === c)
    expect(byCode('pkg/missing-file').map((d: { path: string }) => d.path)).toEqual(['assets/gone.png'])
    expect(byCode('pkg/deflated-media')).toMatchObject([{ severity: 'warning', path: 'assets/map.jpg' }])
    expect(byCode('pkg/unreferenced-file')).toMatchObject([{ severity: 'info', path: 'assets/unused.txt' }])
    expect(byCode('pkg/no-cover')).toMatchObject([{ severity: 'warning', field: '/cover' }])
    expect(byCode('pkg/non-canonical-manifest')).toHaveLength(1)
    const text = await runCli(['validate', 'made.spkg'], { cwd })
    expect(text.stdout).toMatch(/^assets\/gone\.png: error pkg\/missing-file: .*\[\/assets\/1\/file\]$/m)
    expect(text.stdout).toMatch(
      /made\.spkg: invalid \(a reader still opens it\): 1 error, 2 warnings, \d+ info\n$/,
    )
    const gh = await runCli(['validate', 'made.spkg', '--format', 'github'], { cwd })
    expect(gh.stdout).toContain('::error file=made.spkg,title=pkg/missing-file::')
    expect(gh.stdout).toContain('::warning file=made.spkg,title=pkg/deflated-media::')
    const quiet = await runCli(['validate', 'made.spkg', '--quiet'], { cwd })
    expect(quiet.stdout.trim().split('\n')).toHaveLength(2)
  })

  it('reports every manifest problem of an archive, also two with the same code on different fields', async () => {
    const cwd = freshDir()
    const manifest = {
      id: 'a2b1c3d4-0000-4000-8000-000000000002',
      title: 5,
      version: 7,
      parts: ['story/a.sty'],
    }
    writeFileSync(
      join(cwd, 'two.spkg'),
      zipSync({ 'manifest.json': strToU8(JSON.stringify(manifest)), 'story/a.sty': strToU8('Hi.\n') }),
    )
    const r = await runCli(['validate', 'two.spkg', '--format', 'json'], { cwd })
    expect(r.code).toBe(1)
    const fields = JSON.parse(r.stdout)
      .diagnostics.filter((d: { code: string }) => d.code === 'manifest/invalid-type')
      .map((d: { field: string }) => d.field)
    expect(fields).toEqual(['/title', '/version'])
  })

  it("prints one line per diagnostic, with a hostile entry name's control characters escaped", async () => {
    const cwd = freshDir()
    writeFileSync(
      join(cwd, 'esc.spkg'),
      zipSync({
        'manifest.json': strToU8(JSON.stringify({ id: 'x', parts: ['story/a.sty'] })),
        'story/a.sty': strToU8('Hi.\n'),
        // \r returns to the line start: printed raw, "valid" could be written over the fatal line.
        'story/\x1b[31mred\rvalid.sty': strToU8('x'),
      }),
    )
    const r = await runCli(['validate', 'esc.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines.at(-1)).toBe('esc.spkg: refused: 1 fatal error')
    expect(lines[0]).toMatch(/^story\/\\x1b\[31mred\\rvalid\.sty: fatal pkg\/unsafe-path: /)
  })

  it('annotates an archive in GitHub format with the inner path and line in the message, not line= on the .spkg', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), {
      ...storyTree(),
      'story/0001-inn.sty': '# Inn\n\nYou wake.\n\n[[ 0009-gone.sty ]]\n',
    })
    await runCli(['pack', 'inn', '-o', 'inn.spkg', '--allow-errors'], { cwd })
    const gh = await runCli(['validate', 'inn.spkg', '--format', 'github'], { cwd })
    expect(gh.code).toBe(1)
    expect(gh.stdout).toMatch(
      /^::error file=inn\.spkg,title=story\/unknown-part::story\/0001-inn\.sty:5:4: no part 'story\/0009-gone\.sty'/m,
    )
    expect(gh.stdout).not.toContain('line=')
    // A folder keeps real file annotations with their line.
    const folder = await runCli(['validate', 'inn', '--format', 'github'], { cwd })
    expect(folder.stdout).toMatch(
      /^::error file=inn\/story\/0001-inn\.sty,line=5,col=4,title=story\/unknown-part::no part/m,
    )
  })

  it('refuses a package requiring a host namespace until --host-namespace registers it', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ requires: ['host'] }))
    const refused = await runCli(['validate', 'inn', '--format', 'json'], { cwd })
    expect(refused.code).toBe(1)
    const report = JSON.parse(refused.stdout)
    expect(report).toMatchObject({
      loads: false,
      valid: false,
      layout: 'packaged',
      manifest: { requires: ['host'] },
    })
    expect(codes(report)).toContain('pkg/unsupported-requires')
    const ok = await runCli(['validate', 'inn', '--host-namespace', 'host'], { cwd })
    expect(ok.code).toBe(0)
  })

  it('uses --trusted-key for the signature check', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    await runCli(['keygen', '-o', 'author'], { cwd })
    await runCli(['sign', 'inn.spkg', '-k', 'author.sec'], { cwd })
    const untrusted = JSON.parse((await runCli(['validate', 'inn.spkg', '--format', 'json'], { cwd })).stdout)
    expect(codes(untrusted)).toContain('pkg/untrusted-key')
    const trusted = await runCli(['validate', 'inn.spkg', '-k', 'author.pub', '--format', 'json'], { cwd })
    expect(trusted.code).toBe(0)
    expect(JSON.parse(trusted.stdout).diagnostics).toEqual([])
  })

  it('reports a file that is not a ZIP as refused (exit 1) and a missing file as an I/O error (exit 2)', async () => {
    const cwd = freshDir()
    writeFileSync(join(cwd, 'x.spkg'), 'hello')
    const r = await runCli(['validate', 'x.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/fatal pkg\/not-zip: .*\nx\.spkg: refused: 1 fatal error\n$/)
    const json = JSON.parse((await runCli(['validate', 'x.spkg', '--format', 'json'], { cwd })).stdout)
    expect(Object.keys(json.diagnostics[0])).toEqual(['code', 'severity', 'message', 'path', 'docs'])
    expect(json.diagnostics[0]).toMatchObject({
      code: 'pkg/not-zip',
      severity: 'fatal',
      path: null,
      docs: 'docs/diagnostic-codes.md#pkg-not-zip',
    })
    const gone = await runCli(['validate', 'nope.spkg'], { cwd })
    expect(gone.code).toBe(2)
    expect(gone.stderr).toBe("spkg validate: cannot read 'nope.spkg': no such file or directory\n")
  })

  it('reports folder problems (a symlink) without packing anything', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    execFileSync('ln', ['-s', '/etc/hostname', join(cwd, 'inn/assets/host')])
    const r = await runCli(['validate', 'inn', '--format', 'github'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('::error file=inn/assets/host,title=pkg/unsafe-path::')
  })

  it('runs the story checks: a gate to a missing part fails validation with its line', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), {
      ...storyTree(),
      'story/0001-inn.sty': '# Inn\n\nYou wake.\n\n[[ 0009-gone.sty ]]\n',
    })
    const r = await runCli(['validate', 'inn'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^story\/0001-inn\.sty:5:4: error story\/unknown-part: .*story\/0009-gone\.sty/m)
  })

  it('reads a package from standard input, and draws progress only on a TTY without --quiet', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree())
    await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    const bytes = new Uint8Array(readFileSync(join(cwd, 'inn.spkg')))
    const piped = await runCli(['validate', '-'], { cwd, stdin: bytes })
    expect(piped.code).toBe(0)
    expect(piped.stderr).toBe('')
    expect(piped.stdout).toBe('-: valid: no problems\n')
    const tty = await runCli(['validate', 'inn.spkg'], { cwd, tty: true })
    expect(tty.stderr).toBe('\r\x1b[2Kvalidating inn.spkg\r\x1b[2K')
    const quiet = await runCli(['validate', 'inn.spkg', '--quiet'], { cwd, tty: true })
    expect(quiet.stderr).toBe('')
  })

  it('prints at most 200 findings and counts the rest (JSON, text, --max-diagnostics)', async () => {
    const cwd = freshDir()
    const tree = storyTree()
    // 600 undeclared variables: 600 errors.
    tree['story/0001-inn.sty'] = `# Inn\n${Array.from({ length: 600 }, (_, i) => `\${v${i}}`).join('\n')}\n`
    writeTree(join(cwd, 'inn'), tree)
    const json = await runCli(['validate', 'inn', '--format', 'json'], { cwd })
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout)
    expect(Object.keys(report).slice(-2)).toEqual(['omitted', 'diagnostics'])
    expect(report.diagnostics).toHaveLength(200)
    expect(report.diagnostics.every((d: { severity: string }) => d.severity === 'error')).toBe(true)
    expect(report.omitted.byCode['story/undeclared']).toBe(400)
    expect(report.omitted.count).toBe(
      Object.values(report.omitted.byCode as Record<string, number>).reduce((a, b) => a + b, 0),
    )
    const text = await runCli(['validate', 'inn'], { cwd })
    const lines = text.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(202)
    expect(lines.at(-2)).toMatch(
      /^\.\.\. and \d+ more \(story\/undeclared 400, .*--max-diagnostics all prints them\)$/,
    )
    // The summary counts every finding, not only those printed.
    expect(lines.at(-1)).toMatch(/^inn: invalid \(a reader still opens it\): 600 errors/)
    const some = JSON.parse(
      (await runCli(['validate', 'inn', '-f', 'json', '--max-diagnostics', '3'], { cwd })).stdout,
    )
    expect(some.diagnostics).toHaveLength(3)
    const all = JSON.parse(
      (await runCli(['validate', 'inn', '-f', 'json', '--max-diagnostics', 'all'], { cwd })).stdout,
    )
    expect(all.omitted).toBeUndefined()
    expect(all.diagnostics.length).toBe(200 + report.omitted.count)
    const bad = await runCli(['validate', 'inn', '--max-diagnostics', 'many'], { cwd })
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining("--max-diagnostics must be a whole number or 'all'"),
    ])
  })

  it('validates one .sty as the flat package play makes of it, its modules referenced', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'duel'), {
      'duel.sty':
        '{use combat}\n{set points = 0}\n# Duel\n{set points = hp(3)}\n{if points > 0}You fight.{end}\n-> END\n',
      'combat.xty': '{fn hp(x) = x * 2}\n',
      'notes/draft.sty': '{nope}\n',
    })
    const r = await runCli(['validate', 'duel/duel.sty', '--format', 'json'], { cwd })
    expect([r.code, r.stderr]).toEqual([0, ''])
    const report = JSON.parse(r.stdout)
    expect(report).toMatchObject({
      loads: true,
      valid: true,
      layout: 'flat',
      entry: 'duel.sty',
      parts: ['duel.sty'],
    })
    // The module {use} reads is no unreferenced file; the draft in a subfolder is not packed.
    expect(report.diagnostics).toEqual([])
    writeTree(join(cwd, 'bad'), { 'bad.sty': '# Bad\n{frobnicate 3}\n' })
    const bad = await runCli(['validate', 'bad/bad.sty'], { cwd })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('bad.sty:2:1: error story/unknown-command')
    const github = await runCli(['validate', 'bad/bad.sty', '--format', 'github'], { cwd })
    expect(github.stdout).toContain('::error file=bad/bad.sty,line=2,col=1,title=story/unknown-command::')
  })

  it('prints help listing every option', async () => {
    const r = await runCli(['validate', '--help'])
    expect(r.code).toBe(0)
    for (const o of ['--format', '--trusted-key', '--host-namespace', '--quiet'])
      expect(r.stdout).toContain(o)
  })
})
