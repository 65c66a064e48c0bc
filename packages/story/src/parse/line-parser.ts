/**
 * The line parser's interface: what the builders of single nodes (line-nodes.ts, option-line.ts,
 * command-line.ts) and the resolution pass (resolve.ts) use of it. A leaf, so that those files and
 * body-parser.ts, which implements it and calls them, form no import cycle.
 */
import type { IdKind, Inline, JumpNode, Node, Pos } from '../ast.ts'
import type { ParseContext } from './context.ts'
import type { Line, splitTags } from './scan.ts'

/** The kind of a source line. */
export type LineKind =
  | 'blank'
  | 'comment'
  | 'heading'
  | 'gate'
  | 'anchor'
  | 'jump'
  | 'tunnel'
  | 'tunnel-return'
  | 'thread'
  | 'option'
  | 'media'
  | 'command'
  | 'unclosed'
  | 'tags'
  | 'text'

/** An explicit id seen in the file, for `story/duplicate-id` and jump checks. */
export interface IdInfo {
  line: number
  kind: IdKind
}

/** Parses a sequence of classified lines into nodes, recovering line by line. */
export interface LineParser {
  readonly ctx: ParseContext
  readonly lines: Line[]
  /** The kind of each line (see classify.ts). */
  readonly kinds: LineKind[]
  /** The index of the next line to read. */
  i: number
  /** Explicit ids of the file. */
  readonly ids: Map<string, IdInfo>
  /** Every jump of the file, and the same-file targets of tunnels and threads, for the resolution pass. */
  readonly jumps: JumpNode[]
  /** Headings seen so far (implicit ids `h<n>`). */
  headingCount: number
  /** How many `{if}` blocks are open around the line being parsed. */
  ifDepth: number
  /** 1.1: how many block alternatives are open around the line being parsed. */
  altDepth: number
  /** Set by module parsing: where passages are parsed, what is not allowed. */
  passage: boolean
  /** Set by module parsing while a block function's body is parsed: `{return}` is allowed. */
  fnBody: boolean
  /** Parses nodes until a line at or left of `parentIndent`, or a `{elif}`/`{else}`/`{end}` of an open `{if}`. */
  seq(parentIndent: number): Node[]
  /** Records an explicit id, reporting reserved and duplicate ids. */
  declareId(id: string, kind: IdKind, pos: Pos): void
  /** Reports `[#id]` whose id is not valid. */
  badId(id: string, pos: Pos): void
  /** Reports what a passage cannot hold. */
  notInPassage(what: string, pos: Pos): void
  /** Splits the tag list off `text` (at `offset` of the line), reporting words that are not tags. */
  splitTagsAt(line: Line, text: string, offset: number): ReturnType<typeof splitTags>
  /** The tags of a tag line, reporting words that are not tags. */
  tagLine(line: Line): string[]
  /** Inline content of a label (heading, option), where links are not allowed. */
  label(line: Line, from: number, to: number, where: string): Inline[]
}
