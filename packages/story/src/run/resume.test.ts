// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * Save at any pause and resume by replay (section 9): an interrupted reading continues exactly as
 * an uninterrupted one; an edited story degrades with `story/resume-diverged`, never a crash.
 */
import { fc, test } from '@fast-check/vitest'
import { parseReadingState, type ReadingState, type StorySourceLike } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { fromPause, live, memorySource, play } from '../../test/helpers/play.ts'
import { createStoryRun } from './create-story-run.ts'
import { resumeStoryRun } from './resume-story-run.ts'
import type { StoryEvent, StoryRun } from './types.ts'

const MARKET = `{set gold = 0}
{set luck = 0}
# Market [#market]
{local trips = 0}
{set trips += 1}
Trip \${trips}: you have \${gold} gold and roll \${d6}. The [forest > story/forest.sty:edge] waits.
[#stall]
* Work
  {set gold += random(1, 3)}
  You work.
* {if gold >= 2} Buy a charm #shop
  {set gold -= 2}
  {set luck += 1}
+ Gamble
  {if chance(0.5)}
  You win \${pick(["a coin", "a button"])}.
  {set gold += 1}
  {else}
  You lose.
  {end}
+ -> #market
Back to the square.
-> #market
`

const FOREST = `{set wolves = d3}
Trees.
## Edge [#edge]
\${wolves} wolves. Gold \${gold}. Run back to the [market > story/market.sty:market].
* Fight -> #edge
  {set wolves -= 1}
+ {if wolves <= 0} Rest -> END
+ Wait
  {call log.note("waited")}
  -> #edge
`

const FILES = { 'story/market.sty': MARKET, 'story/forest.sty': FOREST }
const PARTS = ['story/market.sty', 'story/forest.sty']
const source = (files: Record<string, string> = FILES) => memorySource(files, { parts: PARTS })
const host = { log: { note: () => null } }

/** Walks `run` answering pauses by `picks`; stops before answering pause number `stopAt`. */
async function walk(run: StoryRun, picks: number[], from: number, stopAt: number): Promise<StoryEvent[]> {
  const events: StoryEvent[] = []
  let i = from
  for (let e = await run.next(); e; e = await run.next()) {
    events.push(e)
    if (e.type !== 'pause' || e.replay) continue
    if (i >= stopAt || i >= picks.length) break
    const items = [...e.options.map((o) => ({ option: o.id })), ...e.links.map((l) => ({ link: l.target }))]
    run.choose(items[picks[i++]! % items.length]!)
  }
  return events
}

/** Answers the next pauses with `answers`, then runs to the following pause. */
async function answer(run: StoryRun, answers: Array<{ option: string } | { link: string }>): Promise<void> {
  for (const a of answers) {
    await walk(run, [], 0, 0)
    run.choose(a)
  }
  await walk(run, [], 0, 0)
}

/** Styles, links, media, a dynamic option label, sticky and fallback options, a loop. */
const STYLED = `{set coins = 3}
# Hall [#hall]
The **hall** is *quiet*; you hold \${coins} coins. Go to the [cellar > styled.sty:cellar].
![A lamp](lamp.png) #glow
* Pay \${coins} coins -> #hall
  {set coins -= 1}
+ {if coins < 2} Beg for a coin
  {set coins += random(1, 2)}
  -> #hall
+ Wait -> #hall
## Cellar [#cellar]
Dark. {if coins > 2}You **rest**.{else}You *shiver*.{end}
* {if coins > 0} Climb -> #hall
+ -> #hall
`

/** An event without its `replay` mark and its block's `seen` flag, as plain data. */
const plain = (e: StoryEvent) =>
  JSON.parse(JSON.stringify(e, (k, v) => (k === 'replay' || k === 'seen' ? undefined : v))) as unknown

describe('resume by replay', () => {
  test.prop([fc.array(fc.nat(20), { minLength: 1, maxLength: 40 }), fc.nat(0xffffffff), fc.nat(40)], {
    numRuns: 60,
  })('continues exactly like an uninterrupted reading', async (picks, seed, cut) => {
    const k = cut % (picks.length + 1)
    const whole = createStoryRun(source(), { seed, host })
    const all = await walk(whole, picks, 0, picks.length)
    const first = createStoryRun(source(), { seed, host })
    await walk(first, picks, 0, k)
    if (first.ended) return
    const text = JSON.stringify(first.saveState())
    const parsed = parseReadingState(JSON.parse(text), { storyId: 'test-story' })
    expect(parsed.diagnostics).toEqual([])
    const { run, diagnostics, scrollBack } = await resumeStoryRun(source(), parsed.state!, { host })
    expect(diagnostics).toEqual([])
    expect(scrollBack.every((b) => b.block.seen)).toBe(true)
    const rest = await walk(run, picks, k, picks.length)
    expect(live(rest)).toEqual(fromPause(all, k + 1))
    expect(run.saveState()).toEqual(whole.saveState())
  })

  test.prop(
    [fc.constantFrom('market', 'styled'), fc.array(fc.nat(20), { maxLength: 30 }), fc.nat(0xffffffff)],
    {
      numRuns: 60,
    },
  )('replays exactly the events and scroll-back that forward play produced', async (story, picks, seed) => {
    const src = () => (story === 'market' ? source() : memorySource({ 'story/styled.sty': STYLED }))
    const first = createStoryRun(src(), { seed, host })
    const forward = await walk(first, picks, 0, picks.length)
    if (first.ended) return
    const { run, diagnostics, scrollBack } = await resumeStoryRun(src(), first.saveState(), { host })
    expect(diagnostics).toEqual([])
    const replayed = await walk(run, [], 0, 0)
    // Every replayed event is marked; the saved pause comes last, live.
    expect(replayed.slice(0, -1).every((e) => e.replay === true)).toBe(true)
    expect(replayed.at(-1)).toMatchObject({ type: 'pause' })
    expect(replayed.at(-1)!.replay).toBeUndefined()
    expect(replayed.map(plain)).toEqual(forward.map(plain))
    // The scroll-back is the replayed block events themselves, all seen (saved after the last block).
    expect(scrollBack).toEqual(replayed.filter((e) => e.type === 'block'))
    expect(scrollBack.every((b, i) => b === replayed.filter((e) => e.type === 'block')[i])).toBe(true)
    expect(scrollBack.every((b) => b.block.seen === true)).toBe(true)
    expect(scrollBack.map((b) => plain(b))).toEqual(forward.filter((e) => e.type === 'block').map(plain))
  })

  it('replays the stream marked replay, then the saved pause live', async () => {
    const first = createStoryRun(source(), { seed: 3, host })
    await walk(first, [0, 1], 0, 2)
    const { run } = await resumeStoryRun(source(), first.saveState(), { host })
    const events = await walk(run, [], 0, 0)
    const last = events.at(-1)!
    expect(last.type).toBe('pause')
    expect(last.replay).toBeUndefined()
    expect(events.slice(0, -1).every((e) => e.replay)).toBe(true)
    expect(events[0]).toMatchObject({ type: 'part-entered', part: 'story/market.sty', replay: true })
  })

  it('skips {call} during replay', async () => {
    let calls = 0
    const counting = {
      log: {
        note: () => {
          calls++
          return null
        },
      },
    }
    const run = createStoryRun(source(), { seed: 3, host: counting })
    await answer(run, [{ link: 'story/forest.sty:edge' }, { option: '3' }, { option: '3' }])
    expect(calls).toBe(2)
    const { run: resumed } = await resumeStoryRun(source(), run.saveState(), { host: counting })
    await walk(resumed, [], 0, 0)
    expect(calls).toBe(2)
  })

  it('marks only the blocks the reader saw as seen, per part', async () => {
    const run = createStoryRun(source(), { seed: 3, host })
    await walk(run, [], 0, 0)
    run.choose({ link: 'story/forest.sty:edge' })
    await walk(run, [], 0, 0)
    const state = run.saveState()
    expect(state.currentPart).toBe('story/forest.sty')
    expect(state.visitedParts).toEqual(['story/market.sty'])
    expect(state.renderedParagraph).toBe(1)
    const { scrollBack } = await resumeStoryRun(source(), state, { host })
    expect(scrollBack.map((b) => [b.index, b.block.seen])).toEqual([
      [0, true],
      [1, true],
      [0, true],
      [1, true],
    ])
  })

  it('restores the saved variables and PRNG state over the replayed ones', async () => {
    const run = createStoryRun(source(), { seed: 11, host })
    await walk(run, [0], 0, 1)
    const state: ReadingState = { ...run.saveState(), variables: { ...run.saveState().variables, gold: 99 } }
    state.rng = { ...state.rng, state: 12345 }
    const { run: resumed } = await resumeStoryRun(source(), state, { host })
    await walk(resumed, [], 0, 0)
    expect(resumed.saveState().variables.gold).toBe(99)
    expect(resumed.saveState().rng.state).toBe(12345)
  })
})

describe('divergence', () => {
  async function savedAfterWork(): Promise<ReadingState> {
    const run = createStoryRun(source(), { seed: 5, host })
    await answer(run, [{ option: '1' }, { option: '3' }])
    return run.saveState()
  }

  it('degrades with story/resume-diverged when a recorded option is gone, restoring the state', async () => {
    const state = await savedAfterWork()
    expect(state.choices['story/market.sty:stall']).toEqual(['1', '3'])
    const edited = { ...FILES, 'story/market.sty': MARKET.replace('+ Gamble', '+ {if false} Gamble') }
    const { run, diagnostics, scrollBack } = await resumeStoryRun(source(edited), state, { host })
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([['story/resume-diverged', 'warning']])
    expect(scrollBack).toEqual([])
    const events = await walk(run, [], 0, 0)
    expect(events[0]).toMatchObject({ type: 'diagnostic', diagnostic: { code: 'story/resume-diverged' } })
    expect(events[1]).toMatchObject({ type: 'part-entered', part: 'story/market.sty' })
    const after = run.saveState()
    expect(after.choices).toEqual(state.choices)
    expect(after.visitedChoiceGroups).toEqual(state.visitedChoiceGroups)
    expect(after.variables.gold).toBe(state.variables.gold)
    expect(after.visitedParts).toEqual([])
    expect(after.currentPart).toBe('story/market.sty')
  })

  it('diverges when the part sequence no longer matches', async () => {
    const run = createStoryRun(source(), { seed: 5, host })
    await walk(run, [], 0, 0)
    run.choose({ link: 'story/forest.sty:edge' })
    await walk(run, [], 0, 0)
    const state = run.saveState()
    const edited = {
      ...FILES,
      'story/market.sty': MARKET.replace('story/forest.sty:edge', 'story/other.sty'),
    }
    const { diagnostics, run: r } = await resumeStoryRun(
      memorySource({ ...edited, 'story/other.sty': 'Other.' }, { parts: PARTS }),
      state,
      { host },
    )
    expect(diagnostics.map((d) => d.code)).toEqual(['story/resume-diverged'])
    const events = await walk(r, [], 0, 0)
    expect(events.find((e) => e.type === 'part-entered')).toMatchObject({ part: 'story/forest.sty' })
    expect(r.saveState().renderedParagraph).toBeGreaterThanOrEqual(0)
    expect(r.saveState().visitedParts).toEqual(['story/market.sty'])
  })

  it('gives up on a replay that loops without decisions instead of hanging', async () => {
    const src = memorySource({ 'x.sty': '# Hall [#hall]\n-> #hall' })
    const run = createStoryRun(src, { seed: 1 })
    for (let i = 0; i < 50; i++) await run.next()
    const { diagnostics } = await resumeStoryRun(src, run.saveState())
    expect(diagnostics.map((d) => d.code)).toEqual(['story/resume-diverged'])
  })

  it('never crashes on a state that does not belong to the story', async () => {
    const foreign: ReadingState = {
      format: 1,
      id: 'test-story',
      variables: { x: [1, { y: 'z' }] },
      choices: { 'nowhere.sty:g': ['7', '>mars.sty'] },
      visitedChoiceGroups: ['nowhere.sty:g'],
      rng: { algorithm: 'mulberry32', seed: 1, state: 2 },
      currentPart: 'story/gone.sty',
      visitedParts: ['story/market.sty'],
      renderedParagraph: 12,
    }
    const { run, diagnostics } = await resumeStoryRun(source(), foreign, { host })
    expect(diagnostics.map((d) => d.code)).toEqual(['story/resume-diverged'])
    const events = await walk(run, [], 0, 0)
    expect(events.map((e) => e.type)).toContain('end')
    expect(events.some((e) => e.type === 'diagnostic' && e.diagnostic.code === 'story/load-failed')).toBe(
      true,
    )
  })

  it('keeps variables the new version declares and the ones it removed', async () => {
    const state = await savedAfterWork()
    const edited = { ...FILES, 'story/market.sty': `{set fame = 1}\n${MARKET}` }
    const { run, diagnostics } = await resumeStoryRun(source(edited), state, { host })
    expect(diagnostics).toEqual([])
    await walk(run, [], 0, 0)
    const vars = run.saveState().variables
    expect(vars.fame).toBe(1)
    expect(vars.gold).toBe(state.variables.gold)
  })
})

describe('saveState', () => {
  it('is valid at every pause and after the end', async () => {
    const run = createStoryRun(source(), { seed: 8, host })
    for (let i = 0; i < 10; i++) {
      await walk(run, [i], 0, 0)
      expect(parseReadingState(run.saveState()).diagnostics).toEqual([])
      if (run.pause) run.choose({ option: run.pause.options[0]?.id ?? '' })
    }
    const single: StorySourceLike = memorySource({ 'x.sty': 'Hi.' })
    const { run: done } = await play(single, [], { seed: 1 })
    expect(done.ended).toBe(true)
    expect(parseReadingState(done.saveState()).diagnostics).toEqual([])
    expect(done.saveState().currentPart).toBeUndefined()
  })
})
