/**
 * The @spkg/story side of `pnpm bench story`: the same seeded walker as the ink side, through the
 * interpreter's pull loop (`createStoryRun`, `next()`, `choose()`), then save/load of the state
 * through `@spkg/state` and resume by replay (`resumeStoryRun`).
 */
import { parseReadingStateText } from '@spkg/manifest'
import { serializeReadingState } from '@spkg/state'
import { createStoryRun, resumeStoryRun, type StoryRun } from '@spkg/story'
import { mulberry32, spkgBenchSource } from './generate'
import { type EngineFigures, type EngineSide, meanMs } from './ink-side'

/** The spkg figures: the engine figures plus resume by replay and a typical state. */
export interface SpkgFigures extends EngineFigures {
  /** `resumeStoryRun` of the recorded choices plus draining the replayed events. */
  resumeMs: number
  resumeChoices: number
  /** A fresh start (create the run, pull the first event: parse and compile the part), for comparison. */
  startMs: number
}

/** The walker: plays `count` choices, answering each pause uniformly at random. */
async function walk(run: StoryRun, pick: () => number, count: number) {
  // At a pause left by the previous slice, next() returns that pause again.
  let blocks = 0
  let chars = 0
  let made = 0
  while (made < count) {
    const ev = await run.next()
    if (ev === undefined || ev.type === 'end') throw new Error('the spkg story ended')
    if (ev.type === 'block') {
      blocks++
      chars += ev.block.text.length
    } else if (ev.type === 'pause') {
      const options = ev.options
      const n = Math.floor((pick() * options.length) / 2 ** 32)
      run.choose({ option: options[n]?.id ?? '' })
      made++
    } else if (ev.type === 'diagnostic') {
      throw new Error(`diagnostic during the bench: ${JSON.stringify(ev)}`)
    }
  }
  // Stop at the next pause so the state is saved at a pause.
  for (;;) {
    const ev = await run.next()
    if (ev?.type === 'block') blocks++
    if (ev === undefined || ev.type === 'pause') break
  }
  return { blocks, chars, made }
}

/** Starts the spkg story (parse and compile of the part happen at the first event). */
export async function createSpkgSide(
  story: { part: string; module: string; lang?: string },
  seed: number,
  replayChoices: number,
): Promise<EngineSide<SpkgFigures> & { measureResume(): Promise<void> }> {
  const source = spkgBenchSource(story)
  let t0 = performance.now()
  const run = createStoryRun(source, {})
  const first = await run.next()
  const compileMs = performance.now() - t0
  if (first?.type === 'diagnostic') throw new Error(`diagnostic at start: ${JSON.stringify(first)}`)
  const pick = mulberry32(seed)
  const totals = { blocks: 0, chars: 0, made: 0, ms: 0 }

  let resume = { resumeMs: Number.NaN, startMs: Number.NaN }
  return {
    /** Times resume by replay; the bench calls it first, before inkjs fills the heap. */
    async measureResume() {
      // Resume by replay of the recorded choices: resumeStoryRun plus draining the replayed events.
      const replayRun = createStoryRun(source, {})
      await walk(replayRun, mulberry32(seed + 2), replayChoices)
      const replayState = replayRun.saveState()
      const resumeOnce = async () => {
        const { run: resumed } = await resumeStoryRun(source, replayState)
        for (;;) {
          const ev = await resumed.next()
          if (ev === undefined || (ev.type === 'pause' && !ev.replay)) break
        }
      }
      await resumeOnce()
      const runs = 5
      t0 = performance.now()
      for (let i = 0; i < runs; i++) await resumeOnce()
      const resumeMs = (performance.now() - t0) / runs
      t0 = performance.now()
      for (let i = 0; i < runs; i++) await createStoryRun(source, {}).next()
      const startMs = (performance.now() - t0) / runs

      resume = { resumeMs, startMs }
    },
    async play(count, timed) {
      const t = performance.now()
      const r = await walk(run, pick, count)
      if (!timed) return
      totals.ms += performance.now() - t
      totals.blocks += r.blocks
      totals.chars += r.chars
      totals.made += r.made
    },
    async figures() {
      const text = serializeReadingState(run.saveState())
      const saveMs = meanMs(50, () => serializeReadingState(run.saveState()))
      const loadStateMs = meanMs(50, () => parseReadingStateText(text))

      // A typical state: 300 choices into a fresh run.
      const typicalRun = createStoryRun(source, {})
      await walk(typicalRun, mulberry32(seed + 1), 300)
      const typicalText = serializeReadingState(typicalRun.saveState())
      const typicalSaveMs = meanMs(500, () => serializeReadingState(typicalRun.saveState()))
      const typicalLoadMs = meanMs(500, () => parseReadingStateText(typicalText))

      return {
        engine: '@spkg/story',
        compileMs,
        loadMs: 0,
        blocks: totals.blocks,
        choices: totals.made,
        playMs: totals.ms,
        blocksPerSecond: (totals.blocks / totals.ms) * 1000,
        choicesPerSecond: (totals.made / totals.ms) * 1000,
        saveBytes: text.length,
        saveMs,
        loadStateMs,
        chars: totals.chars,
        ...resume,
        resumeChoices: replayChoices,
        typicalBytes: typicalText.length,
        typicalSaveMs,
        typicalLoadMs,
      }
    },
  }
}
