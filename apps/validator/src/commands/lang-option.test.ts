/**
 * `--lang <version>` of `spkg play`, `spkg validate` and `spkg map`: a folder or a `.sty` with no
 * manifest `story_lang` is read at that version (1.1 syntax plays and checks); a manifest that
 * declares `story_lang` wins, and a `--lang` that differs from it, or one given for a package, is a
 * usage error (exit 2) saying so.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, writeTree } from '../../test/helpers/tree'

const root = freshDir('spkg-lang-')
const folder = (files: Record<string, string>) => writeTree(freshDir('spkg-lang-'), files)

const STORY = `{const COINS = 2}
We hurried home <>
{set late = true}
to Savile Row.
[#door]
* Knock[.] twice
  A voice answers.
{if late}
* Wait till dawn
{end}
* Leave -> END
`

const ID = '0b6c6a36-9a39-4a0e-9f0e-3d7b8c1d2e4f'
const manifest = (lang?: string) =>
  JSON.stringify({
    id: ID,
    ...(lang ? { story_lang: lang } : {}),
    parts: [{ file: 'story/a.sty', name: 'A' }],
  })

describe('spkg play --lang', () => {
  it('plays a .sty and a folder without a manifest at 1.1', async () => {
    const file = join(folder({ 'story.sty': STORY }), 'story.sty')
    const r = await runCli(['play', file, '--lang', '1.1', '--choose', '1'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      [
        '== story.sty',
        'We hurried home to Savile Row.',
        '  1) Knock.  [1]',
        '  2) Wait till dawn  [2]',
        '  3) Leave  [3]',
        '> Knock.',
        'Knock twice',
        'A voice answers.',
        '-- end',
        '',
      ].join('\n'),
    )
    const dir = folder({ 'story.sty': STORY })
    expect((await runCli(['play', dir, '--lang', '1.1', '--choose', '1'])).stdout).toBe(r.stdout)
  })
  it('reads the same story at 1.0 without --lang (its 1.1 syntax is reported)', async () => {
    const file = join(folder({ 'story.sty': STORY }), 'story.sty')
    const r = await runCli(['validate', file])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/story\.sty:1:1: error story\/unknown-command/)
  })
  it('lets a manifest that declares story_lang win: the same version is fine, another is a usage error', async () => {
    const same = folder({ 'manifest.json': manifest('1.1'), 'story/a.sty': STORY })
    expect((await runCli(['play', same, '--lang', '1.1', '--choose', '3'])).code).toBe(0)
    const other = folder({ 'manifest.json': manifest('1.0'), 'story/a.sty': STORY })
    for (const command of ['play', 'validate']) {
      const r = await runCli([command, other, '--lang', '1.1'])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/manifest\.json declares "story_lang": "1\.0".*--lang 1\.1 differs/)
    }
    const map = await runCli(['map', other, '--lang', '1.1', '-o', join(root, 'm.json')])
    expect(map.code).toBe(2)
  })
  it('applies to a manifest that declares no story_lang', async () => {
    const dir = folder({ 'manifest.json': manifest(), 'story/a.sty': STORY })
    const r = await runCli(['validate', dir, '--lang', '1.1', '--format', 'json'])
    const report = JSON.parse(r.stdout) as { diagnostics: Array<{ code: string }> }
    expect(
      report.diagnostics.filter((d) => d.code.startsWith('story/') && d.code !== 'story/implicit-ids'),
    ).toEqual([])
  })
  it('refuses a version it does not read, and a package', async () => {
    const file = join(folder({ 'story.sty': STORY }), 'story.sty')
    const bad = await runCli(['play', file, '--lang', '2.0'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--lang must be 1\.0 or 1\.1 \(got '2\.0'\)/)
    const dir = folder({ 'manifest.json': manifest('1.1'), 'story/a.sty': STORY })
    const out = join(root, 'a.spkg')
    expect((await runCli(['pack', dir, '-o', out])).code).toBe(0)
    for (const command of ['play', 'validate']) {
      const r = await runCli([command, out, '--lang', '1.1'])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/a package is read at its manifest's story_lang/)
    }
  })
  it('validates and maps a 1.1 story', async () => {
    const file = join(folder({ 'story.sty': STORY }), 'story.sty')
    const v = await runCli(['validate', file, '--lang', '1.1'])
    expect(v.stdout).not.toMatch(/error/)
    const out = join(root, 'map.json')
    const m = await runCli(['map', file, '--lang', '1.1', '-o', out, '--random-walk', '20'])
    expect(m.code).toBe(0)
    const graph = JSON.parse(readFileSync(out, 'utf8')) as { edges: Array<{ label?: string }> }
    expect(graph.edges.map((e) => e.label).filter(Boolean)).toEqual(
      expect.arrayContaining(['Knock.', 'Wait till dawn', 'Leave']),
    )
  })
  it('walks a 1.1 story at random: every option, those under the {if} too, is offered', async () => {
    const file = join(folder({ 'story.sty': STORY }), 'story.sty')
    const r = await runCli(['play', file, '--lang', '1.1', '--random-walk', '30', '--explore'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/options never offered \(0\)/)
    expect(r.stdout).toMatch(/runtime diagnostics \(0\)/)
  })
  it('is documented in --help', async () => {
    for (const command of ['play', 'validate', 'map']) {
      const r = await runCli([command, '--help'])
      expect(r.stdout).toMatch(/--lang <version>/)
      expect(r.stdout).toMatch(/a manifest's "story_lang" wins/)
    }
  })
})
