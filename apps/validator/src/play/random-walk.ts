/**
 * `spkg play --random-walk N --seed S`: N seeded random playthroughs (ChoiceScript's randomtest,
 * done better). Walk `i` plays with story seed `S + i` and answers every pause uniformly among its
 * options and live links, so any walk can be replayed exactly with
 * `spkg play --seed <S+i> --choose <its answers>`. Reports the endings reached, the options never
 * offered, the runtime diagnostics and the longest path. Endings are told apart by their place in
 * the story (part, section, and the option that led there), never by their text: "1 flask" and
 * "2 flasks" printed by one `-> END` are one ending.
 */
import type { Diagnostic } from '@spkg/manifest'
import { createRng, drawUint32, type StoryAnswer, type StoryRun } from '@spkg/story'
import { formatAnswer } from './choose-list'
import type { CatalogueOption, CatalogueSection } from './option-catalogue'

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
 * An ending: where playthroughs ended and how often. Its place is the part, the section and the
 * option chosen last in that section; `text` is only an example (the first walk's last block).
 */
export interface WalkEnding {
  part: string
  /** The id of the section the story ended in (the last heading reached in that part; `h0` before any). */
  section: string
  /** The option chosen last in that section, when the ending came after one: its decision key and id. */
  after?: { key: string; option: string }
  /** The last block's text in the first walk that ended here (up to 80 characters). */
  text: string
  count: number
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
    let after: WalkEnding['after']
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
          for (const o of event.options) offered.add(`${event.key}\u0000${o.id}`)
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
      const k = `${part}\u0000${section}\u0000${after?.key}\u0000${after?.option}`
      const e = endings.get(k)
      if (e) e.count++
      else endings.set(k, { part, section, ...(after ? { after } : {}), text, count: 1 })
    } else unfinished.push({ seed, choices: answers.length, reason: stop })
    if (!longest || answers.length > longest.choices)
      longest = { seed, choices: answers.length, blocks, choose: answers }
  }

  const catalogue = options.catalogue ?? []
  return {
    walks: options.walks,
    seed: options.seed,
    endings: [...endings.values()].sort((a, b) => b.count - a.count),
    unfinished,
    neverOffered: catalogue.filter((o) => !o.fallback && !offered.has(`${o.key}\u0000${o.id}`)),
    fallbacksNeverTaken: catalogue.filter((o) => o.fallback && !taken.has(`${o.key}\u0000${o.id}`)),
    sectionsNeverReached: (options.sections ?? []).filter((s) => !reached.has(s.key)),
    diagnostics: [...diagnostics.values()],
    longest,
  }
}
