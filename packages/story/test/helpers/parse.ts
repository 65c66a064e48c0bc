/**
 * Helpers for the parser tests: parse a snippet and look at its nodes or diagnostics. Tests only.
 */
import type { Diagnostic } from '@spkg/manifest'
import type { Node, PartAst } from '../../src/ast.ts'
import { parseStory } from '../../src/parse/parse-story.ts'

/** Parses `src` as `t.sty` (or `path`). */
export function parse(src: string, path = 't.sty'): { ast: PartAst; diagnostics: Diagnostic[] } {
  return parseStory(src, { path })
}

/** Diagnostics as `code@line:column` strings. */
export function where(ds: Diagnostic[]): string[] {
  return ds.map((d) => `${d.code}@${d.line}:${d.column}`)
}

/** Parses `src`, requires no diagnostic, and returns its body. */
export function body(src: string): Node[] {
  const r = parse(src)
  if (r.diagnostics.length) throw new Error(`unexpected diagnostics: ${where(r.diagnostics).join(', ')}`)
  return r.ast.body
}

/** Removes positions (`pos`, `namePos`, `targetPos`, `pathPos`), for comparing trees. */
export function strip<T>(v: T): T {
  return JSON.parse(JSON.stringify(v, (k, x) => (k === 'pos' || k.endsWith('Pos') ? undefined : x)))
}
