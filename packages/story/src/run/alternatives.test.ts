// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * 1.1 play: sequences, cycles, once-only alternatives and shuffles (ink's semantics, the shuffle
 * drawn from the story's generator), read counts of every id and turns; their state keys, and
 * resume by replay in the middle of them.
 */
import type { ReadingState } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { memorySource, play } from '../../test/helpers/play.ts'
import { createStoryRun } from './create-story-run.ts'
import { resumeStoryRun } from './resume-story-run.ts'
import type { StoryEvent } from './types.ts'

const v11 = (files: Record<string, string>) => ({ ...memorySource(files), lang: '1.1' })
const texts = (events: StoryEvent[]) =>
  events.flatMap((e) => (e.type === 'block' && !e.replay ? [e.block.text] : []))
/** A loop that shows `line` `n` times: each answer of `+ again` comes back. */
const loop = (line: string) => `# Loop [#loop]\n${line}\n+ again -> #loop\n`
const many = (n: number) => Array.from({ length: n }, () => '1')

describe('alternatives (1.1)', () => {
  it('a sequence stops at its last item, a cycle starts over, a once-only shows nothing after its last', async () => {
    const { events } = await play(
      v11({ 'story/a.sty': loop('[{seq a|b|c}] [{cycle d|e}] [{once f|g}]') }),
      many(4),
    )
    expect(texts(events).filter((t) => t.startsWith('['))).toEqual([
      '[a] [d] [f]',
      '[b] [e] [g]',
      '[c] [d] []',
      '[c] [e] []',
      '[c] [d] []',
    ])
  })

  it('a shuffle shows every item once per round, in an order drawn from the seed', async () => {
    const shown = async (seed: number) => {
      const { events } = await play(v11({ 'story/a.sty': loop('{shuffle 1|2|3|4}') }), many(39), { seed })
      return texts(events).filter((t) => /^\d$/.test(t))
    }
    const a = await shown(7)
    expect(a).toHaveLength(40)
    for (let r = 0; r < 10; r++) expect(a.slice(r * 4, r * 4 + 4).sort()).toEqual(['1', '2', '3', '4'])
    expect(await shown(7)).toEqual(a)
    // not one fixed order: some rounds differ (a seed-independent order would repeat)
    const rounds = new Set(Array.from({ length: 10 }, (_, r) => a.slice(r * 4, r * 4 + 4).join('')))
    expect(rounds.size).toBeGreaterThan(1)
    expect(await shown(8)).not.toEqual(a)
  })

  it('a shuffle draws from the story generator: one draw per item but the last of a round', async () => {
    // random(1, 1000) after the shuffle shows where the generator stands
    const src = loop('{shuffle a|b|c} ${random(1, 1000)}')
    const { events } = await play(v11({ 'story/a.sty': src }), many(2), { seed: 42 })
    const withoutShuffle = await play(v11({ 'story/a.sty': loop('${random(1, 1000)}') }), many(5), {
      seed: 42,
    })
    const rolls = texts(withoutShuffle.events).filter((t) => /^\d+$/.test(t))
    const got = texts(events)
      .filter((t) => /^[abc] \d+$/.test(t))
      .map((t) => t.split(' ')[1])
    // visit 1: shuffle draw 1, roll draw 2; visit 2: shuffle draw 3, roll draw 4; visit 3: last item, roll draw 5
    expect(got).toEqual([rolls[1], rolls[3], rolls[4]])
  })

  it('an item counts only when flow shows it: nested alternatives advance with their item', async () => {
    const { events } = await play(v11({ 'story/a.sty': loop('{cycle x {seq 1|2|3}|y}') }), many(5))
    expect(texts(events).filter((t) => t !== 'Loop')).toEqual(['x 1', 'y', 'x 2', 'y', 'x 3', 'y'])
  })

  it('an alternative under an {if} that is not taken does not count', async () => {
    const src =
      '{set n = 0}\n# Loop [#loop]\n{set n += 1}\n{if n % 2 == 0}{seq a|b|c}{end}.\n+ again -> #loop\n'
    const { events } = await play(v11({ 'story/a.sty': src }), many(5))
    expect(texts(events).filter((t) => t !== 'Loop')).toEqual(['.', 'a.', '.', 'b.', '.', 'c.'])
  })

  it('plays block alternatives: branches of lines, options and jumps', async () => {
    const src = [
      '# Loop [#loop]',
      '{once}',
      'First visit.',
      '{set gold = 5}',
      '{or}',
      'Second visit, ${gold} gold.',
      '{end}',
      '{cycle}',
      '* Take the left door',
      '  Left.',
      '{or}',
      '-> #right',
      '{end}',
      '+ again -> #loop',
      '## Right [#right]',
      'Right.',
      '+ back -> #loop',
    ].join('\n')
    const { events } = await play(v11({ 'story/a.sty': src }), ['1', '1', '1', '1'])
    expect(texts(events)).toEqual([
      'Loop',
      'First visit.',
      'Left.',
      'Loop',
      'Second visit, 5 gold.',
      'Right',
      'Right.',
      'Loop',
      'Loop',
      'Right',
      'Right.',
    ])
  })

  it('counts in option labels each time the pause offers them', async () => {
    const { events } = await play(
      v11({ 'story/a.sty': '# L [#l]\n+ {seq Knock|Knock again|Bang} -> #l' }),
      many(3),
    )
    const labels = events.flatMap((e) => (e.type === 'pause' ? [e.options[0]!.text] : []))
    expect(labels).toEqual(['Knock', 'Knock again', 'Bang', 'Bang'])
  })

  it('keeps its counters in variables under <file>:<section>~<k>@seq, the shuffle bag in @bag', async () => {
    const { run } = await play(v11({ 'story/a.sty': loop('{seq a|b} {shuffle x|y|z}') }), many(1), {
      seed: 1,
    })
    const vars = run.saveState().variables
    expect(vars['story/a.sty:loop~1@seq']).toBe(2)
    expect(vars['story/a.sty:loop~2@seq']).toBe(2)
    expect(vars['story/a.sty:loop~2@bag']).toHaveLength(1)
  })

  it('resumes mid-shuffle and mid-sequence exactly, by replay', async () => {
    const src = loop('{shuffle 1|2|3|4|5} {seq a|b|c|d|e|f|g} {cycle p|q|r} ${random(1, 99)}')
    const source = v11({ 'story/a.sty': src })
    const full = await play(source, many(12), { seed: 9 })
    const part = await play(source, many(5), { seed: 9 })
    const saved = JSON.parse(JSON.stringify(part.run.saveState())) as ReadingState
    const { run, diagnostics } = await resumeStoryRun(source, saved)
    expect(diagnostics).toEqual([])
    const rest = await play(run, many(7))
    const all = texts(full.events)
    expect([...texts(part.events), ...texts(rest.events)]).toEqual(all)
  })

  it('counts an alternative in a passage once for the passage, wherever it is inserted', async () => {
    const files = {
      'story/a.sty': '{use lib}\n# A [#a]\n{insert greet()}\n# B [#b]\n{insert greet()}\n+ again -> #a',
      'extensions/lib.xty': '{passage greet()}\n{cycle Hi|Hello|Hey}.\n{end}\n',
    }
    const { events, run } = await play(v11(files), many(1))
    expect(texts(events).filter((t) => t.startsWith('H'))).toEqual(['Hi.', 'Hello.', 'Hey.', 'Hi.'])
    expect(run.saveState().variables['extensions/lib.xty:greet~1@seq']).toBe(4)
  })

  it('a shuffle saved before an edit that removed items goes on with the items there are', async () => {
    const before = v11({ 'story/a.sty': loop('{shuffle a|b|c|d|e}') })
    const part = await play(before, many(1), { seed: 3 })
    const saved = part.run.saveState()
    saved.variables['story/a.sty:loop~1@bag'] = [4, 3]
    const after = v11({ 'story/a.sty': loop('{shuffle a|b|c}') })
    const { run, diagnostics } = await resumeStoryRun(after, saved)
    expect(diagnostics).toEqual([])
    const rest = await play(run, many(3))
    const shown = texts(rest.events).filter((t) => /^[a-e]$/.test(t))
    expect(shown).toHaveLength(3)
    expect([...shown].sort()).toEqual(['a', 'b', 'c'])
  })

  it('a once-only alternative past its last item stays silent after a resume', async () => {
    const source = v11({ 'story/a.sty': loop('{once only once|}') })
    const part = await play(source, many(3))
    const { run } = await resumeStoryRun(source, part.run.saveState())
    const rest = await play(run, many(1))
    expect(texts(rest.events)).toEqual(['Loop'])
  })
})

describe('read counts and turns (1.1)', () => {
  const files = {
    'story/a.sty': [
      '# Hub [#hub]',
      'H${visits(#hub)} A${visits(#spot)} G${visits(#menu)} O${visits(#knock)} T${turns()} S${turns(#hub)} M${turns(#menu)} K${turns(#knock)} B${visits(b.sty)} C${visits(b.sty:hall)} D${turns(b.sty:hall)} E${visits(b.sty:bell)}',
      '[#spot]',
      '[#menu]',
      '* Knock -> #hub [#knock]',
      '+ Wait -> #spot',
      '+ Leave',
      '  [[b.sty:hall]]',
    ].join('\n'),
    'story/b.sty': [
      '# Hall [#hall]',
      'In the hall: A${visits(a.sty:hub)} K${visits(a.sty:knock)} S${turns(a.sty:hub)}.',
      '+ Ring [#bell]',
      '  [[a.sty:hub]]',
    ].join('\n'),
  }

  it('counts anchors, group arrivals and option choices; reads other parts; counts turns', async () => {
    const { events } = await play(v11(files), ['knock', '2', '3', 'bell'])
    expect(texts(events).filter((t) => t !== 'Hub' && t !== 'Hall')).toEqual([
      'H1 A0 G0 O0 T0 S0 M-1 K-1 B0 C0 D-1 E0',
      // knock (turn 1): back at the hub
      'H2 A1 G1 O1 T1 S0 M1 K0 B0 C0 D-1 E0',
      // wait (turn 2) jumps to the anchor: the hub paragraph is not shown again; leave (turn 3)
      'In the hall: A2 K1 S2.',
      // ring (turn 4): back in a, entered twice now; the menu was last reached on turn 2
      'H3 A3 G3 O1 T4 S0 M2 K3 B1 C1 D1 E1',
    ])
  })

  it('counts an automatic fallback as no turn', async () => {
    const src =
      '# A [#a]\nT${turns()}\n* Go -> #b\n# B [#b]\n* {if false} never\n* -> #c\n# C [#c]\nT${turns()} S${turns(#b)}\n+ end -> END'
    const { events } = await play(v11({ 'story/a.sty': src }), ['1'])
    expect(texts(events)).toEqual(['A', 'T0', 'B', 'C', 'T1 S0'])
  })

  it('resumes with the same counts and turns', async () => {
    const source = v11(files)
    const full = await play(source, ['knock', '2', '3', 'bell', '2', '3'])
    const part = await play(source, ['knock', '2', '3'])
    const saved = JSON.parse(JSON.stringify(part.run.saveState())) as ReadingState
    expect(saved.variables['story/a.sty:spot@visits']).toBe(3)
    expect(saved.variables['story/a.sty:knock@turn']).toBe(1)
    const { run, diagnostics } = await resumeStoryRun(source, saved)
    expect(diagnostics).toEqual([])
    const rest = await play(run, ['bell', '2', '3'])
    expect([...texts(part.events), ...texts(rest.events)]).toEqual(texts(full.events))
  })

  it('adds no key to a 1.0 state: anchors, groups and options count nothing there', async () => {
    const src = '# Hub [#hub]\n[#spot]\n[#menu]\n* Knock -> #hub [#knock]\n+ Wait -> #spot'
    const { run } = await play(memorySource({ 'story/a.sty': src }), ['knock', '2'])
    expect(Object.keys(run.saveState().variables)).toEqual(['story/a.sty:hub@visits'])
    const at11 = await play(v11({ 'story/a.sty': src }), ['knock', '2'])
    expect(Object.keys(at11.run.saveState().variables).sort()).toEqual([
      'story/a.sty:hub@turn',
      'story/a.sty:hub@visits',
      'story/a.sty:knock@turn',
      'story/a.sty:menu@turn',
      'story/a.sty:menu@visits',
      'story/a.sty:spot@turn',
      'story/a.sty:spot@visits',
    ])
  })

  it('a 1.0 state resumes unchanged on the 1.0 story', async () => {
    const src = '# Hub [#hub]\nV${visits(#hub)}\n* Knock -> #hub [#knock]\n+ Wait -> #hub'
    const source = memorySource({ 'story/a.sty': src })
    const part = await play(source, ['knock'])
    const saved = part.run.saveState()
    const { run, diagnostics } = await resumeStoryRun(source, saved)
    expect(diagnostics).toEqual([])
    expect(run.saveState()).toEqual(saved)
  })

  it('turns() restarts from the recorded entries after a divergence', async () => {
    const source = v11(files)
    const part = await play(source, ['knock', '2'])
    const saved = part.run.saveState()
    saved.choices['story/a.sty:menu'] = ['nope']
    const { run, diagnostics } = await resumeStoryRun(source, saved)
    expect(diagnostics.map((d) => d.code)).toEqual(['story/resume-diverged'])
    const rest = await play(run, [])
    expect(texts(rest.events)[1]).toMatch(/ T1 /)
  })

  it('reports an id that is not there at play time as it does at 1.0', async () => {
    const run = createStoryRun(
      v11({ 'story/a.sty': '${visits(b.sty:nope)} ${visits(#nope)}', 'story/b.sty': 'B' }),
      {},
    )
    const ds: string[] = []
    for (let e = await run.next(); e; e = await run.next())
      if (e.type === 'diagnostic') ds.push(e.diagnostic.code)
    expect(ds).toContain('story/unknown-id')
  })
})
