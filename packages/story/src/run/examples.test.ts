/**
 * The eight worked examples of STORY-LANGUAGE.md section 11, transcript for transcript.
 */
import { parseReadingState } from '@spkg/manifest'
import { E1, E2, E3, E4, E5, E6_MODULE, E6_PART, E8 } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { memorySource, play } from '../../test/helpers/play.ts'
import { E8_DIAGNOSTICS } from '../../test/helpers/worked-examples.ts'
import { resumeStoryRun } from './resume-story-run.ts'

describe('E1: blocks, tags, defaults, session', () => {
  it('plays transcript for transcript', async () => {
    const src = memorySource({ 'story/inn.sty': E1 }, { session: { name: 'mira', hard: true } })
    const { lines, events } = await play(src)
    expect(lines).toEqual([
      '== part story/inn.sty (part tags: theme:night)',
      '#0 heading1 "The Crooked Inn"',
      '#1 paragraph "Welcome, Mira. The fire is almost out.\\nYou carry 5 coins, which will not last." [mood:cold]',
      '#2 media image assets/inn.webp alt="The common room" [fullscreen]',
      '#3 paragraph "Half goes on a room; 2.5 left."',
      '-- end',
    ])
    const para = events.find((e) => e.type === 'block' && e.index === 1)
    expect(para?.type === 'block' && para.block.runs).toEqual([
      { text: 'Welcome, Mira. The fire is ' },
      { text: 'almost', em: true },
      { text: ' out.\nYou carry 5 coins, which will not last.' },
    ])
  })
})

describe('E2: once-only options, fallback, visits', () => {
  it('plays transcript for transcript and ends in the documented state', async () => {
    const { lines, run } = await play(memorySource({ 'platform.sty': E2 }), ['1', '2'])
    expect(lines).toEqual([
      '== part platform.sty',
      '#0 heading1 "Platform 9"',
      '#1 paragraph "You search for a friendly face."',
      '? [platform.sty:search@1] 1 "The woman in the hat" | 2 "The man with the briefcase"',
      '> 1',
      '#2 paragraph "She pushes you aside."',
      '#3 paragraph "You search for a friendly face. Attempt 2."',
      '? [platform.sty:search@1] 2 "The man with the briefcase"',
      '> 2',
      '#4 paragraph "You search for a friendly face. Attempt 3."',
      '(auto) 3',
      '#5 paragraph "You collapse onto the platform."',
      '-- end',
    ])
    const state = run.saveState()
    expect(state.choices).toEqual({ 'platform.sty:search@1': ['1', '2', '3'] })
    expect(state.variables['platform.sty:search@visits']).toBe(3)
    expect(state.currentPart).toBeUndefined()
    expect(state.visitedParts).toEqual([])
  })
})

describe('E3: guards, sticky options, explicit ids, a local', () => {
  it('plays transcript for transcript and ends in the documented state', async () => {
    const { lines, run } = await play(memorySource({ 'bar.sty': E3 }, { session: { gold: 1 } }), [
      'map',
      '3',
      '4',
    ])
    expect(lines).toEqual([
      '== part bar.sty',
      '#0 heading1 "The Bar"',
      '#1 paragraph "The barkeep polishes a glass."',
      '? [bar.sty:talk] map "Ask about the map" | 3 "Just listen" | 4 "Leave"',
      '> map',
      '#2 paragraph "\\"Lost it at cards,\\" she says."',
      '#3 paragraph "She turns away."',
      '? [bar.sty:talk] 3 "Just listen" | 4 "Leave"',
      '> 3',
      '#4 paragraph "She hums. She keeps glancing at you."',
      '#5 paragraph "She turns away."',
      '? [bar.sty:talk] 3 "Just listen" | 4 "Leave"',
      '> 4',
      '-- end',
    ])
    const state = run.saveState()
    expect(state.choices).toEqual({ 'bar.sty:talk': ['map', '3', '4'] })
    expect(state.variables['bar.sty:bar.asked']).toBe(1)
  })
})

describe('E4: rolls with seed 42', () => {
  it('draws bit for bit', async () => {
    const { lines, run } = await play(memorySource({ 'dice.sty': E4 }))
    expect(lines).toEqual([
      '== part dice.sty',
      '#0 paragraph "You swing and roll 7."',
      '#1 paragraph "86 damage."',
      '#2 paragraph "The troll grabs a club."',
      '-- end',
    ])
    expect(run.saveState().rng).toEqual({ algorithm: 'mulberry32', seed: 42, state: 567894515 })
  })
  it('lets the host seed beat {seed}', async () => {
    const { run } = await play(memorySource({ 'dice.sty': E4 }), [], { seed: 7 })
    expect(run.saveState().rng.seed).toBe(7)
  })
})

describe('E5: gate, links, a scene anchor, state', () => {
  const parts = Object.keys(E5)
  it('plays transcript for transcript, loading only the parts entered', async () => {
    const reads: string[] = []
    const src = memorySource(E5, { parts, reads })
    const { lines, run } = await play(src, ['>story/0003-forest.sty:edge'], { seed: 7 })
    expect(lines).toEqual([
      '== part story/0001-inn.sty',
      '#0 paragraph "Dawn. You settle your bill."',
      '== part story/0002-road.sty',
      '#0 heading1 "The Road"',
      '#1 paragraph "The road forks: the forest path or the river road."',
      '? [story/0002-road.sty:@end] link "forest path" → story/0003-forest.sty:edge | link "river road" → story/0003-forest.sty',
      '> link story/0003-forest.sty:edge',
      '== part story/0003-forest.sty:edge',
      '#0 heading2 "Forest Edge"',
      '#1 paragraph "2 wolves watch you. You have 2 coins."',
      '? [story/0003-forest.sty:edge@1] 1 "Run"',
    ])
    expect(reads).toEqual(parts)
    const { id: _id, format: _f, ...state } = run.saveState()
    expect(state).toEqual({
      variables: {
        gold: 2,
        wolves: 2,
        'story/0003-forest.sty:edge@visits': 1,
        'story/0002-road.sty:road@visits': 1,
      },
      choices: { 'story/0002-road.sty:@end': ['>story/0003-forest.sty:edge'] },
      visitedChoiceGroups: ['story/0002-road.sty:@end', 'story/0003-forest.sty:edge@1'],
      rng: { algorithm: 'mulberry32', seed: 7, state: 7 },
      currentPart: 'story/0003-forest.sty',
      visitedParts: ['story/0001-inn.sty', 'story/0002-road.sty'],
      renderedParagraph: 1,
    })
    expect(parseReadingState(run.saveState()).diagnostics).toEqual([])
  })
  it('gives the link runs their targets', async () => {
    const { events } = await play(memorySource(E5, { parts }), [], { seed: 7 })
    const road = events.find((e) => e.type === 'block' && e.block.text.startsWith('The road'))
    expect(road?.type === 'block' && road.block.runs.filter((r) => r.link)).toEqual([
      { text: 'forest path', link: 'story/0003-forest.sty:edge' },
      { text: 'river road', link: 'story/0003-forest.sty' },
    ])
  })
  it('never reads a part the reader does not enter', async () => {
    const reads: string[] = []
    await play(memorySource(E5, { parts, reads }), [], { seed: 7 })
    expect(reads).toEqual(['story/0001-inn.sty', 'story/0002-road.sty'])
  })
})

describe('E6: a module', () => {
  it('plays transcript for transcript', async () => {
    const src = memorySource({ 'extensions/combat.xty': E6_MODULE, 'duel.sty': E6_PART })
    const { lines } = await play(src)
    expect(lines).toEqual([
      '== part duel.sty',
      '#0 paragraph "The duel begins."',
      '#1 paragraph "You: [10/10]"',
      '#2 paragraph "You: [7/10]"',
      '#3 paragraph "You: [3/10] (bleeding)"',
      '-- end',
    ])
  })
})

describe('E7: resume after an edit', () => {
  it('resumes at the second arrival with the corrected text and no divergence', async () => {
    const src = memorySource({ 'bar.sty': E3 }, { session: { gold: 1 } })
    const { run } = await play(src, ['map'])
    const saved = run.saveState()
    expect(saved.choices).toEqual({ 'bar.sty:talk': ['map'] })
    expect(saved.renderedParagraph).toBe(3)
    const edited = memorySource(
      { 'bar.sty': E3.replace('She turns away.', 'She turns aside.') },
      { session: { gold: 1 } },
    )
    const { run: resumed, scrollBack, diagnostics } = await resumeStoryRun(edited, saved)
    expect(diagnostics).toEqual([])
    expect(scrollBack.map((b) => [b.index, b.block.text, b.block.seen])).toEqual([
      [0, 'The Bar', true],
      [1, 'The barkeep polishes a glass.', true],
      [2, '"Lost it at cards," she says.', true],
      [3, 'She turns aside.', true],
    ])
    const { lines } = await play(resumed, ['3'])
    expect(lines).toEqual([
      '== part bar.sty',
      '#0 heading1 "The Bar"',
      '#1 paragraph "The barkeep polishes a glass."',
      '? [bar.sty:talk] map "Ask about the map" | 3 "Just listen" | 4 "Leave"',
      '> map',
      '#2 paragraph "\\"Lost it at cards,\\" she says."',
      '#3 paragraph "She turns aside."',
      '? [bar.sty:talk] 3 "Just listen" | 4 "Leave"',
      '> 3',
      '#4 paragraph "She hums. She keeps glancing at you."',
      '#5 paragraph "She turns aside."',
      '? [bar.sty:talk] 3 "Just listen" | 4 "Leave"',
    ])
  })
  it('an option inserted above implicit ids shifts them; explicit [#map] keeps its meaning', async () => {
    const src = memorySource({ 'bar.sty': E3 }, { session: { gold: 1 } })
    const { run } = await play(src, ['map'])
    const inserted = E3.replace(
      '* Ask about the map [#map]',
      '* Whistle\n  You whistle.\n* Ask about the map [#map]',
    )
    const { run: resumed, diagnostics } = await resumeStoryRun(
      memorySource({ 'bar.sty': inserted }, { session: { gold: 1 } }),
      run.saveState(),
    )
    expect(diagnostics).toEqual([])
    const { events } = await play(resumed)
    const last = events.filter((e) => e.type === 'pause').at(-1)
    expect(last?.type === 'pause' && last.options.map((o) => o.id)).toEqual(['1', '4', '5'])
    expect(last?.type === 'pause' && last.replay).toBeUndefined()
  })
})

describe('E8: diagnostics', () => {
  it('reports the parse problems of the part it enters, then plays what it can', async () => {
    const { events } = await play(memorySource({ 'bad.sty': E8 }), [])
    const diags = events.flatMap((e) => (e.type === 'diagnostic' ? [e.diagnostic] : []))
    expect(diags.slice(0, 7).map((d) => `${d.path}:${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual(
      E8_DIAGNOSTICS,
    )
    expect(events.at(-1)?.type).toBe('end')
  })
})
