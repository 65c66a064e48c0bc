/**
 * Public types of the story interpreter: the source a run reads, the events it emits and the run
 * object a player drives (an inkjs-style pull loop).
 */
import type { Diagnostic, JsonValue, ReadingState } from '@spkg/manifest'
import type { ItemSet } from './sets.ts'

export type { ItemSet } from './sets.ts'

/** A host function a story calls through `{call ns.f(...)}` or `ns.f(...)` in an expression. */
export type HostFunction = (...args: JsonValue[]) => JsonValue | undefined

/** Host functions by namespace (`manifest.requires`) and name. */
export type HostFunctions = Record<string, Record<string, HostFunction>>

/** Options of {@link createStoryRun}. */
export interface StoryRunOptions {
  /** The PRNG seed; beats `{seed N}` of the entry part. @default a random uint32 */
  seed?: number
  /** Host functions for `requires` namespaces. */
  host?: HostFunctions
  /** Session values; beat `source.session` when both are given. */
  session?: Record<string, JsonValue>
}

/** One styled piece of a block's text. */
export interface TextRun {
  text: string
  strong?: true
  em?: true
  /** The resolved archive target of a link (`story/0003-forest.sty:edge`). */
  link?: string
}

/** A rendered block (section 2): paragraph, heading or media. */
export interface Block {
  kind: 'paragraph' | 'heading' | 'media'
  /** Plain text: styles and link markup removed; the alt text of a media block. */
  text: string
  /** The text split into styled runs. */
  runs: TextRun[]
  tags: string[]
  /** Heading level 1-6 (headings only). */
  level?: number
  /** Heading id, explicit or implicit `h<n>` (headings only). */
  id?: string
  /** Archive-relative path (media only). */
  path?: string
  /** Media kind (media only). */
  media?: 'image' | 'audio' | 'video'
  /** True for blocks the reader already saw before a resume: render them without animation. */
  seen?: boolean
}

/** A block event; `index` counts from 0 at the latest entry into the current part. */
export interface BlockEvent {
  type: 'block'
  index: number
  block: Block
  replay?: true
}

/** An option offered at a pause. */
export interface PauseOption {
  id: string
  text: string
  tags: string[]
  sticky?: true
}

/** A live link offered at a pause. */
export interface PauseLink {
  /** Resolved archive target, `path[:scene]`. */
  target: string
  text: string
}

/** Every event a run emits. */
export type StoryEvent =
  | BlockEvent
  | {
      type: 'chosen'
      /** The option id, or `>` + target for a link. */
      option: string
      text: string
      tags: string[]
      /** The decision key (`file:group`). */
      key: string
      /** True for a fallback taken automatically. */
      auto?: true
      replay?: true
    }
  | { type: 'pause'; key: string; options: PauseOption[]; links: PauseLink[]; replay?: true }
  | { type: 'part-entered'; part: string; scene?: string; tags: string[]; replay?: true }
  | { type: 'diagnostic'; diagnostic: Diagnostic; replay?: true }
  | { type: 'end'; replay?: true }

/** The pause event type. */
export type PauseEvent = Extract<StoryEvent, { type: 'pause' }>

/** An answer to a pause: an option id, or a link by its resolved target. */
export type StoryAnswer = { option: string } | { link: string }

/** A running story: pull events with `next()`, answer pauses with `choose()`. */
export interface StoryRun {
  /** Pulls the next event; at an unanswered pause it returns that pause again; `undefined` after `end`. */
  next(): Promise<StoryEvent | undefined>
  /** Answers the current pause. A wrong answer queues a `story/invalid-choice` diagnostic and the pause again. */
  choose(answer: StoryAnswer): void
  /** The reading state; valid at any pause (and after the end). */
  saveState(): ReadingState
  /** True once the `end` event was produced. */
  readonly ended: boolean
  /** The pause waiting for an answer, if any. */
  readonly pause: PauseEvent | undefined
  /**
   * How far the reader is through the current part, 0 to 1 (the share of the part's code passed,
   * branches jumped over included; 1 after the end); undefined before the first part. A
   * progressive loader prefetches the next parts past `LIMITS.progressivePrefetchAt`.
   */
  readonly progress: { part: string; fraction: number } | undefined
}

/** The outcome of {@link resumeStoryRun}. */
export interface ResumeResult {
  /** The run, positioned at the saved pause; its first events are the replayed ones (`replay: true`). */
  run: StoryRun
  /** The replayed blocks; those the reader saw are marked `seen`. Empty after a divergence. */
  scrollBack: BlockEvent[]
  /** Problems of the resume (`story/resume-diverged`). */
  diagnostics: Diagnostic[]
}

/** A story value (section 6); 1.1 adds sets ({@link ItemSet}). */
export type Value = number | string | boolean | ItemSet | Value[] | { [key: string]: Value }
