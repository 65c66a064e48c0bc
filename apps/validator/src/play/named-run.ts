/**
 * `spkg play` of a minified package speaks the author's names: the run's events (heading ids,
 * link targets, decision keys, scenes, diagnostics) are told with the original names of the
 * package's names map, and a link answered by its original target (`--choose
 * '>story/0003-forest.sty:edge'`) reaches the minified one. Saved states already use the original
 * names (the engine does that with `source.names`).
 */
import {
  type NamesMap,
  type PauseEvent,
  type StoryAnswer,
  type StoryRun,
  translateEventNames,
} from '@spkg/story'

/** A link target in the minified build's names (through a `chosen` event, which holds one). */
function minifiedTarget(target: string, names: NamesMap): string {
  const e = translateEventNames(
    { type: 'chosen', option: `>${target}`, key: '', text: '', tags: [] },
    names,
    'minified',
  )
  return e.type === 'chosen' ? e.option.slice(1) : target
}

/**
 * `run` told with the original names of `names`.
 *
 * @example
 * const run = source.names ? withOriginalNames(createStoryRun(source), source.names) : createStoryRun(source)
 */
export function withOriginalNames(run: StoryRun, names: NamesMap): StoryRun {
  return {
    next: async () => {
      const e = await run.next()
      return e && translateEventNames(e, names, 'original')
    },
    choose: (answer: StoryAnswer) =>
      run.choose('link' in answer ? { link: minifiedTarget(answer.link, names) } : answer),
    saveState: () => run.saveState(),
    get ended() {
      return run.ended
    },
    get pause() {
      const p = run.pause
      return p && (translateEventNames(p, names, 'original') as PauseEvent)
    },
    get progress() {
      return run.progress
    },
  }
}
