/**
 * The parse context: the file being parsed and where its diagnostics go. A leaf (no import from
 * the package at run time): every parser file takes it.
 */
import { createDiagnostic, type Diagnostic, type DiagnosticCode } from '@spkg/manifest'
import type { Pos, SetStmt } from '../ast.ts'
import type { StoryLang } from '../lang.ts'

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
