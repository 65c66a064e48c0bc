/**
 * The @spkg/story side of `pnpm bench story`. Reports "not measured" while the interpreter's
 * `createStoryRun` is not exported yet.
 */
import type { EngineFigures } from './ink-side'

/** The spkg figures: the engine figures plus resume by replay and a typical state. */
export interface SpkgFigures extends EngineFigures {
  resumeMs: number
  typicalSaveMs: number
  typicalLoadMs: number
}

/** Plays the spkg story; rejects when the interpreter is not available. */
export async function runSpkg(
  _story: { part: string; module: string },
  _options: { warmup: number; choices: number; seed: number; replayChoices: number },
): Promise<SpkgFigures> {
  const mod = (await import('@spkg/story')) as Record<string, unknown>
  if (typeof mod.createStoryRun !== 'function') throw new Error('@spkg/story exports no createStoryRun yet')
  throw new Error('the spkg side is not wired to the interpreter yet')
}
