/**
 * Commands `{keyword …}` (sections 2, 4, 8): one brace group parsed into a typed command.
 */

import { RESERVED_WORDS } from '@spkg/manifest'
import type { AltMode, Expr, Pos, SetStmt } from '../ast.ts'
import { editDistance } from '../suggest.ts'
import type { ParseContext } from './context.ts'
import { parseExpr, withExprParser } from './expression.ts'
import { ID_ONLY, type Line, posAt } from './scan.ts'

/** A parsed command. */
export type Command =
  | { c: 'if' | 'elif'; cond: Expr }
  | { c: 'else' | 'end' }
  | { c: 'set'; stmt: SetStmt }
  | { c: 'local'; name: string; namePos: Pos; e: Expr }
  | { c: 'use'; module: string; namePos: Pos }
  | { c: 'seed'; value: number }
  | { c: 'insert'; name: string; namePos: Pos; args: Expr[] }
  | { c: 'call'; ns: string; fn: string; namePos: Pos; args: Expr[] }
  | { c: 'const'; name: string; namePos: Pos; e: Expr }
  | { c: 'fn'; name: string; namePos: Pos; params: string[]; e: Expr }
  /** 1.1: the head of a block function, `{fn f(a, ref b)}`. */
  | { c: 'fnblock'; name: string; namePos: Pos; params: string[]; refs: boolean[] }
  /** 1.1: `{items Tools = rope, lamp "oil lamp"}`. */
  | { c: 'items'; name: string; namePos: Pos; items: Array<{ name: string; pos: Pos; text?: string }> }
  /** 1.1: `{temp n = e}`. */
  | { c: 'temp'; name: string; namePos: Pos; e: Expr }
  /** 1.1: `{return e}` or `{return}`. */
  | { c: 'return'; e?: Expr }
  | { c: 'passage'; name: string; namePos: Pos; params: string[] }
  | { c: 'extern'; ns: string; fn: string; namePos: Pos; params: string[] }
  /** 1.1: the head of a block alternative (`{seq}` alone on its line) and its branch separator. */
  | { c: 'alt'; mode: AltMode }
  | { c: 'or' }

const COMMANDS = new Set([
  'if',
  'elif',
  'else',
  'end',
  'set',
  'local',
  'use',
  'seed',
  'insert',
  'call',
  'const',
  'fn',
  'passage',
  'extern',
])
/** The commands 1.1 adds: unknown commands at 1.0, as they were. */
const COMMANDS_11 = new Set(['items', 'temp', 'return'])
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/

/** True when `word` is a command keyword of 1.0 (`if`, `set`, …). */
export function isCommandWord(word: string): boolean {
  return COMMANDS.has(word)
}

/** 1.1: the keywords of alternatives (section 2 of the 1.1 design). */
export const ALT_MODES: ReadonlySet<string> = new Set<AltMode>(['seq', 'cycle', 'once', 'shuffle'])

/**
 * Parses the command between the braces at `open` and `close` of `line`. Reports a problem and
 * returns undefined when it cannot be read.
 */
export function parseCommand(
  ctx: ParseContext,
  line: Line,
  open: number,
  close: number,
): Command | undefined {
  const pos = posAt(line, open)
  const inner = line.raw.slice(open + 1, close)
  const kw = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(inner)
  if (ctx.v11 && kw && (ALT_MODES.has(kw[1]!) || kw[1] === 'or')) {
    // Inline alternatives are read by the inline tokenizer; here only the block form's lines.
    const rest = inner.slice(kw[0].length)
    if (rest.trim())
      return bad(
        ctx,
        `'{${kw[1]}}' takes nothing after it on its own line: write '{${kw[1]}}' alone`,
        posAt(line, open + 1 + kw[0].length + (/\S/.exec(rest)?.index ?? 0)),
      )
    return kw[1] === 'or' ? { c: 'or' } : { c: 'alt', mode: kw[1] as AltMode }
  }
  if (!kw || !(COMMANDS.has(kw[1]!) || (ctx.v11 && COMMANDS_11.has(kw[1]!)))) {
    const shown = kw?.[1] ?? inner.trim().slice(0, 12)
    const meant = meantCommand(kw?.[1], inner)
    const ink = meant ? undefined : inkBrace(inner)
    ctx.report(
      'story/unknown-command',
      meant
        ? `unknown command '{${shown}}'; did you mean '{${meant}}'? (write \\{ for a literal brace)`
        : ink
          ? `unknown command '{${shown}}': ${ink}, or \\{ for a literal brace`
          : `unknown command '{${shown}}'; write \\{ for a literal brace`,
      // about the whole command: its `{` (STORY-LANGUAGE.md clarification 27)
      pos,
    )
    return undefined
  }
  const word = kw[1]!
  const from = open + 1 + kw[0].length
  const rest = line.raw.slice(from, close)
  /** The first character after the keyword that is not blank (the `}` when there is none). */
  const restPos = () => posAt(line, from + (/\S/.exec(rest)?.index ?? rest.length))
  switch (word) {
    case 'if':
    case 'elif': {
      if (!rest.trim()) return bad(ctx, `'{${word}}' needs a condition`, posAt(line, close))
      const cond = parseExpr(ctx, line, from, close)
      return cond && { c: word, cond }
    }
    case 'else':
    case 'end':
      if (rest.trim()) {
        if (word === 'else' && /^\s*if\b/.test(rest))
          return bad(ctx, "'{else if …}' is written '{elif …}': use '{elif condition}'", restPos())
        return bad(ctx, `'{${word}}' takes nothing after it: write '{${word}}' alone`, restPos())
      }
      return { c: word }
    case 'set': {
      const a = parseAssignment(ctx, line, from, close, pos)
      return a && { c: 'set', stmt: a.stmt }
    }
    case 'local':
    case 'temp': {
      const a = parseAssignment(ctx, line, from, close, pos)
      if (!a) return undefined
      if (a.stmt.op !== '=') return bad(ctx, `'{${word}}' defines a value with '='`, a.opPos)
      return { c: word, name: a.stmt.name, namePos: a.stmt.namePos, e: a.stmt.e }
    }
    case 'return': {
      if (!rest.trim()) return { c: 'return' }
      const e = parseExpr(ctx, line, from, close)
      return e && { c: 'return', e }
    }
    case 'items':
      return parseItems(ctx, line, from, close)
    case 'use': {
      const m = rest.trim()
      if (!/^[A-Za-z0-9_./-]+$/.test(m))
        return bad(ctx, "'{use}' names a module: '{use combat}' or '{use extensions/combat.xty}'", restPos())
      return { c: 'use', module: m, namePos: restPos() }
    }
    case 'seed': {
      const m = rest.trim()
      if (!/^-?[0-9]+$/.test(m)) return bad(ctx, "'{seed}' takes a whole number", restPos())
      const value = Number(m)
      if (value < 0 || value > 0xffffffff) {
        ctx.report('story/seed-range', `seed ${m} is outside 0..4294967295; it is ignored`, restPos())
        return undefined
      }
      return { c: 'seed', value }
    }
    case 'insert':
    case 'call':
    case 'fn':
    case 'passage':
    case 'extern':
    case 'const':
      return parseDeclarationLike(ctx, line, word, from, close, pos)
  }
  return undefined
}

function bad(ctx: ParseContext, message: string, pos: Pos): undefined {
  ctx.report('story/bad-expression', message, pos)
  return undefined
}

function parseAssignment(
  ctx: ParseContext,
  line: Line,
  from: number,
  close: number,
  pos: Pos,
): { stmt: SetStmt; opPos: Pos } | undefined {
  const rest = line.raw.slice(from, close)
  const m = /^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*(\+=|-=|=)(?!=)/.exec(rest)
  const compared = m ? undefined : /^(\s*[A-Za-z_][A-Za-z0-9_]*\s*)==/.exec(rest)
  if (compared)
    return bad(
      ctx,
      "'==' compares; an assignment has one '=': write 'name = value'",
      posAt(line, from + compared[1]!.length),
    )
  if (!m)
    return bad(
      ctx,
      "expected 'name = value', 'name += value' or 'name -= value'",
      posAt(line, from + (/\S/.exec(rest)?.index ?? 0)),
    )
  const nameAt = from + m[1]!.length
  if (isReservedName(m[2]!))
    return bad(ctx, `'${m[2]}' is a reserved word and cannot name a variable`, posAt(line, nameAt))
  const exprFrom = from + m[0].length
  if (!line.raw.slice(exprFrom, close).trim())
    return bad(ctx, `expected an expression after '${m[3]}'`, posAt(line, close))
  const e = parseExpr(ctx, line, exprFrom, close)
  if (!e) return undefined
  const stmt: SetStmt = { name: m[2]!, op: m[3] as SetStmt['op'], e, pos, namePos: posAt(line, nameAt) }
  return { stmt, opPos: posAt(line, exprFrom - m[3]!.length) }
}

function parseDeclarationLike(
  ctx: ParseContext,
  line: Line,
  word: string,
  from: number,
  close: number,
  pos: Pos,
): Command | undefined {
  const rest = line.raw.slice(from, close)
  const lead = /^\s*/.exec(rest)![0].length
  if (word === 'const') {
    const a = parseAssignment(ctx, line, from, close, pos)
    if (!a) return undefined
    if (a.stmt.op !== '=') return bad(ctx, "'{const}' defines a value with '='", a.opPos)
    return { c: 'const', name: a.stmt.name, namePos: a.stmt.namePos, e: a.stmt.e }
  }
  const namePos = posAt(line, from + lead)
  return withExprParser(ctx, line, from, close, (p) => {
    p.i = lead
    const first = NAME.exec(rest.slice(p.i))?.[0]
    if (!first) return p.fail(`expected a name after '{${word}'`)
    if ((word === 'fn' || word === 'passage') && isReservedName(first))
      return p.fail(
        `'${first}' is a reserved word and cannot name a ${word === 'fn' ? 'function' : 'passage'}`,
      )
    p.i += first.length
    let ns: string | undefined
    let name = first
    if (word === 'call' || word === 'extern') {
      p.expect('.', `'.' (write '{${word} namespace.function(...)}')`)
      ns = first
      const fn = NAME.exec(rest.slice(p.i))?.[0]
      if (!fn) return p.fail("expected a function name after '.'")
      p.i += fn.length
      name = fn
    }
    if (word === 'insert' || word === 'call') {
      const args = p.eat('(') ? p.args(')') : []
      p.ws()
      if (p.i < rest.length) p.fail(`unexpected '${rest.slice(p.i, p.i + 8)}' after the arguments`)
      return word === 'insert'
        ? { c: 'insert', name, namePos, args }
        : { c: 'call', ns: ns!, fn: name, namePos, args }
    }
    const params: string[] = []
    const refs: boolean[] = []
    if (p.eat('(') && !p.eat(')')) {
      for (;;) {
        p.ws()
        // 1.1: `ref name` in a function's parameters (a parameter may still be named `ref`)
        const isRef = ctx.v11 && word === 'fn' && /^ref[ \t]+[A-Za-z_]/.test(rest.slice(p.i))
        if (isRef) {
          p.i += 3
          p.ws()
        }
        refs.push(isRef)
        const param = NAME.exec(rest.slice(p.i))?.[0]
        if (!param) return p.fail('expected a parameter name')
        if (isReservedName(param)) return p.fail(`'${param}' is a reserved word and cannot name a parameter`)
        params.push(param)
        p.i += param.length
        if (p.eat(')')) break
        p.expect(',', "',' or ')'")
      }
    }
    if (word === 'fn') {
      p.ws()
      // 1.1: no `=` after the head: a block function, its lines up to `{end}`
      if (ctx.v11 && p.i >= rest.length) return { c: 'fnblock', name, namePos, params, refs }
      if (refs.includes(true))
        p.fail("a 'ref' parameter belongs to a block function '{fn name(ref x)}' … '{end}'")
      if (rest.startsWith('==', p.i))
        p.fail("a function is written '{fn name(params) = expression}', with one '='")
      p.expect('=', "'=' and the function's expression")
      const e = p.parseAll()
      return { c: 'fn', name, namePos, params, e }
    }
    p.ws()
    if (p.i < rest.length) p.fail(`unexpected '${rest.slice(p.i, p.i + 8)}'`)
    if (word === 'passage') return { c: 'passage', name, namePos, params }
    return { c: 'extern', ns: ns!, fn: name, namePos, params }
  })
}

/** `{items Name = a, b "text", c}`: a set declaration (1.1); an item may say the text it prints. */
function parseItems(ctx: ParseContext, line: Line, from: number, close: number): Command | undefined {
  const rest = line.raw.slice(from, close)
  const m = /^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/.exec(rest)
  if (!m)
    return bad(
      ctx,
      "a set is declared '{items Name = first, second, third}'",
      posAt(line, from + (/\S/.exec(rest)?.index ?? 0)),
    )
  const name = m[2]!
  const namePos = posAt(line, from + m[1]!.length)
  if (isReservedName(name)) return bad(ctx, `'${name}' is a reserved word and cannot name a set`, namePos)
  const items: Array<{ name: string; pos: Pos; text?: string }> = []
  const seen = new Set<string>()
  let at = m[0].length
  for (;;) {
    const lead = /^\s*/.exec(rest.slice(at))![0].length
    at += lead
    const item = NAME.exec(rest.slice(at))?.[0]
    if (!item) return bad(ctx, `expected an item name in '{items ${name} = …}'`, posAt(line, from + at))
    const pos = posAt(line, from + at)
    if (isReservedName(item)) return bad(ctx, `'${item}' is a reserved word and cannot name an item`, pos)
    if (seen.has(item)) return bad(ctx, `'${item}' is listed twice in '{items ${name}}'; list it once`, pos)
    seen.add(item)
    at += item.length
    const text = /^\s*"([^"\\{}]+)"/.exec(rest.slice(at))
    items.push(text ? { name: item, pos, text: text[1]! } : { name: item, pos })
    if (text) at += text[0].length
    const sep = /^\s*(,?)/.exec(rest.slice(at))!
    at += sep[0].length
    if (at >= rest.length) break
    if (!sep[1])
      return bad(ctx, `expected ',' between the items of '{items ${name}}'`, posAt(line, from + at))
  }
  return { c: 'items', name, namePos, items }
}

/** Words other languages close or chain blocks with, and the command meant. */
const MEANT: Readonly<Record<string, string>> = {
  endif: 'end',
  end_if: 'end',
  fi: 'end',
  endpassage: 'end',
  elsif: 'elif',
  elseif: 'elif',
  else_if: 'elif',
  let: 'set',
  var: 'set',
  import: 'use',
  include: 'insert',
  function: 'fn',
  def: 'fn',
}

/**
 * The command an unknown one most likely meant: `{endif}`, `{fi}` and `{/if}` mean `{end}`,
 * `{elsif}` and `{elseif}` mean `{elif}`; a command word in other case or one typo away from one
 * (`{IF …}`, `{iff …}`, `{sett …}`) means that word. Undefined when nothing is close.
 */
/** Commands written with nothing after the keyword. */
const BARE_COMMANDS = new Set(['else', 'end', 'or'])

/**
 * ink's braces written as a command, and what to write instead: `{x}` (ink prints a value or a
 * read count), `{cond: a|b}` (conditional text) and `{cond}` (a condition, as on an option).
 */
function inkBrace(inner: string): string | undefined {
  const t = inner.trim()
  if (t.length > 80) return undefined
  const colon = /^([^:{}"|]+?):(?!:)([^{}]*)$/.exec(t)
  if (colon) {
    const cond = colon[1]!.trim()
    const bar = colon[2]!.indexOf('|')
    const yes = (bar < 0 ? colon[2]! : colon[2]!.slice(0, bar)).trim()
    const no = bar < 0 ? '' : `{else}${colon[2]!.slice(bar + 1).trim()}`
    return `this is ink's conditional text; write '{if ${cond}}${yes}${no}{end}'`
  }
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(t))
    return `this is how ink prints a value; write '\${${t}}' (for a section's read count, '\${visits(#${t})}')`
  if (/^(?:not\s|!)|[<>]|[=!]=| and | or |\?/.test(t)) return `this is an ink condition; write '{if ${t}}'`
  return undefined
}

function meantCommand(word: string | undefined, inner: string): string | undefined {
  if (word === undefined) return /^\s*\//.test(inner) ? 'end' : undefined
  const lower = word.toLowerCase()
  if (MEANT[lower]) return MEANT[lower]
  // a bare `{word}` means a command only if that command stands alone (`{els}`: `{else}`)
  const bare = /^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(inner)
  const fits = (c: string) => (!bare || BARE_COMMANDS.has(c) ? c : undefined)
  if (COMMANDS.has(lower)) return fits(lower)
  if (word.length < 3) return undefined
  for (const c of COMMANDS) if (c.length >= 3 && editDistance(lower, c, 1) === 1) return fits(c)
  return undefined
}

/** True for the reserved words of clarification 18 and `d<digits>`. */
export function isReservedName(name: string): boolean {
  return RESERVED_WORDS.has(name) || /^d[0-9]+$/.test(name)
}

/** True when `id` is a valid id (for messages elsewhere). */
export function isId(id: string): boolean {
  return ID_ONLY.test(id)
}
