// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * 1.1 alternatives and read counts as a user meets them: `spkg validate` reports an empty one and
 * ink's spelling, `spkg play` plays them, saves and resumes in the middle of a shuffle, and
 * `spkg map` and the random walk go through block alternatives.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, writeTree } from '../../test/helpers/tree'

const ID = '86f6c54e-fb8a-4956-84ad-8c9f7eb865a4'
const story = (text: string, lang = '1.1') => ({
  'manifest.json': JSON.stringify({ id: ID, story_lang: lang, parts: ['story/a.sty'] }),
  'story/a.sty': text,
})
const DOOR = [
  '## [#door]',
  'Knock {seq one|two|three}. {shuffle Rain|Snow|Ash|Wind}. ${turns()} ${visits(#knock)}',
  '{once}',
  'A dog barks.',
  '{or}',
  '-> #hall',
  '{end}',
  '+ Knock -> #door [#knock]',
  '+ Leave -> END',
  '## Hall [#hall]',
  'The hall.',
  '+ Back -> #door',
].join('\n')

describe('1.1 alternatives in spkg', () => {
  it('spkg validate reports an empty alternative and warns about ink spelling, with the fix', async () => {
    const dir = writeTree(freshDir(), story('A {seq} and {&a|b}.\n'))
    const r = await runCli(['validate', dir])
    expect(r.code).toBe(1)
    expect(r.stdout + r.stderr).toContain(
      "story/a.sty:1:3: error story/empty-alternative: '{seq}' has no items; write them separated by '|': '{seq first|second}'",
    )
    expect(r.stdout + r.stderr).toContain("story/a.sty:1:13: warning story/ink-syntax: ink's '{&a|b}'")
  })

  it('the same text at 1.0 is the unknown command it always was', async () => {
    const dir = writeTree(freshDir(), story('A {seq a|b}.\n', '1.0'))
    const r = await runCli(['validate', dir])
    expect(r.stdout + r.stderr).toContain('story/a.sty:1:3: error story/unknown-command')
  })

  it('spkg play plays them, and --save / --resume goes on mid-shuffle exactly', async () => {
    const dir = writeTree(freshDir(), story(DOOR))
    const full = await runCli(['play', dir, '--seed', '5', '--choose', '1,1,1,1,1,1,2'])
    expect(full.code).toBe(0)
    expect(full.stdout).toContain('Knock one.')
    expect(full.stdout).toContain('A dog barks.')
    expect(full.stdout).toContain('The hall.')
    const shuffled = [...full.stdout.matchAll(/(Rain|Snow|Ash|Wind)\./g)].map((m) => m[1])
    expect(shuffled.slice(0, 4).sort()).toEqual(['Ash', 'Rain', 'Snow', 'Wind'])
    const save = join(dir, 'state.json')
    await runCli(['play', dir, '--seed', '5', '--choose', '1,1', '--save', save])
    // knock, then back from the hall: the door was reached three times; a shuffle item is left
    const vars = JSON.parse(readFileSync(save, 'utf8')).variables
    expect(vars).toMatchObject({ 'story/a.sty:door~1@seq': 3, 'story/a.sty:door~2@seq': 3 })
    expect(vars['story/a.sty:door~2@bag']).toHaveLength(1)
    const resumed = await runCli(['play', dir, '--resume', save, '--choose', '1,1,1,1,2'])
    expect(resumed.code).toBe(0)
    // the replay ends where the state was saved; what follows is what the full run played next
    const [replayed, live] = resumed.stdout.split('-- resumed --\n') as [string, string]
    expect(full.stdout.startsWith(replayed.replace('-- replay --\n', ''))).toBe(true)
    expect(full.stdout.endsWith(live)).toBe(true)
    expect(live).toMatch(/^ {2}1\) Knock/)
  })

  it('spkg map draws the branches of a block alternative, and random walks go through them', async () => {
    const dir = writeTree(freshDir(), story(DOOR))
    const out = join(dir, 'map.json')
    const r = await runCli(['map', dir, '-o', out, '--random-walk', '10'])
    expect(r.code).toBe(0)
    const map = JSON.parse(readFileSync(out, 'utf8')) as {
      edges: Array<{ from: string; to: string; kind: string }>
    }
    expect(map.edges).toContainEqual(expect.objectContaining({ to: 'S:story/a.sty:hall', kind: 'jump' }))
    const walk = await runCli(['play', dir, '--random-walk', '10', '--format', 'json'])
    expect(walk.code).toBe(0)
    const report = JSON.parse(walk.stdout) as { walks: number; endings: Array<{ text: string }> }
    expect(report.walks).toBe(10)
    expect(report.endings.length).toBeGreaterThan(0)
  })

  it('the random walk knows the options and endings inside block alternatives', async () => {
    const dir = writeTree(freshDir(), story('{seq}\n* Go on -> END\n{or}\n* Never shown -> END\n{end}\n'))
    const r = await runCli(['play', dir, '--random-walk', '5'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('5  story/a.sty:2:12 in #h0')
    expect(r.stdout).toContain('story/a.sty:4:1  [story/a.sty:h0@2] 1 "Never shown"')
  })
})
