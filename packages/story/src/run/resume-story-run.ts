/**
 * `resumeStoryRun`: resume by replay (STORY-LANGUAGE.md section 9). The story is replayed from the
 * entry part with the recorded choices; the saved variables and PRNG state then overwrite the
 * replayed ones. A story edited so that the record no longer fits degrades to re-entering the
 * current part with `story/resume-diverged`.
 */
import { createDiagnostic, type ReadingState, type StorySourceLike } from '@spkg/manifest'
import { translateStateNames } from '../minify/state-names.ts'
import { Machine } from './machine.ts'
import type { BlockEvent, ResumeResult, StoryRunOptions } from './types.ts'
import { fromJson, fromStateJson } from './values.ts'
import type { ReplayHooks } from './vm.ts'

class Replay implements ReplayHooks {
  diverged = false
  stopped = false
  /** Per decision key: its recorded entries and the next one to apply (one lookup per decision). */
  private readonly cursor = new Map<string, { list: string[]; i: number }>()
  private used = 0
  private readonly total: number
  private parts = 0
  private readonly expected: string[]

  constructor(
    private readonly state: ReadingState,
    entry: string,
  ) {
    let n = 0
    for (const k of Object.keys(state.choices)) {
      const list = state.choices[k]!
      n += list.length
      this.cursor.set(k, { list, i: 0 })
    }
    this.total = n
    this.expected = [...state.visitedParts, state.currentPart ?? entry]
  }

  private take(key: string): string | undefined {
    const c = this.cursor.get(key)
    if (!c || c.i >= c.list.length) return undefined
    this.used++
    return c.list[c.i++]
  }

  onPause(key: string): string | undefined {
    return this.take(key)
  }

  onAuto(key: string, id: string): boolean {
    return this.take(key) === id
  }

  onEnter(path: string): boolean {
    // A single-part story records no parts: any re-entry of the one part is fine.
    if (this.state.currentPart === undefined) return true
    return this.expected[this.parts++] === path
  }

  /** True when the replay stopped where the state was saved. */
  complete(current: string | undefined): boolean {
    if (this.diverged || this.used !== this.total) return false
    if (this.state.currentPart === undefined) return true
    return this.parts === this.expected.length && current === this.state.currentPart
  }
}

/** Replays at most this many events; beyond, a (probably edited) story is treated as diverged. */
const MAX_REPLAY_EVENTS = 5_000_000

/**
 * Resumes a saved reading. The returned run first yields the replayed events (marked
 * `replay: true`), then the pause the reader saved at, live. `scrollBack` holds the replayed
 * blocks; those up to `renderedParagraph` of the current part (and all of earlier parts) carry
 * `seen: true`. Never throws for a state that no longer fits the story: it reports
 * `story/resume-diverged` (warning) and re-enters the current part at its start.
 *
 * @param source - the same story source `createStoryRun` takes
 * @param state - a state from `saveState()`, validated by `parseReadingState`
 * @param options - `host` and `session` as for `createStoryRun`; the seed comes from the state
 * @example
 * const { run, scrollBack } = await resumeStoryRun(source, state)
 * for (const b of scrollBack) show(b.block, { animate: !b.block.seen })
 */
export async function resumeStoryRun(
  source: StorySourceLike,
  state: ReadingState,
  options: StoryRunOptions = {},
): Promise<ResumeResult> {
  if (source.names) state = translateStateNames(state, source.names, 'minified')
  const opts = { ...options, seed: state.rng.seed }
  const m = new Machine(source, opts)
  const replay = new Replay(state, source.parts[0] ?? '')
  m.replay = replay
  m.replaying = true
  m.replayed = []
  m.maxEvents = MAX_REPLAY_EVENTS
  try {
    await m.advance()
  } catch {
    replay.diverged = true
  }
  const current = m.entered[m.entered.length - 1]
  const ok =
    !replay.diverged &&
    (m.ended || replay.stopped) &&
    replay.complete(current) &&
    sameTunnels(m.tunnels, state.tunnels)
  if (ok) {
    m.replay = undefined
    m.replaying = false
    m.maxEvents = Infinity
    const replayed = m.replayed ?? []
    m.replayed = undefined
    restoreVariables(m, state)
    m.rng.state = state.rng.state
    if (m.pause) delete m.pause.replay
    const scrollBack = markSeen(replayed, m.replayedEntry, state.renderedParagraph)
    return { run: m, scrollBack, diagnostics: [] }
  }
  const d = createDiagnostic(
    'story/resume-diverged',
    'the story changed since this reading was saved; play restarts at the beginning of the current part',
  )
  const fresh = new Machine(source, opts)
  fresh.queue.length = 0
  // the set declarations the replay met, to read saved sets back
  fresh.setDecls = m.setDecls
  restoreVariables(fresh, state)
  fresh.rng.state = state.rng.state
  fresh.restoreDecisions(state)
  fresh.queue.push({ type: 'diagnostic', diagnostic: d })
  const entry = state.currentPart ?? source.parts[0]
  if (entry !== undefined) fresh.enterNext(entry, state.visitedParts.slice())
  return { run: fresh, scrollBack: [], diagnostics: [d] }
}

/** The open tunnels the replay rebuilt are the saved ones (1.1; a state without `tunnels` has none open). */
function sameTunnels(rebuilt: ReadonlyArray<{ id: string }>, saved: readonly string[] = []): boolean {
  return rebuilt.length === saved.length && rebuilt.every((t, i) => t.id === saved[i])
}

function restoreVariables(m: Machine, state: ReadingState): void {
  for (const k of Object.keys(state.variables)) {
    const v = m.v11 ? fromStateJson(state.variables[k], m.setDecls) : fromJson(state.variables[k])
    if (v !== undefined) m.vars.set(k, v)
  }
}

/**
 * Replayed blocks arrive marked seen; only those of the current part (from `entry` on) after the
 * saved point are new. Returns the scroll-back: the replayed block events themselves, in order.
 */
function markSeen(replayed: BlockEvent[], entry: number, rendered: number): BlockEvent[] {
  for (let i = entry; i < replayed.length; i++) {
    const e = replayed[i]!
    if (e.index > rendered) delete e.block.seen
  }
  return replayed
}
