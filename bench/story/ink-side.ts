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

/**
 * Compiles and plays the ink story: `warmup` choices untimed, then `choices` timed, then times
 * `state.ToJson()` and `state.LoadJson()` of the state reached (after warm-up plus timed choices).
 */
export function runInk(source: string, options: { warmup: number; choices: number; seed: number }) {
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
  const pick = mulberry32(options.seed)

  let blocks = 0
  let chars = 0
  let made = 0
  const play = (count: number) => {
    for (let n = 0; n < count; n++) {
      while (story.canContinue) {
        const line = story.Continue() ?? ''
        blocks++
        chars += line.length
      }
      const offered = story.currentChoices.length
      if (offered === 0) throw new Error('the ink story ended')
      story.ChooseChoiceIndex(Math.floor((pick() * offered) / 2 ** 32))
      made++
    }
  }
  play(options.warmup)
  blocks = 0
  chars = 0
  made = 0
  t0 = performance.now()
  play(options.choices)
  const playMs = performance.now() - t0

  const saved = story.state.ToJson()
  const saveMs = meanMs(50, () => story.state.ToJson())
  const loadStateMs = meanMs(50, () => story.state.LoadJson(saved))

  // A typical state: 300 choices into a fresh story.
  story.ResetState()
  play(300)
  const typical = story.state.ToJson()
  const typicalSaveMs = meanMs(500, () => story.state.ToJson())
  const typicalLoadMs = meanMs(500, () => story.state.LoadJson(typical))
  return {
    engine: 'inkjs 2.4.0',
    compileMs,
    loadMs,
    blocks,
    choices: made,
    playMs,
    blocksPerSecond: (blocks / playMs) * 1000,
    choicesPerSecond: (made / playMs) * 1000,
    saveBytes: saved.length,
    saveMs,
    loadStateMs,
    chars,
    typicalBytes: typical.length,
    typicalSaveMs,
    typicalLoadMs,
  } satisfies EngineFigures
}
