/**
 * `spkg play --random-walk N --seed S`: N seeded random playthroughs (ChoiceScript's randomtest,
 * done better). Walk `i` plays with story seed `S + i` and answers every pause uniformly among its
 * options and live links, so any walk can be replayed exactly with
 * `spkg play --seed <S+i> --choose <its answers>`. Reports the endings reached, the options never
 * offered, the runtime diagnostics and the longest path. Endings are told apart by the `-> END`
 * reached (found from the section the walk ended in and the option chosen last there), never by
 * their text: "1 flask" and "2 flasks" printed by one `-> END` are one ending, and the ways into it
 * (the last option chosen) are its `paths`.
 */
import type { Diagnostic } from '@spkg/manifest'
import { createRng, drawUint32, type StoryAnswer, type StoryRun } from '@spkg/story'
import { formatAnswer } from './choose-list'
import type { CatalogueEnd, CatalogueOption, CatalogueSection, OptionNesting } from './option-catalogue'

/** Options of {@link randomWalk}. */
export interface RandomWalkOptions {
  walks: number
  seed: number
  /** Starts a fresh run with this story seed. */
  start(seed: number): StoryRun | Promise<StoryRun>
  /** Every option of the story (from the parsed parts), for the "never offered" report. */
  catalogue?: readonly CatalogueOption[]
  /** Every section of the story (from the parsed parts), for the "never reached" report. */
  sections?: readonly CatalogueSection[]
  /** Every `-> END` of the story and the nesting of its options (from the parsed parts), to tell endings apart. */
  ends?: { ends: readonly CatalogueEnd[]; nesting: OptionNesting }
  /**
   * `untried`: at each pause pick among the answers no walk has taken yet when there are any
   * (coverage first: every option gets tried even in a few walks); `uniform`: among all answers.
   * @default 'uniform'
   */
  strategy?: 'uniform' | 'untried'
  /** A walk stops (unfinished) after this many answers. @default 1000 */
  maxChoices?: number
  /** A walk stops (unfinished) after this many events without reaching a pause or the end. @default 100000 */
  maxEvents?: number
}

/**
 * An ending: the `-> END` playthroughs reached and how often. `at` is its line and column (more than
 * one when the walk cannot tell them apart, as two `-> END` in the `{if}` branches of one option;
 * none when the story ended by running off its last part); `text` is only an example (the first
 * walk's last block); `paths` are the ways into it, by the option chosen last in its section.
 */
export interface WalkEnding {
  part: string
  /** The section of the `-> END` reached when one was found, else the last heading reached in that part (`h0` before any). */
  section: string
  at: Array<{ line: number; column: number }>
  /** The last block's text in the first walk that ended here (up to 80 characters). */
  text: string
  count: number
  /** The walks into this ending by the option chosen last in its section (`after` absent: none was), most walks first. */
  paths: Array<{ after?: { key: string; option: string }; count: number }>
}

/** The `-> END` a walk reached: the deepest in the section whose options hold the one chosen last. */
function endReached(
  ends: RandomWalkOptions['ends'],
  part: string,
  section: string,
  after: { key: string; option: string } | undefined,
): CatalogueEnd[] {
  if (!ends) return []
  const chain = after ? (ends.nesting.get(`${after.key}\u0000${after.option}`) ?? []) : []
  let best: CatalogueEnd[] = []
  let depth = -1
  for (const e of ends.ends) {
    if (e.path !== part || e.within.length > chain.length) continue
    // an END inside the body of the option chosen last is that option's, whatever heading printed
    // last (a thread, 1.1, prints its section's heading before the pause)
    if (e.section !== section && e.within.length === 0) continue
    if (!e.within.every((w, i) => chain[i] === w)) continue
    if (e.within.length > depth) {
      best = [e]
      depth = e.within.length
    } else if (e.within.length === depth) best.push(e)
  }
  return best
}

/** A runtime diagnostic and how many walks reported it. */
export interface WalkDiagnostic {
  diagnostic: Diagnostic
  /** Walks that reported it. */
  walks: number
  /** Story seed of the first walk that reported it. */
  seed: number
}

/** The result of {@link randomWalk}. */
export interface RandomWalkReport {
  walks: number
  seed: number
  endings: WalkEnding[]
  /** Walks stopped by `maxChoices`/`maxEvents` (a loop with sticky options, or no exit). */
  unfinished: Array<{ seed: number; choices: number; reason: 'max-choices' | 'max-events' }>
  /** Options (not fallbacks) never offered at any pause. Only with a catalogue. */
  neverOffered: CatalogueOption[]
  /** Fallbacks never taken. Only with a catalogue. */
  fallbacksNeverTaken: CatalogueOption[]
  /** Sections no walk reached (visit count still 0 at the end of every walk). Only with `sections`. */
  sectionsNeverReached: CatalogueSection[]
  diagnostics: WalkDiagnostic[]
  longest: { seed: number; choices: number; blocks: number; choose: string[] } | undefined
}

/** mulberry32, the story language's generator (section 7), drives the walker's picks. */
function mulberry32(seed: number): () => number {
  const rng = createRng(seed)
  return () => drawUint32(rng)
}

/**
 * The group and option an offered option stands for: a thread's option (1.1) is offered as
 * `<group>.<option>` at a pause of another group of the same file.
 */
function offeredKey(key: string, id: string): string {
  const dot = id.lastIndexOf('.')
  if (dot < 0) return `${key}\u0000${id}`
  return `${key.slice(0, key.lastIndexOf(':') + 1)}${id.slice(0, dot)}\u0000${id.slice(dot + 1)}`
}

/** An answer as the story records it (option id, or `>` and the link target). */
const answerKey = (a: StoryAnswer) => ('link' in a ? `>${a.link}` : a.option)

const diagnosticKey = (d: Diagnostic) =>
  `${d.code}\u0000${d.path}\u0000${d.line}\u0000${d.column}\u0000${d.message}`

/** Plays `walks` seeded random playthroughs and summarises them. */
export async function randomWalk(options: RandomWalkOptions): Promise<RandomWalkReport> {
  const maxChoices = options.maxChoices ?? 1000
  const maxEvents = options.maxEvents ?? 100_000
  const endings = new Map<string, WalkEnding>()
  const offered = new Set<string>()
  const taken = new Set<string>()
  /** Answers given at each decision key, over all walks (for the `untried` strategy). */
  const answered = new Set<string>()
  const reached = new Set<string>()
  const diagnostics = new Map<string, WalkDiagnostic>()
  const unfinished: RandomWalkReport['unfinished'] = []
  let longest: RandomWalkReport['longest']

  for (let w = 0; w < options.walks; w++) {
    const seed = (options.seed + w) >>> 0
    const pick = mulberry32(seed ^ 0x5bd1e995)
    const run = await options.start(seed)
    const answers: string[] = []
    const seenHere = new Set<string>()
    let blocks = 0
    let part = ''
    let section = 'h0'
    let lastText = ''
    let after: { key: string; option: string } | undefined
    let quiet = 0
    let stop: 'end' | 'max-choices' | 'max-events' | undefined
    while (!stop) {
      const event = await run.next()
      if (event === undefined || event.type === 'end') {
        stop = 'end'
        break
      }
      if (++quiet > maxEvents) {
        stop = 'max-events'
        break
      }
      switch (event.type) {
        case 'block':
          blocks++
          lastText = event.block.text
          if (event.block.kind === 'heading' && event.block.id) {
            section = event.block.id
            after = undefined
          }
          break
        case 'part-entered':
          part = event.part
          section = event.scene ?? 'h0'
          after = undefined
          break
        case 'chosen':
          taken.add(`${event.key}\u0000${event.option}`)
          after = { key: event.key, option: event.option }
          break
        case 'diagnostic': {
          const k = diagnosticKey(event.diagnostic)
          const entry = diagnostics.get(k)
          if (!entry) diagnostics.set(k, { diagnostic: event.diagnostic, walks: 1, seed })
          else if (!seenHere.has(k)) entry.walks++
          seenHere.add(k)
          break
        }
        case 'pause': {
          quiet = 0
          if (answers.length >= maxChoices) {
            stop = 'max-choices'
            break
          }
          for (const o of event.options) offered.add(offeredKey(event.key, o.id))
          const all: StoryAnswer[] = [
            ...event.options.map((o) => ({ option: o.id })),
            ...event.links.map((l) => ({ link: l.target })),
          ]
          if (all.length === 0) {
            stop = 'end'
            break
          }
          const untried =
            options.strategy === 'untried'
              ? all.filter((a) => !answered.has(`${event.key}\u0000${answerKey(a)}`))
              : []
          const pool = untried.length > 0 ? untried : all
          const answer = pool[Math.floor((pick() * pool.length) / 2 ** 32)]!
          answered.add(`${event.key}\u0000${answerKey(answer)}`)
          answers.push(formatAnswer(answer, event))
          run.choose(answer)
          break
        }
      }
    }
    if (options.sections?.length) {
      const vars = run.saveState().variables
      for (const k of Object.keys(vars)) if (k.endsWith('@visits') && Number(vars[k]) > 0) reached.add(k)
    }
    if (stop === 'end') {
      const text = lastText.length > 80 ? `${lastText.slice(0, 79)}…` : lastText
      const reached = endReached(options.ends, part, section, after)
      const at = reached.map((e) => ({ line: e.line, column: e.column }))
      // the section the one `-> END` found stands in (a silent heading prints nothing to track)
      const endSection = reached.length === 1 ? reached[0]!.section : section
      // Without a known `-> END` (no catalogue, or the story ran off its last part), the option chosen last tells them apart.
      const k = `${part}\u0000${endSection}\u0000${at.length ? JSON.stringify(at) : `${after?.key}\u0000${after?.option}`}`
      const e = endings.get(k) ?? { part, section: endSection, at, text, count: 0, paths: [] }
      endings.set(k, e)
      e.count++
      const path = e.paths.find((p) => p.after?.key === after?.key && p.after?.option === after?.option)
      if (path) path.count++
      else e.paths.push({ ...(after ? { after } : {}), count: 1 })
    } else unfinished.push({ seed, choices: answers.length, reason: stop })
    if (!longest || answers.length > longest.choices)
      longest = { seed, choices: answers.length, blocks, choose: answers }
  }

  const catalogue = options.catalogue ?? []
  return {
    walks: options.walks,
    seed: options.seed,
    endings: [...endings.values()]
      .sort((a, b) => b.count - a.count)
      .map((e) => ({ ...e, paths: e.paths.sort((a, b) => b.count - a.count) })),
    unfinished,
    neverOffered: catalogue.filter((o) => !o.fallback && !offered.has(`${o.key}\u0000${o.id}`)),
    fallbacksNeverTaken: catalogue.filter((o) => o.fallback && !taken.has(`${o.key}\u0000${o.id}`)),
    sectionsNeverReached: (options.sections ?? []).filter((s) => !reached.has(s.key)),
    diagnostics: [...diagnostics.values()],
    longest,
  }
}
