/**
 * Drives a story run for `spkg play`: prints every event, answers each pause from the `--choose`
 * list, else from the interactive prompt, and stops at the first pause left unanswered, at the
 * end, or when an answer is refused.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import type { PauseEvent, StoryAnswer, StoryEvent, StoryRun } from '@spkg/story'
import {
  type ChooseItem,
  describeChoices,
  formatAnswer,
  formatItem,
  parseChooseItem,
  resolveChoice,
} from './choose-list'
import type { LineReader } from './line-reader'

/** Why play stopped. */
export type StopReason = 'end' | 'pause' | 'refused' | 'event-limit'

/** Options of {@link playRun}. */
export interface PlayLoopOptions {
  /** Answers for the next pauses, in order (`--choose`). */
  answers?: readonly ChooseItem[]
  /** The interactive prompt, used once `answers` are used up; absent: stop at the next pause. */
  prompt?: {
    reader: LineReader
    /** Writes the prompt text (no newline). */
    write(text: string): void
  }
  /** Called with every event, in order. */
  emit(event: StoryEvent): void
  /** Stop after this many events (a story looping without pauses). @default 1_000_000 */
  maxEvents?: number
}

/** The outcome of {@link playRun}. */
export interface PlayOutcome {
  stop: StopReason
  /** The pause play stopped at (also after a refused answer). */
  pause?: PauseEvent
  /** Every diagnostic the run reported. */
  diagnostics: Diagnostic[]
  /** Answers given (from the list and the prompt), in `--choose` form. */
  answered: string[]
  /** The answer the pause does not offer (stop `refused`), as it was given. */
  refused?: string
}

/**
 * Reads one answer at the prompt, exactly as a `--choose` item: a menu number, an option id, `=id` or
 * `>target`; `undefined` to stop. What the pause does not offer is said, and asked again.
 */
async function promptAnswer(
  prompt: NonNullable<PlayLoopOptions['prompt']>,
  pause: PauseEvent,
): Promise<StoryAnswer | undefined> {
  for (;;) {
    prompt.write('? ')
    const line = await prompt.reader.readLine()
    // The end of input: close the prompt's line, so that nothing after it (a message, the shell's
    // prompt) is glued to '? '.
    if (line === undefined) {
      prompt.write('\n')
      return undefined
    }
    const text = line.trim()
    if (text === '') continue
    if (text === 'q' || text === 'quit') return undefined
    let item: ChooseItem
    try {
      item = parseChooseItem(text)
    } catch (e) {
      prompt.write(`${(e as Error).message.replace(/^--choose item 1 /, '')}\n`)
      continue
    }
    const answer = resolveChoice(item, pause)
    if (answer) return answer
    prompt.write(
      'menu' in item
        ? `no choice ${text}; pick ${describeChoices(pause).replace(/ \(the menu numbers?\)/, '')}\n`
        : `'${text}' is not offered here; pick ${describeChoices(pause)}\n`,
    )
  }
}

/** The diagnostic of an answer the pause does not offer (an event, so JSON output has it too). */
function refusal(item: ChooseItem, pause: PauseEvent): Diagnostic {
  return createDiagnostic(
    'story/invalid-choice',
    `the answer '${formatItem(item)}' is not offered at the pause ${pause.key}; it accepts ${describeChoices(pause)}`,
  )
}

/** Plays `run` until the end, an unanswered pause, a refused answer or the event limit. */
export async function playRun(run: StoryRun, options: PlayLoopOptions): Promise<PlayOutcome> {
  const queue = [...(options.answers ?? [])]
  const diagnostics: Diagnostic[] = []
  const answered: string[] = []
  const maxEvents = options.maxEvents ?? 1_000_000
  let awaiting: PauseEvent | undefined
  let count = 0
  for (;;) {
    const event = await run.next()
    if (event === undefined) return { stop: 'end', diagnostics, answered }
    if (++count > maxEvents) return { stop: 'event-limit', diagnostics, answered }
    if (event.type === 'diagnostic') diagnostics.push(event.diagnostic)
    if (event.type === 'chosen' && !event.replay) awaiting = undefined
    if (event.type === 'pause' && !event.replay && awaiting) {
      // The same pause again without a `chosen` event: the run refused an answer it was offered
      // (it said why in a diagnostic). The menu is on screen already: it is not printed twice.
      const refused = answered.pop()
      awaiting = undefined
      return { stop: 'refused', pause: event, diagnostics, answered, ...(refused ? { refused } : {}) }
    }
    options.emit(event)
    if (event.type === 'end') return { stop: 'end', diagnostics, answered }
    if (event.type !== 'pause' || event.replay) continue
    let answer: StoryAnswer | undefined
    const item = queue.shift()
    if (item !== undefined) {
      answer = resolveChoice(item, event)
      if (!answer) {
        const d = refusal(item, event)
        diagnostics.push(d)
        options.emit({ type: 'diagnostic', diagnostic: d })
        return { stop: 'refused', pause: event, diagnostics, answered, refused: formatItem(item) }
      }
    } else if (options.prompt) answer = await promptAnswer(options.prompt, event)
    if (!answer) return { stop: 'pause', pause: event, diagnostics, answered }
    answered.push(formatAnswer(answer, event))
    awaiting = event
    run.choose(answer)
  }
}
