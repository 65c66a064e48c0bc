/**
 * 1.1 options under a block `{if}` (README "Language versions and 1.1", section 10): an `{if}`
 * among a group's options, at their indentation, keeps its options in the group (one menu; ink's
 * `* {cond} option`), offered when its branch holds. Parsing, the same text at 1.0, once-only
 * records, fallbacks, ids, rolls in conditions, and resume by replay.
 */
import { describe, expect, it } from 'vitest'
import { strip, where } from '../../test/helpers/parse.ts'
import { memorySource, play } from '../../test/helpers/play.ts'
import { checkStory } from '../check/check-story.ts'
import type { StoryLang } from '../lang.ts'
import { parseStory } from '../parse/parse-story.ts'
import { resumeStoryRun } from './resume-story-run.ts'

const src = (text: string, lang: StoryLang = '1.1') => ({ ...memorySource({ 'x.sty': text }), lang })
const pauses = (lines: string[]) => lines.filter((l) => l.startsWith('?'))

const SHOP = `{set gold = 1}
[#shop]
* Look around [#look]
{if gold > 0}
* Buy bread
  {set gold -= 1}
{elif gold == 0}
* Beg
{else}
* Cry
{end}
+ Leave [#leave]
  -> END
-> #shop`

describe('options under a block {if} at 1.1', () => {
  it('parses one group: options numbered across the {if}, the {if} in the group`s ifs', () => {
    const r = parseStory(SHOP, { path: 'x.sty', lang: '1.1' })
    expect(where(r.diagnostics)).toEqual([])
    const g = r.ast.body.find((n) => n.kind === 'group')!
    expect(
      g.kind === 'group' &&
        g.options.map((o) => `${o.id}${o.under ? ` ${o.under.if}/${o.under.branch}` : ''}`),
    ).toEqual(['look', '2 0/0', '3 0/1', '4 0/-1', 'leave'])
    expect(g.kind === 'group' && strip(g.ifs)).toEqual([
      {
        conds: [
          { k: 'bin', op: '>', a: { k: 'name', name: 'gold' }, b: { k: 'num', v: 0 } },
          { k: 'bin', op: '==', a: { k: 'name', name: 'gold' }, b: { k: 'num', v: 0 } },
        ],
        at: 1,
      },
    ])
    expect(r.ast.body.filter((n) => n.kind === 'group')).toHaveLength(1)
  })
  it('offers the options of the branch that holds, in one menu, keeping once-only records', async () => {
    const { lines, run } = await play(src(SHOP), ['2', 'look', '3'], { seed: 1 })
    expect(pauses(lines)).toEqual([
      '? [x.sty:shop] look "Look around" | 2 "Buy bread" | leave "Leave"',
      '? [x.sty:shop] look "Look around" | 3 "Beg" | leave "Leave"',
      '? [x.sty:shop] 3 "Beg" | leave "Leave"',
      '? [x.sty:shop] leave "Leave"',
    ])
    expect(run.saveState().choices).toEqual({ 'x.sty:shop': ['2', 'look', '3'] })
  })
  it('takes a fallback only when its branch holds', async () => {
    const story = (tired: boolean) =>
      `{set tired = ${tired}}\n[#g]\n* Walk -> #g\n{if tired}\n* -> #rest\n{end}\n## [#rest]\nYou rest.`
    const yes = await play(src(story(true)), ['1'], { seed: 1 })
    expect(yes.lines.slice(1)).toEqual([
      '? [x.sty:g] 1 "Walk"',
      '> 1',
      '(auto) 2',
      '#0 paragraph "You rest."',
      '-- end',
    ])
    const no = await play(src(story(false)), ['1'], { seed: 1 })
    expect(no.lines.slice(3)).toEqual(['! story/exhausted-group', '#0 paragraph "You rest."', '-- end'])
  })
  it('evaluates each condition once per arrival, in source order with the guards (one roll for a branch)', async () => {
    const story = '[#g]\n+ {if chance(0.5)} A\n{if chance(0.5)}\n+ B\n+ C\n{end}\n+ Again [#again]\n  -> #g'
    const { lines } = await play(src(story), Array(12).fill('again'), { seed: 7 })
    const seen = pauses(lines)
    expect(seen).toHaveLength(13)
    expect(new Set(seen.map((p) => p.includes('"B"'))).size).toBe(2)
    for (const p of pauses(lines)) expect(p.includes('"B"')).toBe(p.includes('"C"'))
  })
  it('nests, and an {if} before the first option starts the group (named by the anchor above it)', async () => {
    const story =
      '{set a = true}\n[#g]\n{if a}\n{if not a}\n* Never\n{else}\n* Inner\n{end}\n* Outer\n{end}\n* Last'
    const r = parseStory(story, { path: 'x.sty', lang: '1.1' })
    expect(where(r.diagnostics)).toEqual([])
    const { lines } = await play(src(story), [], { seed: 1 })
    expect(lines[1]).toBe('? [x.sty:g] 2 "Inner" | 3 "Outer" | 4 "Last"')
  })
  it('ends the group at any other command line, also inside an ordinary {if}', async () => {
    const story = '{set a = true}\n{if a}\n* A\n{set x = 1}\n* B\n{end}\nDone.'
    const r = parseStory(story, { path: 'x.sty', lang: '1.1' })
    expect(where(r.diagnostics)).toEqual([])
    const block = r.ast.body[0]!
    expect(block.kind === 'if' && block.branches[0]!.body.map((n) => n.kind)).toEqual([
      'group',
      'set',
      'group',
    ])
  })
  it('keeps an {if} holding all of a group, or anything but options, a block as in 1.0', () => {
    const whole = parseStory('{if x}\n* A\n* B\n{end}\nText.', { path: 'x.sty', lang: '1.1' })
    expect(whole.ast.body.map((n) => n.kind)).toEqual(['if', 'paragraph'])
    const mixed = parseStory('* A\n{if x}\nText.\n* B\n{end}', { path: 'x.sty', lang: '1.1' })
    expect(mixed.ast.body.map((n) => n.kind)).toEqual(['group', 'if'])
  })
  it('reads deep nesting in linear time, and nesting past the block limit as ordinary blocks', () => {
    for (const n of [90, 5000]) {
      const text = `* A\n${'{if x}\n'.repeat(n)}* B\n${'{end}\n'.repeat(n)}* C`
      const t0 = performance.now()
      const r = parseStory(text, { path: 'x.sty', lang: '1.1' })
      expect(performance.now() - t0).toBeLessThan(2000)
      const first = r.ast.body[0]!
      expect(first.kind === 'group' && first.options.length).toBe(n > 100 ? 1 : 3)
    }
  })
  it('checks the conditions as any expression: ids, undeclared names', () => {
    const r = parseStory('* A\n{if visits(#nowhere) > 0}\n* B\n{end}', { path: 'x.sty', lang: '1.1' })
    expect(where(r.diagnostics)).toEqual(['story/unknown-id@2:12'])
    const found = checkStory({
      parts: { 'x.sty': '* A\n{if ghost}\n* B\n{end}' },
      order: ['x.sty'],
      storyLang: '1.1',
    })
    expect(found.map((d) => `${d.line}:${d.column} ${d.code}`)).toContain('2:5 story/undeclared')
  })
  it('resumes by replay inside such a group', async () => {
    const source = src(SHOP)
    const first = await play(source, ['2', 'look'], { seed: 1 })
    const { run, diagnostics } = await resumeStoryRun(source, first.run.saveState())
    expect(diagnostics).toEqual([])
    const rest = await play(run, ['3'])
    const live = await play(source, ['2', 'look', '3'], { seed: 1 })
    expect(pauses(rest.lines)).toEqual(pauses(live.lines))
    expect(pauses(rest.lines).at(-1)).toBe('? [x.sty:shop] leave "Leave"')
  })
})

describe('the same text at 1.0', () => {
  it('ends the group at the {if} line, as before', async () => {
    const r = parseStory(SHOP, { path: 'x.sty', lang: '1.0' })
    expect(r.ast.body.map((n) => n.kind)).toEqual(['group', 'if', 'group', 'jump'])
    const { lines } = await play(src(SHOP, '1.0'), [], { seed: 1 })
    expect(lines[1]).toBe('? [x.sty:shop] look "Look around"')
  })
})
