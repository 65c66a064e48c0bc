/**
 * Drives a story run for `spkg play`: prints every event, answers each pause from the `--choose`
 * list, else from the interactive prompt, and stops at the first pause left unanswered, at the
 * end, or when an answer is refused.
 */
import type { Diagnostic } from '@spkg/manifest'
import type { PauseEvent, StoryAnswer, StoryEvent, StoryRun } from '@spkg/story'
import { formatAnswer, parseChooseList } from './choose-list'
import type { LineReader } from './line-reader'

/** Why play stopped. */
export type StopReason = 'end' | 'pause' | 'refused' | 'event-limit'

/** Options of {@link playRun}. */
export interface PlayLoopOptions {
  /** Answers for the next pauses, in order (`--choose`). */
  answers?: readonly StoryAnswer[]
  /** The interactive prompt, used once `answers` are used up; absent: stop at the next pause. */
  prompt?: {
    reader: LineReader
    /** Writes the prompt text (no newline). */
    write(text: string): void
    /** Text format: a number picks by menu position; json: every line is an answer as in `--choose`. */
    numbered: boolean
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
  /** The answer the run refused (stop `refused`), in `--choose` form. */
  refused?: string
}

/** Reads one answer at the prompt: a menu number, an option id or `>target`; `undefined` to stop. */
async function promptAnswer(
  prompt: NonNullable<PlayLoopOptions['prompt']>,
  pause: PauseEvent,
): Promise<StoryAnswer | undefined> {
  for (;;) {
    prompt.write('? ')
    const line = await prompt.reader.readLine()
    if (line === undefined) return undefined
    const text = line.trim()
    if (text === '') continue
    if (text === 'q' || text === 'quit') return undefined
    if (prompt.numbered && /^\d+$/.test(text)) {
      const n = Number(text) - 1
      const option = pause.options[n]
      if (option) return { option: option.id }
      const link = pause.links[n - pause.options.length]
      if (link) return { link: link.target }
      prompt.write(`no choice ${text}; pick 1-${pause.options.length + pause.links.length}\n`)
      continue
    }
    try {
      const [answer] = parseChooseList(text)
      if (answer) return answer
    } catch (e) {
      prompt.write(`${(e as Error).message.replace(/^--choose item 1 /, '')}\n`)
    }
  }
}

/** Plays `run` until the end, an unanswered pause, a refused answer or the event limit. */
export async function playRun(run: StoryRun, options: PlayLoopOptions): Promise<PlayOutcome> {
  const queue = [...(options.answers ?? [])]
  const diagnostics: Diagnostic[] = []
  const answered: string[] = []
  const maxEvents = options.maxEvents ?? 1_000_000
  let awaitingChosen = false
  let lastFromPrompt = false
  let count = 0
  for (;;) {
    const event = await run.next()
    if (event === undefined) return { stop: 'end', diagnostics, answered }
    if (++count > maxEvents) return { stop: 'event-limit', diagnostics, answered }
    if (event.type === 'diagnostic') diagnostics.push(event.diagnostic)
    if (event.type === 'chosen' && !event.replay) awaitingChosen = false
    options.emit(event)
    if (event.type === 'end') return { stop: 'end', diagnostics, answered }
    if (event.type !== 'pause' || event.replay) continue
    if (awaitingChosen) {
      // The same pause again without a `chosen` event: the run refused the answer.
      const refused = answered.pop()
      awaitingChosen = false
      if (!lastFromPrompt) return { stop: 'refused', pause: event, diagnostics, answered, refused }
    }
    let answer = queue.shift()
    lastFromPrompt = answer === undefined && options.prompt !== undefined
    if (answer === undefined && options.prompt) answer = await promptAnswer(options.prompt, event)
    if (!answer) return { stop: 'pause', pause: event, diagnostics, answered }
    answered.push(formatAnswer(answer))
    awaitingChosen = true
    run.choose(answer)
  }
}
