/**
 * Pauses and decisions: what the machine does when it reaches a choice group (guards, once-only
 * filtering, fallbacks), opens a pause, takes an answer (an option or a live link, also the
 * recorded one while replaying), and the reading state built from the decisions taken. The hot
 * loop in machine.ts calls {@link arrive} and {@link openPause}; `choose` and `saveState` of the
 * run call the rest. Internal.
 */
import { createDiagnostic, type Diagnostic, type ReadingState, type StorySourceLike } from '@spkg/manifest'
import type { CGroupIf, COption, Instr, Op, ThreadGather, TunnelFrame } from './code.ts'
import { render, renderPlain } from './render.ts'
import type { PauseEvent, PauseLink, PauseOption, StoryAnswer, StoryEvent } from './types.ts'
import { toJson, truthy } from './values.ts'
import type { ReplayHooks, Vm } from './vm.ts'

/** Decision records longer than this get a set of their chosen ids for once-only filtering. */
const USED_SET_AFTER = 16

/** The owners of a pause's options when no thread joined it: none. */
const NO_THREADS: Array<ThreadGather | undefined> = []

/** The links of a pause that offers none: one shared, frozen array (events are read-only). */
const NO_LINKS: PauseLink[] = Object.freeze([]) as unknown as PauseLink[]

/** The machine state decisions read and change (the machine implements it). */
export interface DecisionState extends Vm {
  readonly source: StorySourceLike
  /** Queued events; `next()` returns them from `qh` on. */
  queue: StoryEvent[]
  qh: number
  /** The open pause, if any. */
  pause: PauseEvent | undefined
  /** The compiled options of the open pause, in the order of `pause.options`. */
  pauseOptions: COption[]
  /** Scratch list of the options a group offers at an arrival (copied only when the pause stays open). */
  readonly offered: COption[]
  /** The live links gathered since the last decision. */
  links: PauseLink[]
  /** The options threads (1.1) gathered since the last decision, for the next pause. */
  threadOpts: ThreadGather[]
  /** Per option of the open pause: the thread that offered it, or `undefined` for the pause's own (empty: no thread). */
  pauseThreads: Array<ThreadGather | undefined>
  /** The open tunnels (1.1), outermost first. */
  tunnels: TunnelFrame[]
  /** The chosen ids of decision keys with long records (see {@link arrive}); short records are searched. */
  readonly used: Map<string, Set<string>>
  visitedList: string[]
  /** Every part entry in order; the last is the current part. */
  entered: string[]
  lastIndex: number
  replay: ReplayHooks | undefined
  /** The next instruction. */
  pc: number
  /** The part to enter next. */
  pending: { target: string; initial: boolean } | undefined
  /** Steps since the last block, pause or part entry. */
  idle: number
  /** Blocks since the last decision or part entry while replaying. */
  sinceDecision: number
  /** Blocks since the last pause (a loop that shows text and never pauses is endless). */
  sincePause: number
  emitDiagnostic(d: Diagnostic): void
  /** 1.1: the paragraph held open for glue, if any (a pause emits it first). */
  held: unknown
  /** Emits the held paragraph. */
  flushPara(): void
  /** The story is read at 1.1. */
  readonly v11: boolean
}

/** Marks a choice group (or a part's `@end`) visited. */
export function visit(m: DecisionState, key: string): void {
  if (m.visited.has(key)) return
  m.visited.add(key)
  m.visitedList.push(key)
}

/**
 * Arrives at a choice group: runs every guard, drops once-only options already taken, then opens a
 * pause, takes the fallback, or reports an exhausted group and goes on after it.
 */
export function arrive(m: DecisionState, ins: Extract<Instr, { op: typeof Op.GROUP }>): void {
  const key = ins.key
  visit(m, key)
  countArrival(m, ins)
  // Once-only filtering: a short record is searched, a long one (a loop) gets a set, kept up to date by `record`.
  const list = m.choices.get(key)
  let used: Set<string> | undefined
  if (list !== undefined && list.length > USED_SET_AFTER) {
    used = m.used.get(key)
    if (used === undefined) {
      used = new Set(list)
      m.used.set(key, used)
    }
  }
  let fallback: COption | undefined
  // Guards run in source order for every option (they may draw rolls or call functions).
  // Filled by index and cut to length at the end: `length = 0` would give up its room, and every
  // arrival would allocate it again.
  const offered = m.offered
  let count = 0
  const ifs = ins.ifs && new GroupIfs(m, ins.ifs)
  const options = ins.options
  for (let i = 0; i < options.length; i++) {
    const o = options[i]!
    if (ifs && !ifs.holds(o, i)) continue
    if (o.guard && !truthy(o.guard(m))) continue
    if (!o.sticky && list !== undefined && (used ? used.has(o.id) : list.includes(o.id))) continue
    if (o.fallback) fallback ??= o
    else offered[count++] = o
  }
  if (offered.length !== count) offered.length = count
  ifs?.finish()
  if (offered.length || (m.threadOpts.length && othersThreads(m, key))) {
    openPause(m, key, offered)
    return
  }
  if (fallback) {
    if (m.replay && !m.replay.onAuto(key, fallback.id)) {
      m.replay.diverged = true
      return
    }
    select(m, key, fallback, '', true)
    return
  }
  m.report(
    'story/exhausted-group',
    `no option of the group '${key}' is available; the story goes on after it`,
    m.curFile,
  )
  m.pc = ins.after
}

/** Counts an arrival at a named group (1.1: `visits(#group)`, `turns(#group)`). */
function countArrival(m: DecisionState, ins: Extract<Instr, { op: typeof Op.GROUP }>): void {
  const visitsKey = ins.visitsKey
  if (visitsKey === undefined) return
  m.vars.set(visitsKey, ((m.vars.get(visitsKey) as number | undefined) ?? 0) + 1)
  m.vars.set(ins.turnKey!, m.turns)
}

/**
 * The 1.1 block `{if}`s among a group's options at one arrival: each `{if}`'s conditions run in
 * source order with the options' guards (they may roll), and `taken` is the branch each takes
 * (-1: `{else}`, -2: not reached).
 */
class GroupIfs {
  private readonly taken: number[] = []
  private next = 0
  constructor(
    private readonly m: DecisionState,
    private readonly ifs: readonly CGroupIf[],
  ) {}

  /** Whether option `o`, the `i`-th of the group, stands in a branch that holds (or in none). */
  holds(o: COption, i: number): boolean {
    const { ifs, taken } = this
    while (this.next < ifs.length && ifs[this.next]!.at <= i)
      taken.push(branchOf(this.m, ifs[this.next++]!, taken))
    return o.under === undefined || taken[o.under] === o.branch
  }

  /** Runs the conditions of the `{if}`s after the last option, still in source order. */
  finish(): void {
    const { ifs, taken } = this
    while (this.next < ifs.length) taken.push(branchOf(this.m, ifs[this.next++]!, taken))
  }
}

/** The branch a group's block `{if}` takes at an arrival: its first condition that holds, -1 for none (`{else}`), -2 when the branch around it was not taken. */
function branchOf(m: DecisionState, f: CGroupIf, taken: readonly number[]): number {
  if (f.parent >= 0 && taken[f.parent] !== f.parentBranch) return -2
  for (let i = 0; i < f.conds.length; i++) if (truthy(f.conds[i]!(m))) return i
  return -1
}

/**
 * A thread (1.1) reached its first group: its options (guards run, once-only ones already taken
 * dropped; a fallback is not offered) wait for the next pause, with the tunnels open where the
 * thread started. A group already gathered for that pause is not gathered twice.
 */
export function gatherThread(
  m: DecisionState,
  ins: Extract<Instr, { op: typeof Op.GROUP }>,
  tunnels: TunnelFrame[],
): void {
  const key = ins.key
  visit(m, key)
  for (const t of m.threadOpts) if (t.key === key) return
  // the thread arrives at the group as flow does
  countArrival(m, ins)
  const list = m.choices.get(key)
  const options: COption[] = []
  const texts: string[] = []
  // the group's block `{if}`s decide which of their options the thread offers, as at an arrival
  const ifs = ins.ifs && new GroupIfs(m, ins.ifs)
  for (let i = 0; i < ins.options.length; i++) {
    const o = ins.options[i]!
    if (ifs && !ifs.holds(o, i)) continue
    if (o.guard && !truthy(o.guard(m))) continue
    if (!o.sticky && list !== undefined && list.includes(o.id)) continue
    if (o.fallback) continue
    options.push(o)
    // the label as it reads when the thread runs (ink builds a choice's text where it is generated)
    texts.push(o.label.constant?.text ?? (o.label.plain ? renderPlain(o.label, m) : render(o.label, m).text))
  }
  ifs?.finish()
  if (options.length) m.threadOpts.push({ key, gid: ins.id, options, texts, tunnels })
}

/** Whether a thread gathered options of a group other than `key` (a thread of the group itself adds nothing). */
function othersThreads(m: DecisionState, key: string): boolean {
  for (const t of m.threadOpts) if (t.key !== key) return true
  return false
}

/**
 * Opens a pause offering `options` (possibly the scratch list: it is copied when the pause stays
 * open) and the live links. While replaying, applies the recorded entry at once.
 */
export function openPause(m: DecisionState, key: string, options: COption[]): void {
  if (m.held) m.flushPara()
  m.idle = 0
  m.sincePause = 0
  const n = options.length
  const opts: PauseOption[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const o = options[i]!
    let shown = o.shown
    if (shown === undefined) {
      const text = o.label.plain ? renderPlain(o.label, m) : render(o.label, m).text
      shown = o.sticky ? { id: o.id, text, tags: o.tags, sticky: true } : { id: o.id, text, tags: o.tags }
    }
    opts[i] = shown
  }
  // Threads' options (1.1) follow the pause's own, each id prefixed with its group's id.
  let all = options
  let owners = NO_THREADS
  const threads = m.threadOpts
  if (threads.length) {
    m.threadOpts = []
    all = options.slice()
    owners = new Array<ThreadGather | undefined>(n).fill(undefined)
    for (const t of threads) {
      if (t.key === key) continue
      for (let j = 0; j < t.options.length; j++) {
        const o = t.options[j]!
        const id = `${t.gid}.${o.id}`
        const text = t.texts[j]!
        opts.push(o.sticky ? { id, text, tags: o.tags, sticky: true } : { id, text, tags: o.tags })
        all.push(o)
        owners.push(t)
      }
    }
  }
  const links = m.links.length ? m.links.slice() : NO_LINKS
  const e: PauseEvent = m.replaying
    ? { type: 'pause', key, options: opts, links, replay: true }
    : { type: 'pause', key, options: opts, links }
  m.pause = e
  m.queue.push(e)
  const replay = m.replay
  if (replay) {
    const entry = replay.onPause(key)
    if (entry !== undefined) {
      if (entry.charCodeAt(0) === 62 /* '>' */) {
        const target = entry.slice(1)
        for (const l of links)
          if (l.target === target) {
            follow(m, key, l)
            return
          }
      } else if (entry.charCodeAt(0) === 60 /* '<' */) {
        // a thread's option: recorded under the thread's group
        const tkey = entry.slice(1)
        const id = replay.onPause(tkey)
        for (let i = n; i < all.length; i++)
          if (owners[i]!.key === tkey && all[i]!.id === id) {
            selectThread(m, key, owners[i]!, all[i]!, opts[i]!.text)
            return
          }
      } else
        for (let i = 0; i < n; i++)
          if (options[i]!.id === entry) {
            select(m, key, options[i]!, opts[i]!.text, false)
            return
          }
      replay.diverged = true
    } else replay.stopped = true
  }
  m.pauseOptions = owners === NO_THREADS ? options.slice() : all
  m.pauseThreads = owners
}

/**
 * The end of a part with live links or thread options left, or (1.1, `at` `@done`) a `-> DONE`: a
 * pause offering only them (key `<file>:@end` or `<file>:@done`).
 */
export function endOfPartPause(m: DecisionState, at: '@end' | '@done'): void {
  const key = `${m.curFile}:${at}`
  visit(m, key)
  openPause(m, key, [])
}

/** `run.choose(answer)`: takes an answer to the open pause, or reports `story/invalid-choice`. */
export function choose(m: DecisionState, answer: StoryAnswer): void {
  const pause = m.pause
  if (!pause) {
    m.emitDiagnostic(
      createDiagnostic(
        'story/invalid-choice',
        `${answerName(answer)}: the story is not waiting for an answer`,
      ),
    )
    return
  }
  // Answered before it was pulled (e.g. right after a resume): the queued pause is stale.
  const stale = m.qh < m.queue.length ? m.queue.indexOf(pause, m.qh) : -1
  if ('option' in answer) {
    const options = pause.options
    const id = answer.option
    let i = 0
    while (i < options.length && options[i]!.id !== id) i++
    if (i < options.length) {
      if (stale >= 0) m.queue.splice(stale, 1)
      const thread = m.pauseThreads[i]
      if (thread) selectThread(m, pause.key, thread, m.pauseOptions[i]!, pause.options[i]!.text)
      else select(m, pause.key, m.pauseOptions[i]!, pause.options[i]!.text, false)
      return
    }
  } else {
    const link = pause.links.find((l) => l.target === answer.link)
    if (link) {
      if (stale >= 0) m.queue.splice(stale, 1)
      follow(m, pause.key, link)
      return
    }
  }
  m.emitDiagnostic(
    createDiagnostic('story/invalid-choice', `${answerName(answer)} is not offered at this pause`),
  )
  if (stale < 0) m.queue.push(pause)
}

/** How a message names an answer: `option 'id'` or `link 'target'`. */
function answerName(answer: StoryAnswer): string {
  return 'option' in answer ? `option '${answer.option}'` : `link '${(answer as { link: string }).link}'`
}

function record(m: DecisionState, key: string, id: string): void {
  m.sinceDecision = 0
  const list = m.choices.get(key)
  if (list) {
    list.push(id)
    if (list.length > USED_SET_AFTER) m.used.get(key)?.add(id)
  } else m.choices.set(key, [id])
}

function select(m: DecisionState, key: string, o: COption, text: string, auto: boolean): void {
  record(m, key, o.id)
  // an automatic fallback answers no pause: it is no turn (ink's invisible default choice)
  if (!auto) m.turns++
  if (o.turnKey !== undefined) m.vars.set(o.turnKey, m.turns)
  const r = m.replaying
  m.queue.push(
    auto
      ? r
        ? { type: 'chosen', option: o.id, text, tags: o.tags, key, auto: true, replay: true }
        : { type: 'chosen', option: o.id, text, tags: o.tags, key, auto: true }
      : r
        ? { type: 'chosen', option: o.id, text, tags: o.tags, key, replay: true }
        : { type: 'chosen', option: o.id, text, tags: o.tags, key },
  )
  if (m.links.length) m.links.length = 0
  m.pause = undefined
  m.pauseThreads = NO_THREADS
  m.pc = o.body
}

/**
 * Takes a thread's option (1.1): the pause records `<` and the thread's group key, the thread's
 * group records the option (so once-only filtering and a replay find it there), and flow goes on
 * in the option's body with the tunnels open where the thread started.
 */
function selectThread(m: DecisionState, key: string, t: ThreadGather, o: COption, text: string): void {
  record(m, key, `<${t.key}`)
  record(m, t.key, o.id)
  // an answered pause is a turn, whichever group the option came from
  m.turns++
  if (o.turnKey !== undefined) m.vars.set(o.turnKey, m.turns)
  const e: StoryEvent = { type: 'chosen', option: o.id, text, tags: o.tags, key: t.key }
  if (m.replaying) e.replay = true
  m.queue.push(e)
  if (m.links.length) m.links.length = 0
  m.pause = undefined
  m.pauseThreads = NO_THREADS
  m.tunnels = t.tunnels.slice()
  m.pc = o.body
}

function follow(m: DecisionState, key: string, link: PauseLink): void {
  const id = `>${link.target}`
  record(m, key, id)
  m.turns++
  const e: StoryEvent = { type: 'chosen', option: id, text: link.text, tags: [], key }
  if (m.replaying) e.replay = true
  m.queue.push(e)
  m.links.length = 0
  m.pause = undefined
  m.pauseThreads = NO_THREADS
  m.pending = { target: link.target, initial: false }
}

/** Restores choices and visited groups from a saved state (resume). */
export function restoreDecisions(m: DecisionState, state: ReadingState): void {
  let turns = 0
  for (const k of Object.keys(state.choices)) {
    const list = state.choices[k]!.slice()
    m.choices.set(k, list)
    // a thread's answer is recorded twice (`<group` at the pause, the option in the group): one turn
    for (const id of list) if (id[0] !== '<') turns++
  }
  // Without a replay the automatic fallbacks cannot be told from answers: every other entry counts.
  m.turns = turns
  for (const g of state.visitedChoiceGroups) visit(m, g)
}

/** `run.saveState()`: the reading state, valid at any pause and after the end. */
export function saveState(m: DecisionState): ReadingState {
  const multi = m.source.parts.length > 1
  const choices: Record<string, string[]> = {}
  m.choices.forEach((v, k) => {
    choices[k] = v.slice()
  })
  const variables: ReadingState['variables'] = {}
  const escapeMaps = m.v11
  m.vars.forEach((v, k) => {
    variables[k] = typeof v === 'object' ? toJson(v, escapeMaps) : v
  })
  const state: ReadingState = {
    format: 1,
    id: m.source.id ?? 'story',
    variables,
    choices,
    visitedChoiceGroups: m.visitedList.slice(),
    rng: { algorithm: 'mulberry32', seed: m.rng.seed, state: m.rng.state },
    visitedParts: multi ? m.entered.slice(0, -1) : [],
    renderedParagraph: m.lastIndex,
  }
  if (m.source.version !== undefined) state.version = m.source.version
  const current = m.entered[m.entered.length - 1]
  if (multi && current !== undefined) state.currentPart = current
  if (m.tunnels.length) state.tunnels = m.tunnels.map((t) => t.id)
  return state
}
