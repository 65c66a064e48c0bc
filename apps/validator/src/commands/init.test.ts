import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'

const fresh = () => mkdtempSync(join(tmpdir(), 'spkg-init-'))
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('spkg init', () => {
  it('creates a packaged story that validates, plays through both parts and packs at once', async () => {
    const cwd = fresh()
    const r = await runCli(['init', 'inn', '--title', 'The Lighthouse', '--author', 'Ann'], { cwd })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^created inn: manifest\.json, story\/0001-start\.sty/)
    const manifest = JSON.parse(readFileSync(join(cwd, 'inn/manifest.json'), 'utf8'))
    expect(manifest.id).toMatch(UUID)
    expect(manifest).toMatchObject({
      title: 'The Lighthouse',
      author: [{ name: 'Ann' }],
      cover: 'assets/cover.svg',
    })
    expect(manifest.parts.map((p: { file: string }) => p.file)).toEqual([
      'story/0001-start.sty',
      'story/0002-end.sty',
    ])
    // A second story gets another id.
    await runCli(['init', 'other'], { cwd })
    expect(JSON.parse(readFileSync(join(cwd, 'other/manifest.json'), 'utf8')).id).not.toBe(manifest.id)
    // Canonical: 'manifest check' finds nothing to normalise.
    const check = await runCli(['manifest', 'check', 'inn/manifest.json'], { cwd })
    expect(check.code).toBe(0)
    expect(check.stdout).not.toContain('manifest/normalized')

    const v = await runCli(['validate', 'inn', '--format', 'json'], { cwd })
    expect(v.code).toBe(0)
    const report = JSON.parse(v.stdout)
    expect(report.valid).toBe(true)
    // No finding at all: the .gitignore and .github/ init wrote are a repository's own files.
    expect(report.diagnostics).toEqual([])
    const text = await runCli(['validate', 'inn'], { cwd })
    expect(text.stdout).toBe('inn: valid: no problems\n')
    // The cover placeholder carries the title (escaped for SVG).
    expect(readFileSync(join(cwd, 'inn/assets/cover.svg'), 'utf8')).toContain('>The Lighthouse</text>')
    await runCli(['init', 'amp', '--title', 'Salt & <Sea>'], { cwd })
    expect(readFileSync(join(cwd, 'amp/assets/cover.svg'), 'utf8')).toContain(
      '>Salt &#38; &#60;Sea&#62;</text>',
    )

    const p = await runCli(['play', 'inn', '--choose', '1'], { cwd })
    expect(p.code).toBe(0)
    expect(p.stdout).toContain('== story/0002-end.sty\n# The End\nYou arrive, bold as ever.\n-- end\n')
    const p2 = await runCli(['play', 'inn', '--choose', '2'], { cwd })
    expect(p2.stdout).toContain('You arrive, a little shaken.\n-- end\n')

    const pack = await runCli(['pack', 'inn', '-o', 'inn.spkg', '-q'], { cwd })
    expect(pack.code).toBe(0)

    const ignore = readFileSync(join(cwd, 'inn/.gitignore'), 'utf8').split('\n')
    expect(ignore).toEqual(expect.arrayContaining(['*.sec', '*.key', '*.spkg', '*.spkg.enc']))
    const workflow = readFileSync(join(cwd, 'inn/.github/workflows/spkg.yml'), 'utf8')
    expect(workflow).toMatch(/uses: spkg\/spkg@v1\n/)
  })

  it('creates a flat story with --flat: one story.sty, no manifest', async () => {
    const cwd = fresh()
    const r = await runCli(['init', 'sketch', '--flat'], { cwd })
    expect(r.code).toBe(0)
    expect(readdirSync(join(cwd, 'sketch')).sort()).toEqual(['.github', '.gitignore', 'story.sty'])
    const v = await runCli(['validate', 'sketch', '--format', 'json'], { cwd })
    expect(JSON.parse(v.stdout)).toMatchObject({ valid: true, layout: 'flat', diagnostics: [] })
    const p = await runCli(['play', 'sketch', '--choose', '2'], { cwd })
    expect(p.code).toBe(0)
    expect(p.stdout).toContain(
      'You wait a moment, then go on.\n## The End\nYou arrive, a little shaken.\n-- end\n',
    )
  })

  it('never overwrites an existing file, and writes nothing when one exists', async () => {
    const cwd = fresh()
    const dir = join(cwd, 'mine')
    await runCli(['init', 'mine', '--flat'], { cwd })
    writeFileSync(join(dir, 'story.sty'), 'my own words\n')
    const r = await runCli(['init', 'mine'], { cwd })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      "spkg init: 'mine' already has '.gitignore', '.github/workflows/spkg.yml'; spkg init never overwrites a file (nothing written)\n",
    )
    expect(readFileSync(join(dir, 'story.sty'), 'utf8')).toBe('my own words\n')
    expect(readdirSync(dir).sort()).toEqual(['.github', '.gitignore', 'story.sty'])
    // A file where the folder should be is refused too.
    writeFileSync(join(cwd, 'plain'), 'x')
    expect((await runCli(['init', 'plain'], { cwd })).code).toBe(2)
    expect(readFileSync(join(cwd, 'plain'), 'utf8')).toBe('x')
  })

  it('refuses a multi-line title', async () => {
    const r = await runCli(['init', 'x', '--title', 'a\nb'], { cwd: fresh() })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--title must be one line')
  })
})
