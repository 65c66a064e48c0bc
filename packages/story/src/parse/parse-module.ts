/**
 * `parseModule`: an extension module (`.xty`, section 8) to its syntax tree plus diagnostics.
 */

import type { ModuleAst, Node } from '../ast.ts'
import { BodyParser } from './body-parser.ts'
import { parseCommand } from './command.ts'
import { ParseContext, type ParseLints, reportRepeatedDefault, UNCLOSED_COMMAND } from './context.ts'
import { PARSE_LINTS } from './lint.ts'
import { type ParseOptions, type ParseResult, sortDiagnostics } from './parse-story.ts'
import { AltIds } from './resolve.ts'
import { posAt, splitLines } from './scan.ts'
import { sourceText } from './source.ts'

const ALLOWED = "a module holds only '{use}', '{set}', '{const}', '{fn}', '{passage}' and '{extern}'"

/**
 * Parses a module (`.xty`). Never throws: lines that are not declarations at column 1 get
 * `story/module-content`, and every other problem its own `story/...` diagnostic.
 *
 * @example
 * ```ts
 * const { ast } = parseModule('{const MAX = 10}\n{fn half(n) = n / 2}', { path: 'extensions/m.xty' })
 * ast.consts[0]?.name // 'MAX'
 * ast.fns[0]?.params // ['n']
 * ```
 */
export function parseModule(source: string | Uint8Array, options: ParseOptions): ParseResult<ModuleAst> {
  return readModule(source, options, PARSE_LINTS)
}

/**
 * {@link parseModule} with the author lints `lint` (lint.ts), or none: a run reads a module
 * without them. Internal.
 */
export function readModule(
  source: string | Uint8Array,
  options: ParseOptions,
  lint?: ParseLints,
): ParseResult<ModuleAst> {
  const ctx = new ParseContext(options.path, options.lang, lint)
  const lines = splitLines(sourceText(ctx, source))
  const lp = new BodyParser(ctx, lines)
  lp.passage = true
  const alts = new AltIds()
  const ast: ModuleAst = {
    kind: 'module',
    file: options.path,
    uses: [],
    defaults: [],
    consts: [],
    fns: [],
    passages: [],
    externs: [],
  }
  let i = 0
  while (i < lines.length) {
    const line = lines[i]!
    const kind = lp.kinds[i]!
    const pos = posAt(line, line.start)
    i++
    if (kind === 'blank' || kind === 'comment') continue
    if (kind === 'unclosed') {
      ctx.report('story/unclosed-brace', UNCLOSED_COMMAND, pos)
      continue
    }
    if (kind !== 'command') {
      ctx.report('story/module-content', `${ALLOWED}; this line is ${describe(kind)}`, pos)
      continue
    }
    if (line.indent > 0)
      ctx.report('story/module-content', 'module declarations start at column 1 (no indentation)', pos)
    const cmd = parseCommand(ctx, line, line.start, line.start + line.text.length - 1)
    if (!cmd) {
      // a `{passage …}` whose head cannot be read still owns the lines up to its `{end}`
      if (/^\{\s*passage\b/.test(line.text) || (ctx.v11 && /^\{\s*fn\b[^=]*\}$/.test(line.text)))
        i = skipPassage(lp, i)
      continue
    }
    switch (cmd.c) {
      case 'use':
        ast.uses.push({ module: cmd.module, pos, namePos: cmd.namePos })
        break
      case 'set':
        if (cmd.stmt.op !== '=')
          ctx.report(
            'story/bad-default',
            `a module default is written '{set ${cmd.stmt.name} = value}', not '${cmd.stmt.op}'`,
            // the command is not a default at all: its `{` (clarification 27)
            pos,
          )
        else {
          reportRepeatedDefault(ctx, ast.defaults, cmd.stmt)
          ast.defaults.push(cmd.stmt)
        }
        break
      case 'const':
        ast.consts.push({ name: cmd.name, e: cmd.e, pos, namePos: cmd.namePos })
        break
      case 'fn':
        ast.fns.push({ name: cmd.name, params: cmd.params, e: cmd.e, pos, namePos: cmd.namePos })
        break
      case 'fnblock': {
        lp.i = i
        lp.fnBody = true
        const body = lp.seq(-1)
        lp.fnBody = false
        i = lp.i
        if (i < lines.length && /^\{\s*end\s*\}$/.test(lines[i]!.text)) i++
        else ctx.report('story/missing-end', `'{fn ${cmd.name}(…)}' is not closed by '{end}'`, pos)
        checkFnBody(ctx, body)
        ast.blockFns ??= []
        ast.blockFns.push({
          name: cmd.name,
          params: cmd.params,
          refs: cmd.refs,
          body,
          pos,
          namePos: cmd.namePos,
        })
        break
      }
      case 'items':
        ast.items ??= []
        ast.items.push({ name: cmd.name, items: cmd.items, pos, namePos: cmd.namePos })
        break
      case 'extern':
        ast.externs.push({ ns: cmd.ns, fn: cmd.fn, params: cmd.params, pos, namePos: cmd.namePos })
        break
      case 'passage': {
        lp.i = i
        const body = lp.seq(-1)
        i = lp.i
        if (i < lines.length && /^\{\s*end\s*\}$/.test(lines[i]!.text)) i++
        else ctx.report('story/missing-end', `'{passage ${cmd.name}}' is not closed by '{end}'`, pos)
        if (ctx.v11) alts.nodes(body, cmd.name)
        ast.passages.push({ name: cmd.name, params: cmd.params, body, pos, namePos: cmd.namePos })
        break
      }
      case 'end':
        ctx.report('story/unexpected-end', "'{end}' closes nothing", pos)
        break
      case 'return':
        ctx.report(
          'story/return-placement',
          "'{return}' belongs inside a block function '{fn name(…)}' … '{end}'",
          pos,
        )
        break
      case 'temp':
        ctx.report(
          'story/module-content',
          `${ALLOWED}; '{temp}' belongs inside a function, a passage or a part`,
          pos,
        )
        break
      case 'elif':
      case 'else':
        ctx.report('story/else-without-if', `'{${cmd.c}}' has no '{if}' before it`, pos)
        break
      default:
        ctx.report('story/module-content', `${ALLOWED}; '{${cmd.c}}' belongs in a part`, pos)
    }
  }
  return { ast, diagnostics: sortDiagnostics(ctx.diagnostics) }
}

/** A block function holds `{temp}`, `{set}`, `{if}` and `{return}` lines only (text belongs in a passage). */
function checkFnBody(ctx: ParseContext, body: Node[]): void {
  for (const n of body) {
    if (n.kind === 'temp' || n.kind === 'set' || n.kind === 'return') continue
    if (n.kind === 'if') {
      for (const b of n.branches) checkFnBody(ctx, b.body)
      checkFnBody(ctx, n.otherwise)
      continue
    }
    ctx.report(
      'story/module-content',
      "a function's lines are '{temp}', '{set}', '{if}' and '{return}'; text and '{insert}' belong in a '{passage}'",
      n.pos,
    )
  }
}

function skipPassage(lp: BodyParser, i: number): number {
  lp.i = i
  lp.seq(-1)
  return lp.i < lp.lines.length ? lp.i + 1 : lp.i
}

function describe(kind: string): string {
  switch (kind) {
    case 'text':
      return 'text'
    case 'tags':
      return 'a tag line'
    default:
      return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`
  }
}
