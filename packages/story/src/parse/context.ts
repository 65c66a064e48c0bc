/**
 * The parse context: the file being parsed and where its diagnostics go. Internal.
 */
import { createDiagnostic, type Diagnostic, type DiagnosticCode } from '@spkg/manifest'
import type { Expr, Pos } from '../ast.ts'
import { ExprParser, ExprSyntaxError } from './expression.ts'
import { type Line, posAt } from './scan.ts'

/** Collects diagnostics for one file. */
export class ParseContext {
  readonly diagnostics: Diagnostic[] = []
  constructor(readonly file: string) {}

  report(code: DiagnosticCode, message: string, pos: Pos): void {
    this.diagnostics.push(
      createDiagnostic(code, message, { path: this.file, line: pos.line, column: pos.column }),
    )
  }

  /** Parses `line.raw.slice(from, to)` as one expression; reports and returns undefined on error. */
  expr(line: Line, from: number, to: number): Expr | undefined {
    const p = new ExprParser(line.raw.slice(from, to), (o) => posAt(line, from + o))
    try {
      return p.parseAll()
    } catch (e) {
      if (!(e instanceof ExprSyntaxError)) throw e
      this.report('story/bad-expression', e.message, posAt(line, from + e.offset))
      return undefined
    }
  }

  /** Runs `parse` on an {@link ExprParser} over the slice; reports syntax errors. */
  withParser<T>(line: Line, from: number, to: number, parse: (p: ExprParser) => T): T | undefined {
    const p = new ExprParser(line.raw.slice(from, to), (o) => posAt(line, from + o))
    try {
      return parse(p)
    } catch (e) {
      if (!(e instanceof ExprSyntaxError)) throw e
      this.report('story/bad-expression', e.message, posAt(line, from + e.offset))
      return undefined
    }
  }
}
