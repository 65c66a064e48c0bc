/**
 * The parse context: the file being parsed, where its diagnostics go and the lints it runs. A leaf
 * (no import from the package at run time): every parser file takes it.
 */
import { createDiagnostic, type Diagnostic, type DiagnosticCode } from '@spkg/manifest'
import type { JumpNode, Node, OptionNode, Pos, SetStmt } from '../ast.ts'
import type { StoryLang } from '../lang.ts'
import type { Line } from './scan.ts'

/** The message of `story/unclosed-brace` for a command whose `}` is missing. */
export const UNCLOSED_COMMAND =
  "command is not closed on its line; add the closing '}' (a command cannot go on to the next line)"

/** Collects diagnostics for one file. */
export class ParseContext {
  readonly diagnostics: Diagnostic[] = []
  /** True when the file is read at 1.1 or later: its syntax is unlocked. */
  readonly v11: boolean

  constructor(
    readonly file: string,
    /** The story-language version the file is read at. */
    readonly lang: StoryLang = '1.0',
    /** The author lints to run (`parseStory`, `parseModule`); none for a run. */
    readonly lint?: ParseLints,
  ) {
    this.v11 = lang !== '1.0'
  }

  report(code: DiagnosticCode, message: string, pos: Pos): void {
    this.diagnostics.push(
      createDiagnostic(code, message, { path: this.file, line: pos.line, column: pos.column }),
    )
  }
}

/**
 * `story/repeated-default`: a default for a name that already has one earlier in the same block
 * never runs (a default is skipped once its name has a value), so `{set a = 1}` then
 * `{set a = a + 5}` leaves 1.
 */
export function reportRepeatedDefault(ctx: ParseContext, earlier: readonly SetStmt[], stmt: SetStmt): void {
  const prev = earlier.find((d) => d.name === stmt.name)
  if (prev)
    ctx.report(
      'story/repeated-default',
      `this default never runs: line ${prev.pos.line} already gives '${stmt.name}' its default, and a default is skipped once its name has a value; fold the two into one '{set ${stmt.name} = …}', or move this one below the first text line, where it runs as an assignment`,
      stmt.pos,
    )
}

/** What the lints read of the line parser: the file's lines, their kinds and the line at hand. */
export interface LintedLines {
  readonly ctx: ParseContext
  readonly lines: readonly Line[]
  readonly kinds: readonly string[]
  /** The index of the line being read. */
  readonly i: number
}

/** The lints the line parser calls (`ParseContext.lint`), each where it reads the line. */
export interface ParseLints {
  /** `story/ink-syntax` on a text line of a paragraph. */
  textLine(ctx: ParseContext, line: Line): void
  /** `story/ink-syntax` for an ink gather: the text line `line` right after `group`. */
  gather(p: LintedLines, line: Line, group: Extract<Node, { kind: 'group' }>): void
  /** `story/dedented-body` after the group of `options` (at `indent`) that just ended. */
  dedented(p: LintedLines, indent: number, parentIndent: number, options: OptionNode[]): void
  /** `story/tag-text`: words in the tag list `list` (at `offset` of the line) that are not tags. */
  tagWords(ctx: ParseContext, line: Line, list: string, offset: number): void
  /** `story/tag-text` after a media block: `after` is what follows its `)`, at `offset` of the line. */
  mediaText(ctx: ParseContext, line: Line, after: string, offset: number): void
  /** `story/id-before-jump`: an `[#id]` in the label `labelText` (at `from` of the option's `content`). */
  labelId(
    p: LintedLines,
    line: Line,
    from: number,
    content: string,
    labelText: string,
    tags: readonly string[],
    jump: JumpNode | undefined,
    id: string | undefined,
  ): void
  /** 1.1: ink's spelling of an inline alternative (`{a|b}`, `{&a|b}`: `mark` is its `&`, `~` or `!`). */
  inkAlt(ctx: ParseContext, mark: string | undefined, mode: string, items: string, pos: Pos): void
}
