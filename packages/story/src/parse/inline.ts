/**
 * Inline content (section 2): text, `${expr}`, inline `{if}`/`{set}`, style delimiters and links.
 * A paragraph is tokenised line by line, then its `{if}` structure is built across its lines.
 */

import type { DiagnosticCode } from '@spkg/manifest'
import type { AltMode, Expr, Inline, Pos } from '../ast.ts'
import { isCommandWord, parseCommand } from './command.ts'
import { type ParseContext, UNCLOSED_COMMAND } from './context.ts'
import { parseExpr } from './expression.ts'
import { createCloser, isAsciiPunct, type Line, posAt, TARGET_RE } from './scan.ts'

/** A flat inline token: an inline node or a piece of `{if}` structure. */
export type InlineToken = Inline | { k: 'cmd'; c: 'if' | 'elif' | 'else' | 'end'; cond?: Expr; pos: Pos }

/** Options of {@link tokenizeInline}. */
export interface InlineOptions {
  /** Where links are not allowed (`story/link-in-label`), the kind of line for the message. */
  noLinks?: string
  /** The code reported for a link where none is allowed. @default 'story/link-in-label' */
  linkCode?: DiagnosticCode
}

/** Tokenises `line.raw.slice(from, to)`. */
export function tokenizeInline(
  ctx: ParseContext,
  line: Line,
  from: number,
  to: number,
  opts: InlineOptions = {},
): InlineToken[] {
  const s = line.raw.slice(0, to)
  const findClose = createCloser(s)
  const out: InlineToken[] = []
  let text = ''
  const flush = () => {
    if (text) out.push({ k: 'text', v: text })
    text = ''
  }
  for (let i = from; i < to; i++) {
    const c = s[i]!
    if (c === '\\' && isAsciiPunct(s[i + 1])) {
      text += s[++i]
      continue
    }
    if (c === '$' && s[i + 1] === '{') {
      const close = findClose(i + 1)
      if (close < 0) {
        ctx.report(
          'story/unclosed-interpolation',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the message quotes the story's syntax
          "'${' is not closed; add '}' after the expression",
          posAt(line, i),
        )
        flush()
        return out
      }
      flush()
      if (!s.slice(i + 2, close).trim())
        ctx.report(
          'story/bad-expression',
          'expected an expression inside the interpolation',
          posAt(line, close),
        )
      else {
        const e = parseExpr(ctx, line, i + 2, close)
        if (e) out.push({ k: 'interp', e })
      }
      i = close
      continue
    }
    if (c === '{') {
      const close = findClose(i)
      if (close < 0) {
        ctx.report('story/unclosed-brace', UNCLOSED_COMMAND, posAt(line, i))
        flush()
        return out
      }
      flush()
      if (ctx.v11) {
        const alt = inlineAlt(ctx, line, s, i, close, findClose, opts)
        if (alt !== false) {
          if (alt) out.push(alt)
          i = close
          continue
        }
      }
      const cmd = parseCommand(ctx, line, i, close)
      if (cmd) {
        if (cmd.c === 'if' || cmd.c === 'elif')
          out.push({ k: 'cmd', c: cmd.c, cond: cmd.cond, pos: posAt(line, i) })
        else if (cmd.c === 'else' || cmd.c === 'end') out.push({ k: 'cmd', c: cmd.c, pos: posAt(line, i) })
        else if (cmd.c === 'set') out.push({ k: 'set', stmt: cmd.stmt })
        else ctx.report('story/unknown-command', `'{${cmd.c}}' must stand on its own line`, posAt(line, i))
      }
      i = close
      continue
    }
    if (c === '[') {
      const close = findClose(i)
      const inner = close < 0 || !mayEndWithTarget(s, close) ? '' : s.slice(i + 1, close)
      const sep = inner.lastIndexOf(' > ')
      const target = sep < 0 ? '' : inner.slice(sep + 3).trim()
      if (close >= 0 && sep >= 0 && TARGET_RE.test(target)) {
        flush()
        const pos = posAt(line, i)
        if (opts.noLinks)
          ctx.report(opts.linkCode ?? 'story/link-in-label', `a link cannot be part of ${opts.noLinks}`, pos)
        else {
          const targetPos = posAt(
            line,
            i + 1 + sep + 3 + (inner.slice(sep + 3).length - inner.slice(sep + 3).trimStart().length),
          )
          checkTarget(ctx, target, targetPos)
          const body = buildInline(ctx, tokenizeInline(ctx, line, i + 1, i + 1 + sep, { noLinks: 'a link' }))
          out.push({ k: 'link', body, target, pos, targetPos })
        }
        i = close
        continue
      }
    }
    if (c === '*') {
      flush()
      let n = 1
      while (s[i + n] === '*') n++
      i += n - 1
      while (n >= 2) {
        out.push({ k: 'delim', n: 2 })
        n -= 2
      }
      if (n === 1) out.push({ k: 'delim', n: 1 })
      continue
    }
    text += c
  }
  flush()
  return out
}

const ALT_KEYWORD = /^\s*(seq|cycle|once|shuffle)(?![A-Za-z0-9_])/
/** ink's sequence marks and the 1.1 keyword each means. */
const INK_MARKS: Readonly<Record<string, AltMode>> = { '&': 'cycle', '~': 'shuffle', '!': 'once' }

/** How deeply inline alternatives may nest in one another. */
const MAX_ALT_DEPTH = 64
let altDepth = 0

/**
 * 1.1: the inline alternative in the braces at `open` and `close` (`{seq a|b}`, also ink's
 * `{a|b}`, `{&a|b}`, `{~a|b}`, `{!a|b}` with the warning `story/ink-syntax`); `undefined` after
 * reporting one that cannot be read; `false` when the braces hold no alternative.
 */
function inlineAlt(
  ctx: ParseContext,
  line: Line,
  s: string,
  open: number,
  close: number,
  findClose: (open: number) => number,
  opts: InlineOptions,
): Extract<Inline, { k: 'alt' }> | undefined | false {
  const inner = s.slice(open + 1, close)
  const pos = posAt(line, open)
  const kw = ALT_KEYWORD.exec(inner)
  let mode: AltMode
  let from: number
  if (kw) {
    mode = kw[1] as AltMode
    from = open + 1 + kw[0].length
  } else {
    const word = /^\s*([A-Za-z_][A-Za-z0-9_]*)\b/.exec(inner)?.[1]
    if (word !== undefined && (isCommandWord(word) || word === 'or')) return false
    const ink = INK_MARKS[inner[0] ?? '']
    if (ink === undefined && !hasTopLevelBar(s, open + 1, close, findClose)) return false
    // ink's conditional text `{cond: a|b}` is not a sequence: left to the command parser
    if (ink === undefined && /^[^|{[]*:/.test(inner)) return false
    mode = ink ?? 'seq'
    from = open + 1 + (ink === undefined ? 0 : 1)
    ctx.lint?.inkAlt(ctx, ink === undefined ? undefined : inner[0], mode, s.slice(from, close), pos)
  }
  if (!s.slice(from, close).trim()) {
    ctx.report(
      'story/empty-alternative',
      `'{${mode}}' has no items; write them separated by '|': '{${mode} first|second}'`,
      pos,
    )
    return undefined
  }
  if (altDepth >= MAX_ALT_DEPTH) {
    ctx.report(
      'story/bad-expression',
      `alternatives nest more than ${MAX_ALT_DEPTH} deep in one line; this one is ignored`,
      pos,
    )
    return undefined
  }
  const items: Inline[][] = []
  const item = (a: number, b: number) => {
    while (a < b && (s[a] === ' ' || s[a] === '\t')) a++
    while (b > a && (s[b - 1] === ' ' || s[b - 1] === '\t') && s[b - 2] !== '\\') b--
    items.push(buildInline(ctx, tokenizeInline(ctx, line, a, b, opts)))
  }
  altDepth++
  try {
    let a = from
    for (let j = from; j < close; j++) {
      const ch = s[j]
      if (ch === '\\' && isAsciiPunct(s[j + 1])) j++
      else if (ch === '{' || ch === '[') {
        const k = findClose(j)
        if (k > j && k < close) j = k
      } else if (ch === '|') {
        item(a, j)
        a = j + 1
      }
    }
    item(a, close)
  } finally {
    altDepth--
  }
  return { k: 'alt', mode, items, id: '', pos }
}

/** True when `s` has a `|` between `from` and `to` outside nested braces and brackets. */
function hasTopLevelBar(s: string, from: number, to: number, findClose: (open: number) => number): boolean {
  for (let j = from; j < to; j++) {
    const ch = s[j]
    if (ch === '\\') j++
    else if (ch === '{' || ch === '[') {
      const k = findClose(j)
      if (k > j && k < to) j = k
    } else if (ch === '|') return true
  }
  return false
}

/** Reports `story/bad-target` for a target that escapes the archive. Returns true when it is safe. */
export function checkTarget(ctx: ParseContext, target: string, pos: Pos): boolean {
  const path = target.split(':')[0]!
  if (path.startsWith('/'))
    ctx.report('story/bad-target', 'target starts with / (targets are archive-relative)', pos)
  else if (path.split('/').includes('..'))
    ctx.report('story/bad-target', "target escapes the archive ('..')", pos)
  else if (!path.endsWith('.sty') || path.split('/').some((s) => s === '' || s === '.'))
    ctx.report(
      'story/bad-target',
      `'${target}' is not a part target (a path ending .sty, optionally :id)`,
      pos,
    )
  else return true
  return false
}

/** How deeply inline `{if}`s may nest in one paragraph. */
const MAX_INLINE_DEPTH = 64

/** Builds the `{if}` structure from tokens; reports unbalanced pieces. */
export function buildInline(ctx: ParseContext, tokens: InlineToken[]): Inline[] {
  type Frame = { node: Extract<Inline, { k: 'if' }>; target: Inline[]; pos: Pos; sawElse: boolean }
  const root: Inline[] = []
  const stack: Frame[] = []
  let target = root
  // `{if}`s beyond the nesting limit are dropped with their `{elif}`/`{else}`/`{end}`, so that
  // tree walkers never recurse without bound
  let dropped = 0
  for (const t of tokens) {
    if (t.k !== 'cmd') {
      target.push(t)
      continue
    }
    const top = stack[stack.length - 1]
    if (dropped > 0 && t.c !== 'if') {
      if (t.c === 'end') dropped--
      continue
    }
    if (t.c === 'if' && (dropped > 0 || stack.length >= MAX_INLINE_DEPTH)) {
      if (dropped++ === 0)
        ctx.report(
          'story/bad-expression',
          `inline '{if}' blocks nest more than ${MAX_INLINE_DEPTH} deep; this one is ignored`,
          t.pos,
        )
    } else if (t.c === 'if') {
      const node: Extract<Inline, { k: 'if' }> = {
        k: 'if',
        branches: [{ cond: t.cond!, body: [] }],
        otherwise: [],
      }
      target.push(node)
      stack.push({ node, target, pos: t.pos, sawElse: false })
      target = node.branches[0]!.body
    } else if (t.c === 'elif' || t.c === 'else') {
      if (!top)
        ctx.report('story/else-without-if', `'{${t.c}}' has no '{if}' before it in this paragraph`, t.pos)
      else if (top.sawElse) ctx.report('story/else-without-if', `'{${t.c}}' after '{else}'`, t.pos)
      else if (t.c === 'elif') {
        const b = { cond: t.cond!, body: [] as Inline[] }
        top.node.branches.push(b)
        target = b.body
      } else {
        top.sawElse = true
        target = top.node.otherwise
      }
    } else if (!top) ctx.report('story/unexpected-end', "'{end}' closes nothing", t.pos)
    else {
      stack.pop()
      target = top.target
    }
  }
  for (const f of stack)
    ctx.report('story/missing-end', "'{if}' is not closed by '{end}' within its paragraph", f.pos)
  return root
}

/**
 * A cheap test that the text before `close` can end with a target (`….sty` or `….sty:id`), so
 * that only plausible links pay for the full check: nested brackets stay linear.
 */
function mayEndWithTarget(s: string, close: number): boolean {
  let end = close
  while (end > 0 && s[end - 1] === ' ') end--
  if (s.startsWith('.sty', end - 4)) return true
  for (let colon = end - 1; colon >= Math.max(4, end - 66); colon--)
    if (s[colon] === ':') return s.startsWith('.sty', colon - 4)
  return false
}
