/**
 * The inkjs side of `pnpm bench story`: compiles the generated ink story with inkjs's own
 * compiler, loads the JSON into a fresh `Story` and walks it with a seeded random walker.
 */
import { Compiler, Story } from 'inkjs/full'
import { mulberry32 } from './generate'

/** What one engine measured; the spkg side fills the same shape. */
export interface EngineFigures {
  engine: string
  compileMs: number
  loadMs: number
  blocks: number
  choices: number
  playMs: number
  blocksPerSecond: number
  choicesPerSecond: number
  saveBytes: number
  saveMs: number
  loadStateMs: number
  /** A check value: total characters of text seen while timing (both engines print similar text). */
  chars: number
  /** A typical state: 300 choices into a fresh run. */
  typicalBytes: number
  typicalSaveMs: number
  typicalLoadMs: number
}

/** Mean time of `fn` over `runs` calls, after a few warm-up calls. */
export function meanMs(runs: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(20, runs); i++) fn()
  const t0 = performance.now()
  for (let i = 0; i < runs; i++) fn()
  return (performance.now() - t0) / runs
}

/** One engine under test: timed play in slices (so both engines share the machine's load), then figures. */
export interface EngineSide<F extends EngineFigures = EngineFigures> {
  /** Plays `count` choices; `timed` adds them to the measured totals. */
  play(count: number, timed: boolean): Promise<void>
  /** Save/load (and other) figures at the current position, with the play totals. */
  figures(): Promise<F>
}

/** Compiles the ink story with inkjs's compiler and loads it into a fresh `Story`. */
export function createInkSide(source: string, seed: number): EngineSide {
  let t0 = performance.now()
  const compiler = new Compiler(source)
  const compiled = compiler.Compile()
  if (compiler.errors.length > 0) throw new Error(`ink does not compile: ${compiler.errors.join('\n')}`)
  const json = compiled.ToJson()
  if (!json) throw new Error('ink produced no JSON')
  const compileMs = performance.now() - t0
  t0 = performance.now()
  const story = new Story(json)
  const loadMs = performance.now() - t0
  const pick = mulberry32(seed)
  const totals = { blocks: 0, chars: 0, made: 0, ms: 0 }

  const walk = (count: number) => {
    let blocks = 0
    let chars = 0
    for (let n = 0; n < count; n++) {
      while (story.canContinue) {
        const line = story.Continue() ?? ''
        blocks++
        chars += line.length
      }
      const offered = story.currentChoices.length
      if (offered === 0) throw new Error('the ink story ended')
      story.ChooseChoiceIndex(Math.floor((pick() * offered) / 2 ** 32))
    }
    return { blocks, chars }
  }
  return {
    async play(count, timed) {
      const t = performance.now()
      const r = walk(count)
      if (!timed) return
      totals.ms += performance.now() - t
      totals.blocks += r.blocks
      totals.chars += r.chars
      totals.made += count
    },
    async figures() {
      while (story.canContinue) story.Continue()
      const saved = story.state.ToJson()
      const saveMs = meanMs(50, () => story.state.ToJson())
      const loadStateMs = meanMs(50, () => story.state.LoadJson(saved))
      // A typical state: 300 choices into a fresh story.
      story.ResetState()
      walk(300)
      const typical = story.state.ToJson()
      const typicalSaveMs = meanMs(500, () => story.state.ToJson())
      const typicalLoadMs = meanMs(500, () => story.state.LoadJson(typical))
      return {
        engine: 'inkjs 2.4.0',
        compileMs,
        loadMs,
        blocks: totals.blocks,
        choices: totals.made,
        playMs: totals.ms,
        blocksPerSecond: (totals.blocks / totals.ms) * 1000,
        choicesPerSecond: (totals.made / totals.ms) * 1000,
        saveBytes: saved.length,
        saveMs,
        loadStateMs,
        chars: totals.chars,
        typicalBytes: typical.length,
        typicalSaveMs,
        typicalLoadMs,
      }
    },
  }
}
