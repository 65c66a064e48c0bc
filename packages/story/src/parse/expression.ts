/**
 * Expressions (STORY-LANGUAGE.md section 6): a recursive-descent parser over one line's text.
 * Errors become `story/bad-expression` at the offending token; the caller skips the construct.
 */
import { RESERVED_WORDS } from '@spkg/manifest'
import type { BinOp, Expr, Pos } from '../ast.ts'
import type { ParseContext } from './context.ts'
import { type Line, posAt } from './scan.ts'

/** A syntax error: message and the UTF-16 offset it points at. */
export class ExprSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

const COMPARISONS: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>='])

/**
 * The fix for a common mistake at the start of `rest` (operators from other languages, a single
 * `=`, single quotes), as a message suffix; empty when there is none.
 */
function hint(rest: string): string {
  if (rest.startsWith('=>')) return "; did you mean '>='?"
  if (rest.startsWith('=<')) return "; did you mean '<='?"
  if (/^=(?!=)/.test(rest)) return "; did you mean '=='? (a single '=' assigns, and only in '{set}')"
  if (/^&&?/.test(rest)) return "; did you mean 'and'?"
  if (/^\|\|?/.test(rest)) return "; did you mean 'or'?"
  if (/^!(?!=)/.test(rest)) return "; did you mean 'not'?"
  if (rest.startsWith("'")) return '; strings are written in double quotes ("text")'
  return ''
}

/**
 * How deep an expression's tree may grow: each parenthesis, list, `not`, unary minus and each
 * operator or postfix in a chain adds a level. Bounds the recursion of every tree walker.
 */
const MAX_NESTING = 256

const ID_RE = /^[A-Za-z][A-Za-z0-9_-]{0,63}/
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*/
const NUM_RE = /^[0-9]+(?:\.[0-9]+)?/
/** 1.1: a part target as the only argument (`b.sty`, `story/b.sty:hall`), then the `)`. */
const TARGET_ARG = /^([ \t]*)([^\s:(),"#]+\.sty(?::[A-Za-z][A-Za-z0-9_-]{0,63})?)[ \t]*\)/

/** Parses expressions from `src`; `toPos(offset)` maps offsets to source positions. */
export class ExprParser {
  i = 0
  /** 1.1: `visits()` and `turns()` also take a part target (`visits(b.sty:hall)`). */
  v11 = false
  constructor(
    readonly src: string,
    readonly toPos: (offset: number) => Pos,
  ) {}

  fail(message: string, at = this.i): never {
    throw new ExprSyntaxError(message, at)
  }

  ws(): void {
    while (this.i < this.src.length && (this.src[this.i] === ' ' || this.src[this.i] === '\t')) this.i++
  }

  peekWord(): string | undefined {
    this.ws()
    return NAME_RE.exec(this.src.slice(this.i))?.[0]
  }

  eat(s: string): boolean {
    this.ws()
    if (this.src.startsWith(s, this.i)) {
      this.i += s.length
      return true
    }
    return false
  }

  eatWord(w: string): boolean {
    if (this.peekWord() === w) {
      this.i += w.length
      return true
    }
    return false
  }

  expect(s: string, what = `'${s}'`): void {
    if (!this.eat(s)) this.fail(`expected ${what}${this.describeHere()}${hint(this.src.slice(this.i))}`)
  }

  describeHere(): string {
    this.ws()
    return this.i >= this.src.length ? ' at the end' : ` before '${this.src.slice(this.i, this.i + 8)}'`
  }

  /** Parses a whole expression and requires the end of the input. */
  parseAll(): Expr {
    const e = this.expr()
    this.ws()
    if (this.i < this.src.length) {
      const rest = this.src.slice(this.i)
      const chained =
        e.k === 'bin' && COMPARISONS.has(e.op) && /^(?:==|!=|<=|>=|<|>)/.test(rest)
          ? "; comparisons do not chain: join two with 'and' (a < b and b < c)"
          : hint(rest)
      this.fail(`unexpected '${rest.slice(0, 8)}' after the expression${chained}`)
    }
    return e
  }

  expr(): Expr {
    this.enter()
    try {
      return this.or()
    } finally {
      this.depth--
    }
  }

  private depth = 0

  /** Bounds nesting so that adversarial input gives a diagnostic, not a stack overflow. */
  private enter(): void {
    if (++this.depth > MAX_NESTING)
      this.fail(`the expression is nested or chained more than ${MAX_NESTING} levels deep; split it up`)
  }

  private or(): Expr {
    let a = this.and()
    const depth = this.depth
    try {
      for (;;) {
        const at = this.i
        if (!this.eatWord('or')) return a
        this.enter()
        a = { k: 'bin', op: 'or', a, b: this.operand('or', () => this.and()), pos: this.toPos(at) }
      }
    } finally {
      this.depth = depth
    }
  }

  private and(): Expr {
    let a = this.not()
    const depth = this.depth
    try {
      for (;;) {
        const at = this.i
        if (!this.eatWord('and')) return a
        this.enter()
        a = { k: 'bin', op: 'and', a, b: this.operand('and', () => this.not()), pos: this.toPos(at) }
      }
    } finally {
      this.depth = depth
    }
  }

  private not(): Expr {
    this.ws()
    const at = this.i
    if (this.eatWord('not')) {
      this.enter()
      try {
        return { k: 'un', op: 'not', e: this.operand('not', () => this.not()), pos: this.toPos(at) }
      } finally {
        this.depth--
      }
    }
    return this.cmp()
  }

  private cmp(): Expr {
    const a = this.sum()
    this.ws()
    const at = this.i
    for (const op of ['==', '!=', '<=', '>=', '<', '>'] as const) {
      if (this.src.startsWith(op, this.i)) {
        this.i += op.length
        return { k: 'bin', op, a, b: this.operand(op, () => this.sum()), pos: this.toPos(at) }
      }
    }
    return a
  }

  private sum(): Expr {
    let a = this.prod()
    const depth = this.depth
    try {
      for (;;) {
        this.ws()
        const c = this.src[this.i]
        if (c !== '+' && c !== '-') return a
        const at = this.i++
        this.enter()
        a = { k: 'bin', op: c, a, b: this.operand(c, () => this.prod()), pos: this.toPos(at) }
      }
    } finally {
      this.depth = depth
    }
  }

  private prod(): Expr {
    let a = this.unary()
    const depth = this.depth
    try {
      for (;;) {
        this.ws()
        const c = this.src[this.i]
        if (c !== '*' && c !== '/' && c !== '%') return a
        const at = this.i++
        this.enter()
        a = { k: 'bin', op: c as BinOp, a, b: this.operand(c, () => this.unary()), pos: this.toPos(at) }
      }
    } finally {
      this.depth = depth
    }
  }

  private unary(): Expr {
    this.ws()
    if (this.src[this.i] === '-') {
      const at = this.i++
      this.enter()
      try {
        return { k: 'un', op: '-', e: this.operand('-', () => this.unary()), pos: this.toPos(at) }
      } finally {
        this.depth--
      }
    }
    return this.post()
  }

  /** Parses the right operand of `op`, with the message of E8 when it is missing. */
  private operand(op: string, parse: () => Expr): Expr {
    this.ws()
    if (this.i >= this.src.length || /^[)\]},]/.test(this.src[this.i]!))
      this.fail(`expected an expression after '${op}'`)
    return parse()
  }

  private post(): Expr {
    const e = this.prim()
    const depth = this.depth
    try {
      return this.postfix(e)
    } finally {
      this.depth = depth
    }
  }

  private postfix(first: Expr): Expr {
    let e = first
    for (;;) {
      const at = this.i
      if (this.src[this.i] === '(' || this.src[this.i] === '[' || this.src[this.i] === '.') this.enter()
      if (this.src[this.i] === '(' && e.k === 'name') {
        this.i++
        const target = this.v11 && (e.name === 'visits' || e.name === 'turns') ? this.target() : undefined
        e = { k: 'call', callee: e.name, args: target ? [target] : this.args(')'), pos: e.pos }
      } else if (this.src[this.i] === '(' && e.k === 'field' && e.e.k === 'name') {
        this.i++
        e = { k: 'call', callee: `${e.e.name}.${e.name}`, args: this.args(')'), pos: e.e.pos }
      } else if (this.src[this.i] === '[') {
        this.i++
        const index = this.operand('[', () => this.expr())
        this.expect(']')
        e = { k: 'index', e, index, pos: this.toPos(at) }
      } else if (this.src[this.i] === '.') {
        this.i++
        const name = NAME_RE.exec(this.src.slice(this.i))?.[0]
        if (!name) this.fail("expected a key name after '.'")
        this.i += name.length
        e = { k: 'field', e, name, pos: this.toPos(at) }
      } else return e
    }
  }

  /**
   * 1.1: a part target `path[:id]` alone between the parentheses of `visits()` or `turns()`, and
   * the `)`; `undefined` (nothing consumed) when the arguments are not one.
   */
  private target(): Expr | undefined {
    const m = TARGET_ARG.exec(this.src.slice(this.i))
    if (!m) return undefined
    const at = this.i + m[1]!.length
    this.i += m[0].length
    return { k: 'target', target: m[2]!, pos: this.toPos(at) }
  }

  /** Parses arguments up to `close` (the opener already eaten). */
  args(close: string): Expr[] {
    const out: Expr[] = []
    if (this.eat(close)) return out
    for (;;) {
      out.push(this.operand(out.length === 0 ? '(' : ',', () => this.expr()))
      if (this.eat(close)) return out
      this.expect(',', `',' or '${close}'`)
    }
  }

  private prim(): Expr {
    this.ws()
    const at = this.i
    const pos = this.toPos(at)
    const rest = this.src.slice(at)
    const c = rest[0]
    if (c === undefined) this.fail('expected an expression')
    if (c === '(') {
      this.i++
      const e = this.operand('(', () => this.expr())
      this.expect(')')
      return e
    }
    if (c === '[') {
      this.i++
      return { k: 'list', items: this.args(']'), pos }
    }
    if (c === '"') return this.string(pos)
    if (c === '#') {
      const id = ID_RE.exec(rest.slice(1))?.[0]
      if (!id) this.fail("expected an id after '#'")
      this.i += 1 + id.length
      return { k: 'ref', id, pos }
    }
    const dice = /^([0-9]*)d([0-9]+)(?![A-Za-z0-9_.])/.exec(rest)
    if (dice) {
      this.i += dice[0].length
      return { k: 'dice', n: dice[1] ? Number(dice[1]) : 1, m: Number(dice[2]), pos }
    }
    const num = NUM_RE.exec(rest)
    if (num) {
      this.i += num[0].length
      if (/^[A-Za-z_]/.test(this.src.slice(this.i)))
        this.fail(`a number cannot run into a name ('${rest.slice(0, num[0].length + 1)}')`, at)
      return { k: 'num', v: Number(num[0]), pos }
    }
    const name = NAME_RE.exec(rest)?.[0]
    if (name) {
      this.i += name.length
      if (name === 'true' || name === 'false') return { k: 'bool', v: name === 'true', pos }
      if (RESERVED_WORDS.has(name)) this.fail(`'${name}' is a reserved word, not a value`, at)
      return { k: 'name', name, pos }
    }
    this.fail(`unexpected '${c}'${hint(rest)}`)
  }

  private string(pos: Pos): Expr {
    const start = this.i
    this.i++
    let v = ''
    while (this.i < this.src.length) {
      const c = this.src[this.i]!
      if (c === '"') {
        this.i++
        return { k: 'str', v, pos }
      }
      if (c === '\\') {
        const n = this.src[this.i + 1]
        if (n === '"' || n === '\\') v += n
        else if (n === 'n') v += '\n'
        else if (n === 't') v += '\t'
        else if (n === 'u') {
          const m = /^\\u\{([0-9A-Fa-f]{1,6})\}/.exec(this.src.slice(this.i))
          const cp = m ? Number.parseInt(m[1]!, 16) : -1
          if (!m || cp > 0x10ffff) this.fail('a \\u escape is written \\u{hex}')
          v += String.fromCodePoint(cp)
          this.i += m[0].length
          continue
        } else this.fail(`unknown escape '\\${n ?? ''}' in a string`)
        this.i += 2
        continue
      }
      v += c
      this.i++
    }
    this.fail('the string is not closed', start)
  }
}

/** Parses `line.raw.slice(from, to)` as one expression; reports and returns undefined on error. */
export function parseExpr(ctx: ParseContext, line: Line, from: number, to: number): Expr | undefined {
  return withExprParser(ctx, line, from, to, (p) => p.parseAll())
}

/** Runs `parse` on an {@link ExprParser} over `line.raw.slice(from, to)`; reports syntax errors. */
export function withExprParser<T>(
  ctx: ParseContext,
  line: Line,
  from: number,
  to: number,
  parse: (p: ExprParser) => T,
): T | undefined {
  const p = new ExprParser(line.raw.slice(from, to), (o) => posAt(line, from + o))
  p.v11 = ctx.v11
  try {
    return parse(p)
  } catch (e) {
    if (!(e instanceof ExprSyntaxError)) throw e
    ctx.report('story/bad-expression', e.message, posAt(line, from + e.offset))
    return undefined
  }
}
