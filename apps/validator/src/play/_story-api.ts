/**
 * The part of the `@spkg/story` interpreter API that `spkg play` drives (an inkjs-style pull loop:
 * `next()` events, `choose()` answers, `saveState()`). Kept structural so the player code and its
 * tests depend on the event shapes only, not on how the interpreter is built.
 */
import type { Diagnostic, ReadingState } from '@spkg/manifest'

/** One styled piece of a block's text. */
export interface PlayTextRun {
  text: string
  strong?: true
  em?: true
  /** Resolved archive target of a link run. */
  link?: string
}

/** A rendered block. */
export interface PlayBlock {
  kind: 'paragraph' | 'heading' | 'media'
  text: string
  runs: PlayTextRun[]
  tags: string[]
  level?: number
  id?: string
  path?: string
  media?: 'image' | 'audio' | 'video'
  seen?: boolean
}

/** An option offered at a pause. */
export interface PlayOption {
  id: string
  text: string
  tags: string[]
  sticky?: true
}

/** A live link offered at a pause. */
export interface PlayLink {
  target: string
  text: string
}

/** The events `spkg play` prints. */
export type PlayEvent =
  | { type: 'block'; index: number; block: PlayBlock; replay?: true }
  | { type: 'chosen'; option: string; text: string; tags: string[]; key: string; auto?: true; replay?: true }
  | { type: 'pause'; key: string; options: PlayOption[]; links: PlayLink[]; replay?: true }
  | { type: 'part-entered'; part: string; scene?: string; tags: string[]; replay?: true }
  | { type: 'diagnostic'; diagnostic: Diagnostic; replay?: true }
  | { type: 'end'; replay?: true }

/** The pause event. */
export type PlayPause = Extract<PlayEvent, { type: 'pause' }>

/** An answer to a pause: an option id, or a link by its resolved archive target. */
export type PlayAnswer = { option: string } | { link: string }

/** A running story as `spkg play` drives it. */
export interface PlayRun {
  next(): Promise<PlayEvent | undefined>
  choose(answer: PlayAnswer): void
  saveState(): ReadingState
  readonly ended: boolean
}
