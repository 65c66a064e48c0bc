/**
 * `parseStory`: a `.sty` part to its syntax tree plus every problem found, line by line.
 */
import type { Diagnostic } from '@spkg/manifest'
import type { DeclarationBlock, PartAst } from '../ast.ts'
import type { StoryLang } from '../lang.ts'
import { BodyParser } from './body-parser.ts'
import { parseCommand } from './command.ts'
import { ParseContext, type ParseLints, reportRepeatedDefault, UNCLOSED_COMMAND } from './context.ts'
import { PARSE_LINTS } from './lint.ts'
import { resolvePart } from './resolve.ts'
import { type Line, posAt, splitLines } from './scan.ts'
import { sourceText } from './source.ts'

/** Options of {@link parseStory} and {@link parseModule}. */
export interface ParseOptions {
  /** The archive-relative path of the file (`story/0001-inn.sty`); every diagnostic carries it. */
  path: string
  /**
   * The story-language version to read the file at (`manifest.story_lang`): `1.1` unlocks its
   * syntax; a 1.0 file reads the same at either. @default '1.0'
   */
  lang?: StoryLang
}

/** What {@link parseStory} and {@link parseModule} return. */
export interface ParseResult<T> {
  /** The syntax tree; lines that could not be read are left out of it. */
  ast: T
  /** Every problem found, sorted by line and column. Empty for a clean file. */
  diagnostics: Diagnostic[]
}

/**
 * Parses a part (`.sty`). Never throws: each line that cannot be read gets a `story/...`
 * diagnostic (with `path`, `line` and `column`) and parsing goes on with the next line.
 *
 * Bytes are decoded as UTF-8 (`story/encoding` when invalid); a leading BOM is ignored.
 *
 * @example
 * ```ts
 * const { ast, diagnostics } = parseStory('# Hall [#hall]\nHello, ${name}.', { path: 'story/hall.sty' })
 * ast.body[0] // { kind: 'heading', level: 1, id: 'hall', ... }
 * diagnostics // []
 * ```
 */
export function parseStory(source: string | Uint8Array, options: ParseOptions): ParseResult<PartAst> {
  return readPart(source, options, PARSE_LINTS)
}

/**
 * {@link parseStory} with the author lints `lint` (lint.ts), or none: a run reads a part without
 * them. Internal.
 */
export function readPart(
  source: string | Uint8Array,
  options: ParseOptions,
  lint?: ParseLints,
): ParseResult<PartAst> {
  const ctx = new ParseContext(options.path, options.lang, lint)
  const lines = splitLines(sourceText(ctx, source))
  const lp = new BodyParser(ctx, lines)
  const declarations = parseDeclarations(ctx, lines, lp)
  const body = lp.seq(-1)
  const ast: PartAst = { kind: 'part', file: options.path, declarations, body }
  resolvePart(ctx, lp, ast)
  return { ast, diagnostics: sortDiagnostics(ctx.diagnostics) }
}

/**
 * Reads the declaration block (section 4): leading blank lines, comments, tag lines, `{use}`,
 * `{seed}` and `{set}`, and at 1.1 `{const}`. Leaves `lp.i` at the first line of the body.
 */
function parseDeclarations(ctx: ParseContext, lines: Line[], lp: BodyParser): DeclarationBlock {
  const block: DeclarationBlock = { tags: [], uses: [], defaults: [] }
  let i = 0
  for (; i < lines.length; i++) {
    const line = lines[i]!
    const kind = lp.kinds[i]!
    if (kind === 'blank' || kind === 'comment') continue
    if (kind === 'tags') {
      block.tags.push(...lp.tagLine(line))
      continue
    }
    const word = /^\{\s*([a-z]+)\b/.exec(line.text)?.[1]
    if (
      word !== 'use' &&
      word !== 'seed' &&
      word !== 'set' &&
      !(ctx.v11 && (word === 'const' || word === 'items'))
    )
      break
    const pos = posAt(line, line.start)
    if (kind === 'unclosed') {
      ctx.report('story/unclosed-brace', UNCLOSED_COMMAND, pos)
      continue
    }
    if (kind !== 'command') break
    const cmd = parseCommand(ctx, line, line.start, line.start + line.text.length - 1)
    if (!cmd) continue
    if (cmd.c === 'use') block.uses.push({ module: cmd.module, pos, namePos: cmd.namePos })
    else if (cmd.c === 'const') {
      block.consts ??= []
      block.consts.push({ name: cmd.name, e: cmd.e, pos, namePos: cmd.namePos })
    } else if (cmd.c === 'seed') {
      if (block.seed)
        ctx.report(
          'story/seed-placement',
          `a second '{seed}'; line ${block.seed.pos.line} already sets it`,
          pos,
        )
      else block.seed = { value: cmd.value, pos }
    } else if (cmd.c === 'set') {
      if (cmd.stmt.op !== '=')
        ctx.report(
          'story/bad-default',
          `a default is written '{set ${cmd.stmt.name} = value}'; '${cmd.stmt.op}' needs a value to change`,
          // the command is not a default at all: its `{` (clarification 27)
          pos,
        )
      else {
        reportRepeatedDefault(ctx, block.defaults, cmd.stmt)
        block.defaults.push(cmd.stmt)
      }
    } else if (cmd.c === 'items') {
      block.items ??= []
      block.items.push({ name: cmd.name, items: cmd.items, pos, namePos: cmd.namePos })
    }
  }
  lp.i = i
  return block
}

/** Sorts diagnostics by line then column, keeping the order of equal positions. */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds
    .map((d, n) => ({ d, n }))
    .sort((a, b) => (a.d.line ?? 0) - (b.d.line ?? 0) || (a.d.column ?? 0) - (b.d.column ?? 0) || a.n - b.n)
    .map((x) => x.d)
}
