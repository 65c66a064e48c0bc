/**
 * `createStoryRun`: starts playing a story from its entry part.
 */

import type { StorySourceLike } from '@spkg/manifest'
import { Machine } from './machine.ts'
import type { StoryRun, StoryRunOptions } from './types.ts'

/**
 * Creates a run of a story. Nothing is loaded until the first `next()`; parts are read through
 * `source.readPart` only when entered. Runtime problems arrive as `diagnostic` events and never
 * stop play.
 *
 * @param source - the parts in play order, a loader, modules and session values
 * @param options - `seed` (beats `{seed N}`), `host` functions for `{call}`, `session` values
 * @returns a run: pull events with `next()`, answer each `pause` with `choose()`
 * @example
 * const run = createStoryRun({ parts: ['inn.sty'], readPart: () => '# Inn\n* Stay\n* Leave' }, { seed: 1 })
 * for (let e = await run.next(); e; e = await run.next()) {
 *   if (e.type === 'block') console.log(e.block.text)
 *   if (e.type === 'pause') run.choose({ option: e.options[0]!.id })
 * }
 */
export function createStoryRun(source: StorySourceLike, options: StoryRunOptions = {}): StoryRun {
  return new Machine(source, options)
}
