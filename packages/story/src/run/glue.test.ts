// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * 1.1 glue and mid-line jumps at play time (README "Language versions and 1.1", section 1): which
 * text joins which paragraph, across what, and what closes a paragraph. The expected texts are
 * what inkjs 2.4 prints for the same story in ink (written beside each case); resume by replay
 * in the middle of a glued paragraph gives the same scroll-back.
 */
import { parseReadingState } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { memorySource, play } from '../../test/helpers/play.ts'
import type { StoryLang } from '../lang.ts'
import { resumeStoryRun } from './resume-story-run.ts'
import type { StoryEvent } from './types.ts'

const texts = (events: StoryEvent[]) => events.flatMap((e) => (e.type === 'block' ? [e.block.text] : []))
const source = (files: Record<string, string>, lang: StoryLang = '1.1') => ({ ...memorySource(files), lang })
const one = (text: string, answers: string[] = [], lang: StoryLang = '1.1') =>
  play(source({ 'x.sty': text }, lang), answers, { seed: 1 })
const shown = async (text: string, answers: string[] = [], lang: StoryLang = '1.1') =>
  texts((await one(text, answers, lang)).events)

describe('mid-line jumps', () => {
  it('jumps and keeps the paragraph open; the next text continues it after one space', async () => {
    // ink: `He turned away -> door` / `=== door ===` / `and left.` prints "He turned away and left."
    const { lines } = await one('He turned away -> #door\nNever shown.\n## [#door]\nand left.\n\nA new one.')
    expect(lines).toEqual([
      '== part x.sty',
      '! story/unreachable 2:1',
      '#0 paragraph "He turned away and left."',
      '#1 paragraph "A new one."',
      '-- end',
    ])
  })
  it('continues across a silent heading, an anchor, {set} and {if} lines (ink: "A -> k / = s / B")', async () => {
    expect(
      await shown('{set n = 1}\nA -> #k\n## [#k]\n{set n = 2}\n{if n == 2}\n[#in]\nB ${n}.\n{end}\nC'),
    ).toEqual(['A B 2.', 'C'])
  })
  it('ends a paragraph at -> END: the text is shown', async () => {
    expect(await shown('The end -> END\nnot shown')).toEqual(['The end'])
  })
  it('keeps the space written before the arrow when the next text starts with glue (ink: "X Y")', async () => {
    expect(await shown('X -> #k\n## [#k]\n<>Y')).toEqual(['X Y'])
  })
  it('lets a jump after glue win: `Z<> -> #k` then `W` is "Z W", as ink prints it', async () => {
    expect(await shown('Z<> -> #k\n## [#k]\nW')).toEqual(['Z W'])
  })
  it('jumps to a group: the pause closes the paragraph first', async () => {
    const { lines } = await one('Start here -> #g\n[#g]\n* Go\n  Gone.', [])
    expect(lines.slice(1)).toEqual(['#0 paragraph "Start here"', '? [x.sty:g] 1 "Go"'])
  })
  it('joins a loop of jumps until a closer, and the endless-loop guard still stops a glue loop', async () => {
    expect(
      await shown('{set n = 0}\n## [#top]\n{set n += 1}\n{if n < 3}\nround ${n} -> #top\n{end}\ndone.'),
    ).toEqual(['round 1 round 2 done.'])
    const { lines } = await one('## [#top]\nagain -> #top')
    expect(lines.at(-3)).toBe('! story/endless-loop 1:1')
    expect(lines.at(-2)).toMatch(/^#0 paragraph "again again again/)
  })
})

describe('glue <>', () => {
  it('joins with no space; the space written beside <> is kept (ink: "AB", "C D", "A B")', async () => {
    expect(await shown('A<>\nB\n\nC\n<> D\n\nE <>\nF')).toEqual(['AB', 'C D', 'E F'])
  })
  it('joins across blank lines, comments, jumps, {set}, {if} lines, anchors and silent headings', async () => {
    // ink: `We hurried home <>` / `~ temp x = 1` / `to Savile Row.` prints "We hurried home to Savile Row."
    expect(
      await shown(
        'We hurried home <>\n\n// a comment\n{set x = 1}\n-> #k\n## [#k]\n[#a]\n{if x}\nto Savile Row.\n{end}\nNext.',
      ),
    ).toEqual(['We hurried home to Savile Row.', 'Next.'])
  })
  it('joins a line starting with <> to the paragraph before it, even across a blank line (ink: "X Y Z")', async () => {
    expect(await shown('X\n<> Y <>\n\n// comment\nZ\n\nW')).toEqual(['X Y Z', 'W'])
  })
  it('glues on both sides on a line of <> alone (ink: "AB")', async () => {
    expect(await shown('A\n<>\nB')).toEqual(['AB'])
  })
  it('does nothing at the start of a part or after a closer', async () => {
    expect(await shown('<>First.\n# Head\n<> Second.')).toEqual(['First.', 'Head', 'Second.'])
  })
  it('is closed by a printed heading, media, a pause, a gate and the end', async () => {
    const files = {
      'a.sty': 'One <>\n# Head\nTwo <>\n![x](i.png)\nThree <>\n* Go\nFour <>\n[[ b.sty ]]',
      'b.sty': '<> Five <>',
    }
    const { lines } = await play(source(files), ['1'], { seed: 1 })
    expect(lines).toEqual([
      '== part a.sty',
      '#0 paragraph "One"',
      '#1 heading1 "Head"',
      '#2 paragraph "Two"',
      '#3 media image i.png alt="x"',
      '#4 paragraph "Three"',
      '? [a.sty:h1@1] 1 "Go"',
      '> 1',
      '#5 paragraph "Four"',
      '== part b.sty',
      '#0 paragraph "Five"',
      '-- end',
    ])
  })
  it('carries on across an automatic fallback and an exhausted group (ink: "A B C")', async () => {
    expect(await shown('A <>\n* {if false} hidden\n* -> #k\n## [#k]\nB <>\n* {if false} x\n<> C')).toEqual([
      'A B C',
    ])
  })
  it('joins the text of an {insert} and the text after it', async () => {
    const files = {
      'x.sty': '{use m}\nYou see <>\n{insert who("Mira")}\n<>, who nods.',
      'm.xty': '{passage who(n)}\n${n}<>\n{end}',
    }
    const { events } = await play(source(files), [], { seed: 1 })
    expect(texts(events)).toEqual(['You see Mira, who nods.'])
  })
  it('merges tags and runs: styles, links and the tags of every joined line', async () => {
    const { events, lines } = await one('A **bold** <> #t1\n{set x = 1}\n[link > x.sty] *it* #t2')
    expect(lines[1]).toBe('#0 paragraph "A bold link it" [t1 t2]')
    const b = events.find((e) => e.type === 'block')
    expect(b?.type === 'block' && b.block.runs).toEqual([
      { text: 'A ' },
      { text: 'bold', strong: true },
      { text: ' ' },
      { text: 'link', link: 'x.sty' },
      { text: ' ' },
      { text: 'it', em: true },
    ])
  })
  it('matches styles within each source paragraph: a * opened before glue and closed after stays literal', async () => {
    expect(await shown('A *it <>\n{set x = 1}\nmore* B')).toEqual(['A *it more* B'])
  })
  it('keeps an escaped \\<> as text, and <> inside a line as text', async () => {
    expect(await shown('A \\<>\nB <> C')).toEqual(['A <> B <> C'])
  })
  it('skips a paragraph that renders empty without breaking the chain', async () => {
    expect(await shown('{set e = ""}\nA <>\n\n${e}\n\nB')).toEqual(['A B'])
  })
})

describe('1.0 reads the same text as before', () => {
  it('prints `-> #id` at the end of a text line and <> as written', async () => {
    expect(await shown('Go on -> #x\nA <>\n\n<> B', [], '1.0')).toEqual(['Go on -> #x A <>', '<> B'])
  })
})

describe('block indexes, reading state and resume by replay', () => {
  it('numbers blocks in the order they close and saves renderedParagraph of the last one shown', async () => {
    const { lines, run } = await one('A <>\n{set x = 1}\nB.\n# H\nC -> #g\n[#g]\n* Go\n  D.', [])
    expect(lines.slice(1)).toEqual([
      '#0 paragraph "A B."',
      '#1 heading1 "H"',
      '#2 paragraph "C"',
      '? [x.sty:g] 1 "Go"',
    ])
    expect(run.saveState().renderedParagraph).toBe(2)
  })
  it('resumes mid-glue with the same scroll-back and goes on the same', async () => {
    const text =
      '## [#top]\n{set n = visits()}\nRound ${n} <>\n[#g]\n+ On\n  <> and on <>\n  -> #top\n+ Stop\n  <> stopped -> #end\n## [#end]\nat ${n}.'
    const src = source({ 'x.sty': text })
    const first = await play(src, ['1', '1'], { seed: 1 })
    const state = parseReadingState(JSON.parse(JSON.stringify(first.run.saveState())), {
      storyId: 'test-story',
    }).state!
    const { run, scrollBack } = await resumeStoryRun(src, state)
    expect(scrollBack.map((b) => `${b.index} ${b.block.text}${b.block.seen ? ' (seen)' : ''}`)).toEqual(
      first.events.flatMap((e) => (e.type === 'block' ? [`${e.index} ${e.block.text} (seen)`] : [])),
    )
    const rest = await play(run, ['2'])
    const live = await play(src, ['1', '1', '2'], { seed: 1 })
    expect(texts(live.events).slice(-1)).toEqual(['stopped at 3.'])
    expect(texts(rest.events.filter((e) => !e.replay))).toEqual(['stopped at 3.'])
  })
})
