/**
 * 1.1: static types of sets. A story variable whose every `=` assignment in the package is a set
 * of one declaration is a set; `+`, `-`, comparisons and `contains()` between such a set and a
 * value the checker can see is not one (a number, text, a list, a boolean) are `story/type-error`,
 * which play would otherwise only meet as a `false`. Internal.
 */
import type { Expr, SetStmt } from '../ast.ts'
import type { CheckContext, Scope } from './context.ts'

/** What the checker can tell of an expression's type: `set:Tools`, or a 1.0 type; undefined when it cannot. */
type Type = `set:${string}` | 'number' | 'string' | 'boolean' | 'list' | undefined

/** Where a name is read or assigned: the scope of its file and the names that hide story variables. */
interface Where {
  file: string
  scope: Scope
  /** Parameters, temps and locals that may hide a story variable there. */
  hidden: (name: string) => boolean
}

const STRING_FNS = new Set(['str', 'upper', 'lower', 'cap', 'join'])
const NUMBER_FNS = new Set(['len', 'abs', 'floor', 'ceil', 'round', 'num', 'random', 'roll'])

/** The set types of the package, decided once every file has been seen. */
export class SetTypes {
  private readonly assigned: Array<{ stmt: SetStmt; at: Where }> = []
  private readonly checked: Array<{ e: Expr; at: Where }> = []
  private readonly changes: Array<{ stmt: SetStmt; at: Where }> = []
  private readonly notSets = new Set<string>()
  private readonly names = new Set<string>()
  private vars = new Map<string, Type>()

  constructor(sessionKeys: readonly string[]) {
    for (const k of sessionKeys) this.notSets.add(k)
  }

  /** Records the assignments and the expressions of one file (or function, or passage). */
  add(at: Where, sets: readonly SetStmt[], checked: readonly Expr[]): void {
    for (const stmt of sets) {
      if (at.hidden(stmt.name)) continue
      this.names.add(stmt.name)
      if (stmt.op === '=') this.assigned.push({ stmt, at })
      else if (at.scope.sets.size) this.changes.push({ stmt, at })
    }
    // only files that can see a set declaration can hold a set literal
    if (at.scope.sets.size) for (const e of checked) this.checked.push({ e, at })
  }

  /** Decides which variables are sets, then reports the operations on the wrong type. */
  finish(cx: CheckContext): void {
    if (this.checked.length === 0 && this.changes.length === 0) return
    // The greatest fixpoint: every assigned name starts as a set and loses it at an assignment
    // that is not the same set (`inv = inv - Tools.rope` keeps it).
    const candidates = new Map<string, Type>()
    for (const { stmt } of this.assigned) if (!this.notSets.has(stmt.name)) candidates.set(stmt.name, 'set:?')
    this.vars = candidates
    for (let changed = true; changed; ) {
      changed = false
      const seen = new Map<string, Type>()
      for (const { stmt, at } of this.assigned) {
        if (!this.vars.has(stmt.name)) continue
        const t = this.typeOf(stmt.e, at)
        const prev = seen.get(stmt.name)
        const ok =
          t?.startsWith('set:') && (prev === undefined || prev === 'set:?' || t === 'set:?' || t === prev)
        if (!ok) {
          this.vars.delete(stmt.name)
          changed = true
        } else if (prev === undefined || prev === 'set:?') seen.set(stmt.name, t)
      }
      for (const [k, t] of seen)
        if (this.vars.has(k) && this.vars.get(k) !== t) {
          this.vars.set(k, t)
          changed = true
        }
    }
    for (const [k, t] of this.vars) if (t === 'set:?') this.vars.delete(k)
    for (const { e, at } of this.checked) this.check(cx, e, at)
    for (const { stmt, at } of this.changes) {
      const t = this.vars.get(stmt.name)
      if (!t) continue
      const v = this.typeOf(stmt.e, at)
      if (v !== undefined && v !== t)
        cx.report(at.file, 'story/type-error', mismatch(stmt.op[0]!, t, v, stmt.e, at.scope), stmt.e.pos)
    }
  }

  private check(cx: CheckContext, e: Expr, at: Where): void {
    if (e.k === 'bin' && e.op !== 'and' && e.op !== 'or') {
      const a = this.typeOf(e.a, at)
      const b = this.typeOf(e.b, at)
      const set = a?.startsWith('set:') ? a : b?.startsWith('set:') ? b : undefined
      if (!set || a === undefined || b === undefined || a === b) return
      if (
        e.op === '+' ||
        e.op === '-' ||
        e.op === '==' ||
        e.op === '!=' ||
        e.op[0] === '<' ||
        e.op[0] === '>'
      ) {
        const other = set === a ? b : a
        const otherExpr = set === a ? e.b : e.a
        cx.report(at.file, 'story/type-error', mismatch(e.op, set, other, otherExpr, at.scope), e.pos)
      }
    } else if (e.k === 'call' && e.callee === 'contains' && e.args.length === 2) {
      const a = this.typeOf(e.args[0]!, at)
      const b = this.typeOf(e.args[1]!, at)
      if (a?.startsWith('set:') && b !== undefined && b !== a)
        cx.report(
          at.file,
          'story/type-error',
          mismatch('contains', a, b, e.args[1]!, at.scope),
          e.args[1]!.pos,
        )
    }
  }

  /** The type of `e` as far as the checker can see it. */
  private typeOf(e: Expr, at: Where): Type {
    switch (e.k) {
      case 'num':
      case 'dice':
        return 'number'
      case 'str':
        return 'string'
      case 'bool':
        return 'boolean'
      case 'list':
        return 'list'
      case 'un':
        return e.op === 'not' ? 'boolean' : 'number'
      case 'name': {
        if (at.hidden(e.name)) return undefined
        const v = this.vars.get(e.name)
        if (v) return v
        if (this.names.has(e.name)) return undefined
        if (at.scope.consts.has(e.name)) return undefined
        const decls = at.scope.items.get(e.name)
        return decls?.length === 1 ? `set:${decls[0]}` : undefined
      }
      case 'field':
        return e.e.k === 'name' && at.scope.sets.has(e.e.name) && !at.hidden(e.e.name)
          ? `set:${e.e.name}`
          : undefined
      case 'call': {
        if (at.scope.sets.has(e.callee)) return `set:${e.callee}`
        if (at.scope.fns.has(e.callee) || e.callee.includes('.')) return undefined
        if ((e.callee === 'min' || e.callee === 'max') && e.args.length === 1) {
          const t = this.typeOf(e.args[0]!, at)
          return t?.startsWith('set:') ? t : t === 'list' ? 'number' : undefined
        }
        if (e.callee === 'contains' || e.callee === 'chance' || e.callee === 'passed') return 'boolean'
        if (STRING_FNS.has(e.callee) || e.callee === 'picked') return 'string'
        if (NUMBER_FNS.has(e.callee) || e.callee === 'visits') return 'number'
        return undefined
      }
      case 'bin': {
        if (e.op === 'and' || e.op === 'or') return undefined
        if (e.op === '+' || e.op === '-') {
          const a = this.typeOf(e.a, at)
          const b = this.typeOf(e.b, at)
          if (a?.startsWith('set:')) return a
          if (e.op === '+' && (a === 'string' || b === 'string')) return 'string'
          if (a === 'number' && b === 'number') return 'number'
          if (e.op === '+' && a === 'list' && b === 'list') return 'list'
          return undefined
        }
        return e.op === '*' || e.op === '/' || e.op === '%' ? 'number' : 'boolean'
      }
      default:
        return undefined
    }
  }
}

/** The message of an operation between a set and another type, ending with the fix. */
function mismatch(op: string, set: string, other: string, otherExpr: Expr, scope: Scope): string {
  const decl = set.slice(4)
  const items = scope.sets.get(decl)?.items ?? []
  const what = other.startsWith('set:') ? `a set of ${other.slice(4)}` : article(other)
  const names = literalNames(otherExpr).filter((n) => items.includes(n))
  const fix =
    names.length === 1
      ? `write ${decl}.${names[0]}`
      : names.length > 1
        ? `write ${decl}(${names.join(', ')})`
        : `write an item as ${decl}.${items[0] ?? 'item'}, or several as ${decl}(…)`
  const shown = op === 'contains' ? 'contains()' : `'${op}'`
  return `${shown} between a set of ${decl} and ${what} is always a type error at play; ${fix}`
}

function article(type: string): string {
  return type === 'list' ? 'a list' : type === 'boolean' ? 'a boolean' : `a ${type}`
}

/** The texts of a string literal or a list of them (`"rope"`, `["rope", "lamp"]`). */
function literalNames(e: Expr): string[] {
  if (e.k === 'str') return [e.v]
  if (e.k === 'list') return e.items.flatMap((x) => (x.k === 'str' ? [x.v] : []))
  return []
}
