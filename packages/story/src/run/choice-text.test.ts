// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * 1.1 choice text (README "Language versions and 1.1", section 8): `* Hello[.] there` shows
 * `Hello.` in the menu and `Hello there` once chosen, before the body. Each expectation is what
 * inkjs 2.4 prints for the same options in ink (`* Hello[.] there`, `* [Quiet]`, `* A [b] c`,
 * `* [x] tail`, `* head [y]`), except the label without brackets, which echoes nothing (1.0).
 */
import { describe, expect, it } from 'vitest'
import { strip, where } from '../../test/helpers/parse.ts'
import { memorySource, play } from '../../test/helpers/play.ts'
import type { StoryLang } from '../lang.ts'
import { parseStory } from '../parse/parse-story.ts'
import { resumeStoryRun } from './resume-story-run.ts'

const STORY = `[#g]
+ Hello[.] there
  Body.
+ [Quiet]
  Q.
+ Plain
  P.
+ A [b] c
+ [x] tail
+ head [y]
After.
-> #g`

const src = (text: string, lang: StoryLang = '1.1') => ({ ...memorySource({ 'x.sty': text }), lang })

describe('choice text at 1.1', () => {
  it('shows before + inside in the menu, and before + after once chosen, before the body', async () => {
    const { lines } = await play(src(STORY), ['1', '2', '3', '4', '5', '6'], { seed: 1 })
    expect(lines[1]).toBe('? [x.sty:g] 1 "Hello." | 2 "Quiet" | 3 "Plain" | 4 "A b" | 5 "x" | 6 "head y"')
    const shown = lines.filter((l) => l.startsWith('#')).map((l) => l.replace(/^#\d+ paragraph /, ''))
    expect(shown).toEqual([
      '"Hello there"',
      '"Body."',
      '"After."',
      '"Q."',
      '"After."',
      '"P."',
      '"After."',
      '"A c"',
      '"After."',
      '"tail"',
      '"After."',
      '"head"',
      '"After."',
    ])
    expect(lines[2]).toBe('> 1')
  })
  it('evaluates the text when shown: interpolations, and the chosen event carries the menu text', async () => {
    const { events } = await play(src('{set n = 2}\n* ${n} coins[?] for you -> END'), ['1'], { seed: 1 })
    const chosen = events.find((e) => e.type === 'chosen')
    expect(chosen?.type === 'chosen' && chosen.text).toBe('2 coins?')
    expect(events.flatMap((e) => (e.type === 'block' ? [e.block.text] : []))).toEqual(['2 coins for you'])
  })
  it('reads the brackets after a guard and before a jump, an id and tags', async () => {
    const text = '* {if true} Hi[!] there -> #out [#hi] #warm\n## [#out]\nOut.'
    const r = parseStory(text, { path: 'x.sty', lang: '1.1' })
    expect(where(r.diagnostics)).toEqual([])
    const { lines } = await play(src(text), ['hi'], { seed: 1 })
    expect(lines.slice(1)).toEqual([
      '? [x.sty:h0@1] hi "Hi!"',
      '> hi',
      '#0 paragraph "Hi there"',
      '#1 paragraph "Out."',
      '-- end',
    ])
  })
  it('does not take a link or an [#id] for the brackets', async () => {
    const r = parseStory('* Go [#go]\n* Sure [#id-x] then [ok] -> END', { path: 'x.sty', lang: '1.1' })
    // an [#id] in the middle of a label is text, with the warning that says where an id goes
    expect(where(r.diagnostics)).toEqual(['story/id-before-jump@2:8'])
    const g = r.ast.body[0] as Extract<(typeof r.ast.body)[0], { kind: 'group' }>
    expect(g.options[0]!.id).toBe('go')
    expect(g.options[0]!.echo).toBeUndefined()
    expect(strip(g.options[1]!.label)).toEqual([
      { k: 'text', v: 'Sure [#id-x] then ' },
      { k: 'text', v: 'ok' },
    ])
    const l = parseStory('* Go [there > x.sty] [now]', { path: 'x.sty', lang: '1.1' })
    expect(where(l.diagnostics)).toEqual(['story/link-in-label@1:6'])
  })
  it('makes an option whose menu text is empty a fallback, which still echoes', async () => {
    const { lines } = await play(src('* [] You walk on.\n  Body.'), [], { seed: 1 })
    expect(lines.slice(1)).toEqual([
      '(auto) 1',
      '#0 paragraph "You walk on."',
      '#1 paragraph "Body."',
      '-- end',
    ])
  })
  it('joins the echo to a body that starts with glue', async () => {
    const { lines } = await play(src('* Hi[!] there\n  <>, friend.'), ['1'], { seed: 1 })
    expect(lines.at(-2)).toBe('#0 paragraph "Hi there, friend."')
  })
  it('resumes after a chosen echo with the same scroll-back', async () => {
    const source = src(STORY)
    const first = await play(source, ['1', '4'], { seed: 1 })
    const { scrollBack } = await resumeStoryRun(source, first.run.saveState())
    expect(scrollBack.map((b) => b.block.text)).toEqual(['Hello there', 'Body.', 'After.', 'A c', 'After.'])
  })
})

describe('the same text at 1.0', () => {
  it('is label text: the brackets show and nothing echoes', async () => {
    const { lines } = await play(src(STORY, '1.0'), ['1'], { seed: 1 })
    expect(lines[1]).toBe(
      '? [x.sty:g] 1 "Hello[.] there" | 2 "[Quiet]" | 3 "Plain" | 4 "A [b] c" | 5 "[x] tail" | 6 "head [y]"',
    )
    expect(lines[3]).toBe('#0 paragraph "Body."')
  })
})
