/**
 * Compiles expressions (section 6) to closures. Runtime errors never stop play: each reports a
 * diagnostic and yields the fallback value of the table in section 6. Internal.
 */
import type { JsonValue } from '@spkg/manifest'
import type { BinOp, Expr, Pos } from '../ast.ts'
import { REF_BUILTINS } from '../builtins.ts'
import { resolveTarget } from '../paths.ts'
import { BUILTINS, rollDice } from './builtins.ts'
import { compareSets, difference, ItemSet, union } from './sets.ts'
import type { Value } from './types.ts'
import { equal, fromJson, show, toJson, truthy, typeName } from './values.ts'
import { type Ev, type FnDef, intern, Ref, type Scope, type Vm } from './vm.ts'

/** How deep one-line functions nest (1.0: a guard against recursion the checker missed). */
const MAX_DEPTH = 64
/** 1.1: how deep calls nest once a block function is among them (`story/recursion-depth`). */
const MAX_BLOCK_DEPTH = 200

/** Compiles one expression in `scope`. */
export function compileExpr(e: Expr, scope: Scope): Ev {
  switch (e.k) {
    case 'num':
    case 'str':
    case 'bool': {
      const v = e.v
      return () => v
    }
    case 'dice': {
      const { n, m: sides, pos } = e
      const file = scope.file
      return (m) => rollDice(m, n, sides, file, pos)
    }
    case 'ref': {
      const id = e.id
      return () => id
    }
    case 'target': {
      const target = e.target
      return () => target
    }
    case 'list': {
      // Lists are never mutated (`+` builds a new one), so a list of literals is built once.
      const lit = literalOf(e)
      if (lit) {
        const constant = lit.v
        return () => constant
      }
      const items = e.items.map((x) => compileExpr(x, scope))
      return (m) => {
        const out: Value[] = new Array(items.length)
        for (let i = 0; i < items.length; i++) out[i] = items[i]!(m)
        return out
      }
    }
    case 'name':
      return compileName(e.name, e.pos, scope)
    case 'un': {
      const a = compileExpr(e.e, scope)
      if (e.op === 'not') return (m) => !truthy(a(m))
      const { file } = scope
      const pos = e.pos
      return (m) => {
        const v = a(m)
        if (typeof v === 'number') return v === 0 ? 0 : -v
        return typeError(m, `'-' needs a number, not ${typeName(v)}`, file, pos)
      }
    }
    case 'bin': {
      const a = compileExpr(e.a, scope)
      const b = compileExpr(e.b, scope)
      // a number written on the right (`gold > 10`, `n + 1`) is read at compile time
      if (e.b.k === 'num')
        return compileBinNum(
          e.op,
          a,
          b,
          e.b.v,
          e.pos,
          scope.file,
          e.a.k === 'name' ? varKey(e.a.name, scope) : undefined,
        )
      return compileBin(e.op, a, b, e.pos, scope.file)
    }
    case 'index': {
      const a = compileExpr(e.e, scope)
      const i = compileExpr(e.index, scope)
      const { file } = scope
      const pos = e.pos
      return (m) => index(m, a(m), i(m), file, pos)
    }
    case 'field': {
      const set = e.e.k === 'name' ? setDeclOf(e.e.name, scope) : undefined
      if (set) return compileItem(set, e.name, scope.file, e.pos)
      const a = compileExpr(e.e, scope)
      const { file } = scope
      const { name, pos } = e
      return (m) => index(m, a(m), name, file, pos)
    }
    case 'call':
      return compileCall(e.callee, e.args, e.pos, scope)
  }
}

/**
 * The value of a literal (a number, string or boolean, or a list of them), read at compile time so
 * that a call site or `{set}` need not call a closure for it; `undefined` for anything else.
 */
export function literalOf(e: Expr): { v: Value } | undefined {
  if (e.k === 'num' || e.k === 'str' || e.k === 'bool') return { v: e.v }
  if (e.k === 'list' && e.items.every((x) => x.k === 'num' || x.k === 'str' || x.k === 'bool'))
    return { v: e.items.map((x) => (x as { v: Value }).v) }
  return undefined
}

/** The set declaration `name` names in `scope`, unless a parameter, temporary or local hides it. */
function setDeclOf(name: string, scope: Scope) {
  const decl = scope.module.sets.get(name)
  if (!decl || scope.params.includes(name) || tempKey(name, scope) || localKey(name, scope)) return undefined
  return decl
}

/** `Tools.rope`: the one-item set, or a type error when `Tools` has no such item. */
function compileItem(
  decl: NonNullable<ReturnType<typeof setDeclOf>>,
  item: string,
  file: string,
  pos: Pos,
): Ev {
  const o = decl.index.get(item)
  if (o === undefined)
    return (m) =>
      typeError(m, `${decl.name} has no item '${item}' (it has ${decl.items.join(', ')})`, file, pos)
  const one = new ItemSet(decl, [o])
  return () => one
}

/** `Tools(rope, lamp)` and `Tools()`: item names of the declaration, or sets of it. */
function compileSetLiteral(
  decl: NonNullable<ReturnType<typeof setDeclOf>>,
  args: Expr[],
  scope: Scope,
  pos: Pos,
): Ev {
  const { file } = scope
  const parts: Ev[] = []
  const ords: number[] = []
  for (const a of args) {
    const o = a.k === 'name' ? decl.index.get(a.name) : undefined
    if (o !== undefined) ords.push(o)
    else parts.push(compileExpr(a, scope))
  }
  const constant = new ItemSet(
    decl,
    [...new Set(ords)].sort((x, y) => x - y),
  )
  if (parts.length === 0) return () => constant
  return (m) => {
    let out = constant
    for (const p of parts) {
      const v = p(m)
      if (!(v instanceof ItemSet) || (v.decl !== decl && v.ords.length))
        return typeError(m, `${decl.name}(…) takes items of ${decl.name}, not ${typeName(v)}`, file, pos)
      out = union(out, v)
    }
    return out
  }
}

function typeError(m: Vm, message: string, file: string, pos: Pos): false {
  m.report('story/type-error', message, file, pos)
  return false
}

function index(m: Vm, v: Value, i: Value, file: string, pos: Pos): Value {
  if (v instanceof ItemSet) return typeError(m, `cannot index a set; test an item with contains()`, file, pos)
  if (Array.isArray(v)) {
    if (typeof i !== 'number')
      return typeError(m, `a list index must be a number, not ${typeName(i)}`, file, pos)
    const x = Number.isInteger(i) ? v[i] : undefined
    if (x === undefined) {
      m.report('story/index-range', `index ${show(i)} is outside the list of ${v.length}`, file, pos)
      return false
    }
    return x
  }
  if (typeof v === 'object') {
    if (typeof i !== 'string')
      return typeError(m, `a map key must be a string, not ${typeName(i)}`, file, pos)
    if (!Object.hasOwn(v, i)) {
      m.report('story/no-key', `the map has no key "${i}"`, file, pos)
      return false
    }
    return v[i]!
  }
  return typeError(m, `cannot index ${typeName(v)}`, file, pos)
}

function finite(m: Vm, v: number, file: string, pos: Pos): number {
  if (Number.isFinite(v)) return v
  m.report('story/number-overflow', 'the result is not a finite number', file, pos)
  return 0
}

/**
 * `a op k` with a number literal `k` on the right: the comparisons and arithmetic test only the
 * left side's type, with no call for `k`; any other operator (and `/ 0`, `% 0`), and every case
 * other than a number on the left, gives what {@link compileBin} gives.
 */
function compileBinNum(
  op: BinOp,
  a: Ev,
  b: Ev,
  k: number,
  pos: Pos,
  file: string,
  key: string | undefined,
): Ev {
  const bad = (m: Vm, x: Value): Value =>
    typeError(
      m,
      `'${op}' compares two numbers, two strings or two sets, not ${typeName(x)} and ${typeName(k)}`,
      file,
      pos,
    )
  // `gold > 10`: a story variable on the left is read from the map here, `a` only when it has no
  // value (a constant, or the report of an undefined name)
  if (key !== undefined)
    switch (op) {
      case '<':
        return (m) => {
          const x = m.vars.get(key) ?? a(m)
          return typeof x === 'number' ? x < k : bad(m, x)
        }
      case '<=':
        return (m) => {
          const x = m.vars.get(key) ?? a(m)
          return typeof x === 'number' ? x <= k : bad(m, x)
        }
      case '>':
        return (m) => {
          const x = m.vars.get(key) ?? a(m)
          return typeof x === 'number' ? x > k : bad(m, x)
        }
      case '>=':
        return (m) => {
          const x = m.vars.get(key) ?? a(m)
          return typeof x === 'number' ? x >= k : bad(m, x)
        }
    }
  switch (op) {
    case '<':
      return (m) => {
        const x = a(m)
        return typeof x === 'number' ? x < k : bad(m, x)
      }
    case '<=':
      return (m) => {
        const x = a(m)
        return typeof x === 'number' ? x <= k : bad(m, x)
      }
    case '>':
      return (m) => {
        const x = a(m)
        return typeof x === 'number' ? x > k : bad(m, x)
      }
    case '>=':
      return (m) => {
        const x = a(m)
        return typeof x === 'number' ? x >= k : bad(m, x)
      }
    case '+':
      return (m) => {
        const x = a(m)
        if (typeof x === 'number') {
          const r = x + k
          if (Number.isFinite(r)) return r
        }
        return add(m, x, k, file, pos)
      }
    case '-':
      return (m) => {
        const x = a(m)
        if (typeof x === 'number') {
          const r = x - k
          if (Number.isFinite(r)) return r
        }
        return arithSlow(m, '-', x, k, file, pos)
      }
    case '*':
      return (m) => {
        const x = a(m)
        if (typeof x === 'number') {
          const r = x * k
          if (Number.isFinite(r)) return r
        }
        return arithSlow(m, '*', x, k, file, pos)
      }
    case '%':
      if (k === 0) break
      return (m) => {
        const x = a(m)
        if (typeof x === 'number') {
          const r = x % k
          if (Number.isFinite(r)) return r
        }
        return arithSlow(m, '%', x, k, file, pos)
      }
    case '/':
      if (k === 0) break
      return (m) => {
        const x = a(m)
        if (typeof x === 'number') {
          const r = x / k
          if (Number.isFinite(r)) return r
        }
        return arithSlow(m, '/', x, k, file, pos)
      }
  }
  return compileBin(op, a, b, pos, file)
}

function compileBin(op: BinOp, a: Ev, b: Ev, pos: Pos, file: string): Ev {
  switch (op) {
    case 'and':
      return (m) => truthy(a(m)) && truthy(b(m))
    case 'or':
      return (m) => truthy(a(m)) || truthy(b(m))
    case '==':
      return (m) => equal(a(m), b(m))
    case '!=':
      return (m) => !equal(a(m), b(m))
    case '+':
      // numbers first, inline; everything else (and an overflow) through `add`
      return (m) => {
        const x = a(m)
        const y = b(m)
        if (typeof x === 'number' && typeof y === 'number') {
          const r = x + y
          if (Number.isFinite(r)) return r
        }
        return add(m, x, y, file, pos)
      }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      // One closure per operator, with the number case first: no operator dispatch per evaluation.
      const bad = (m: Vm, x: Value, y: Value): Value =>
        typeError(
          m,
          `'${op}' compares two numbers, two strings or two sets, not ${typeName(x)} and ${typeName(y)}`,
          file,
          pos,
        )
      const comparable = (x: Value, y: Value) =>
        (typeof x === 'number' && typeof y === 'number') || (typeof x === 'string' && typeof y === 'string')
      const sets = (m: Vm, x: Value, y: Value): Value =>
        x instanceof ItemSet && y instanceof ItemSet ? compareSets(op, x, y) : bad(m, x, y)
      if (op === '<')
        return (m) => {
          const x = a(m)
          const y = b(m)
          return comparable(x, y) ? x < y : sets(m, x, y)
        }
      if (op === '<=')
        return (m) => {
          const x = a(m)
          const y = b(m)
          return comparable(x, y) ? x <= y : sets(m, x, y)
        }
      if (op === '>')
        return (m) => {
          const x = a(m)
          const y = b(m)
          return comparable(x, y) ? x > y : sets(m, x, y)
        }
      return (m) => {
        const x = a(m)
        const y = b(m)
        return comparable(x, y) ? x >= y : sets(m, x, y)
      }
    }
    default: {
      // One closure per operator with the number case inline; the rest (sets, type errors, a zero
      // divisor, an overflow) through `arithSlow`.
      const slow = (m: Vm, x: Value, y: Value) => arithSlow(m, op, x, y, file, pos)
      if (op === '-')
        return (m) => {
          const x = a(m)
          const y = b(m)
          if (typeof x === 'number' && typeof y === 'number') {
            const r = x - y
            if (Number.isFinite(r)) return r
          }
          return slow(m, x, y)
        }
      if (op === '*')
        return (m) => {
          const x = a(m)
          const y = b(m)
          if (typeof x === 'number' && typeof y === 'number') {
            const r = x * y
            if (Number.isFinite(r)) return r
          }
          return slow(m, x, y)
        }
      if (op === '%')
        return (m) => {
          const x = a(m)
          const y = b(m)
          if (typeof x === 'number' && typeof y === 'number' && y !== 0) {
            const r = x % y
            if (Number.isFinite(r)) return r
          }
          return slow(m, x, y)
        }
      return (m) => slow(m, a(m), b(m))
    }
  }
}

/** `-`, `*`, `/`, `%` on any values: numbers, sets (`-`), or a type error. */
function arithSlow(m: Vm, op: BinOp, x: Value, y: Value, file: string, pos: Pos): Value {
  if (typeof x !== 'number' || typeof y !== 'number') {
    if (op === '-' && (x instanceof ItemSet || y instanceof ItemSet)) return subtract(m, x, y, file, pos)
    return typeError(m, `'${op}' needs numbers, not ${typeName(x)} and ${typeName(y)}`, file, pos)
  }
  return arith(m, op, x, y, file, pos)
}

/** `+`: numbers add, a string on either side concatenates printed forms, lists join. */
export function add(m: Vm, x: Value, y: Value, file: string, pos: Pos): Value {
  if (typeof x === 'number' && typeof y === 'number') return finite(m, x + y, file, pos)
  if (x instanceof ItemSet || y instanceof ItemSet) {
    if (
      x instanceof ItemSet &&
      y instanceof ItemSet &&
      (x.decl === y.decl || !x.ords.length || !y.ords.length)
    )
      return union(x, y)
    return typeError(m, setMismatch('+', x, y), file, pos)
  }
  if (typeof x === 'string' || typeof y === 'string') return show(x) + show(y)
  if (Array.isArray(x) && Array.isArray(y)) return x.concat(y)
  return typeError(m, `'+' cannot combine ${typeName(x)} and ${typeName(y)}`, file, pos)
}

/** `-` with a set on either side: the items of `x` not in `y`. */
export function subtract(m: Vm, x: Value, y: Value, file: string, pos: Pos): Value {
  if (x instanceof ItemSet && y instanceof ItemSet && (x.decl === y.decl || !x.ords.length || !y.ords.length))
    return difference(x, y)
  return typeError(m, setMismatch('-', x, y), file, pos)
}

/** The message of `+` or `-` between a set and something else. */
function setMismatch(op: string, x: Value, y: Value): string {
  const s = (x instanceof ItemSet ? x : y) as ItemSet
  if (x instanceof ItemSet && y instanceof ItemSet)
    return `'${op}' combines sets of one declaration, not ${typeName(x)} and ${typeName(y)}`
  return `'${op}' combines two sets, not ${typeName(x)} and ${typeName(y)}; write an item as ${s.decl.name}.${s.decl.items[0] ?? 'item'}`
}

/** `-`, `*`, `/`, `%` on numbers. */
export function arith(m: Vm, op: BinOp, x: number, y: number, file: string, pos: Pos): number {
  switch (op) {
    case '-':
      return finite(m, x - y, file, pos)
    case '*':
      return finite(m, x * y, file, pos)
    default:
      if (y === 0) {
        m.report('story/division-by-zero', `'${op}' by zero`, file, pos)
        return 0
      }
      return finite(m, op === '/' ? x / y : x % y, file, pos)
  }
}

/**
 * The `vars` key `name` is read from when it is a story variable in `scope`: no parameter,
 * temporary, local or set item hides it ({@link compileName}'s last case); else `undefined`.
 */
function varKey(name: string, scope: Scope): string | undefined {
  if (
    scope.params.includes(name) ||
    tempKey(name, scope) !== undefined ||
    localKey(name, scope) !== undefined
  )
    return undefined
  if (scope.module.consts.get(name) === undefined && scope.module.items.get(name)) return undefined
  return intern(name)
}

function compileName(name: string, pos: Pos, scope: Scope): Ev {
  const { file } = scope
  const p = scope.params.indexOf(name)
  if (p >= 0) {
    if (scope.refs?.[p])
      return (m) => {
        const v = (m.frame[p] as unknown as Ref).get()
        if (v !== undefined) return v
        m.report('story/undefined', `'${name}' (a ref parameter) has no value yet`, file, pos)
        return false
      }
    if (scope.firstTemp !== undefined && p >= scope.firstTemp)
      return (m) => {
        const v = m.frame[p]
        if (v !== undefined) return v
        m.report('story/uninitialised', `'${name}' is read before its {temp} line has run`, file, pos)
        return false
      }
    return (m) => m.frame[p]!
  }
  const temp = tempKey(name, scope)
  if (temp !== undefined) {
    const key = intern(temp)
    return (m) => {
      const v = m.temps.get(key)
      if (v !== undefined) return v
      m.report('story/uninitialised', `'${name}' is read before its {temp} line has run`, file, pos)
      return false
    }
  }
  const local = localKey(name, scope)
  const key = local === undefined ? undefined : intern(local)
  if (key !== undefined)
    return (m) => {
      const v = m.vars.get(key)
      if (v !== undefined) return v
      m.report('story/uninitialised', `'${name}' is read before its {local} line has run`, file, pos)
      return false
    }
  const c = scope.module.consts.get(name)
  const varName = intern(name)
  // 1.1: a bare item name, after variables and constants (the lookup order of "Sets")
  const items = c === undefined ? scope.module.items.get(name) : undefined
  if (items?.length === 1) {
    const one = items[0]!
    return (m) => m.vars.get(varName) ?? one
  }
  if (items)
    return (m) => {
      const v = m.vars.get(varName)
      if (v !== undefined) return v
      m.report(
        'story/ambiguous-item',
        `'${name}' is an item of ${items.map((s) => s.decl.name).join(' and ')}; write ${items[0]!.decl.name}.${name}`,
        file,
        pos,
      )
      return false
    }
  return (m) => {
    const v = m.vars.get(varName)
    if (v !== undefined) return v
    if (c !== undefined) return c
    m.report('story/undefined', `'${name}' has no value yet`, file, pos)
    return false
  }
}

/** 1.1: the key in `m.temps` of the section `{temp}` that `name` resolves to in `scope`, if any. */
export function tempKey(name: string, scope: Scope): string | undefined {
  if (!scope.chain || !scope.temps) return undefined
  for (const section of [...scope.chain, 'h0'])
    if (scope.temps.get(section)?.has(name)) return `${scope.file}:${section}.${name}`
  return undefined
}

/** The state key of the `{local}` that `name` resolves to in `scope`, if any. */
export function localKey(name: string, scope: Scope): string | undefined {
  if (!scope.chain || !scope.locals) return undefined
  for (const section of scope.chain)
    if (scope.locals.get(section)?.has(name)) return `${scope.file}:${section}.${name}`
  return undefined
}

function compileCall(callee: string, argExprs: Expr[], pos: Pos, scope: Scope): Ev {
  const { file } = scope
  if (scope.v11 && (callee === 'visits' || callee === 'turns') && !scope.module.fns.has(callee))
    return compileCount(callee, argExprs, pos, scope)
  if (REF_BUILTINS.has(callee)) return compileRefBuiltin(callee, argExprs, pos, scope)
  const args = argExprs.map((x) => compileExpr(x, scope))
  const n = args.length
  const evalArgs = (m: Vm): Value[] => {
    const out: Value[] = new Array(n)
    for (let i = 0; i < n; i++) out[i] = args[i]!(m)
    return out
  }
  const dot = callee.indexOf('.')
  const decl = dot < 0 ? setDeclOf(callee, scope) : undefined
  if (decl) return compileSetLiteral(decl, argExprs, scope, pos)
  if (dot > 0) {
    const ns = callee.slice(0, dot)
    const fn = callee.slice(dot + 1)
    return (m) => callHost(m, ns, fn, evalArgs(m), file, pos) ?? false
  }
  const def = scope.module.fns.get(callee)
  if (def) {
    const visitsKey = sectionVisitsKey(scope)
    const fromPart = scope.chain !== undefined
    const refs = def.refs?.includes(true) ? def.refs : undefined
    const refArgs = refs && argExprs.map((a, i) => (refs[i] ? compileRef(a, scope) : undefined))
    const lits = refArgs ? undefined : literals(argExprs)
    const evalCallArgs = refArgs
      ? (m: Vm): Value[] => {
          const out: Value[] = new Array(n)
          for (let i = 0; i < n; i++) out[i] = refArgs[i] ? (refArgs[i]!(m) as unknown as Value) : args[i]!(m)
          return out
        }
      : lits
        ? // every argument a literal: a copy of them is the callee's frame
          () => lits.slice()
        : evalArgs
    return (m) => {
      if (n !== def.params.length) {
        m.report('story/arity', `${callee}() takes ${def.params.length} argument(s), not ${n}`, file, pos)
        return false
      }
      return callFn(m, def, evalCallArgs(m), fromPart, visitsKey, pos, file)
    }
  }
  const b = BUILTINS.get(callee)
  if (b) {
    const [min, max, impl] = b
    // Built-ins never keep or change their argument array, so each call site reuses one (filled
    // after evaluation; when every argument is a literal, once).
    const lits = n >= min && n <= max ? literals(argExprs) : undefined
    if (lits) return (m) => impl(m, lits, file, pos)
    if (n === 1 && min <= 1 && max >= 1) {
      const a0 = args[0]!
      const buf: Value[] = [false]
      return (m) => {
        const v = a0(m)
        buf[0] = v
        return impl(m, buf, file, pos)
      }
    }
    if (n === 2 && min <= 2 && max >= 2) {
      const a0 = args[0]!
      const a1 = args[1]!
      const buf: Value[] = [false, false]
      return (m) => {
        const v0 = a0(m)
        const v1 = a1(m)
        buf[0] = v0
        buf[1] = v1
        return impl(m, buf, file, pos)
      }
    }
    return (m) => {
      if (n < min || n > max) {
        const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`
        m.report('story/arity', `${callee}() takes ${want} argument(s), not ${n}`, file, pos)
        return false
      }
      return impl(m, evalArgs(m), file, pos)
    }
  }
  return (m) => {
    m.report('story/unknown-function', `no function '${callee}' is visible here`, file, pos)
    return false
  }
}

/** The values of `exprs` when every one is a literal ({@link literalOf}), else `undefined`. */
function literals(exprs: Expr[]): Value[] | undefined {
  const out: Value[] = []
  for (const e of exprs) {
    const lit = literalOf(e)
    if (lit === undefined) return undefined
    out.push(lit.v)
  }
  return out
}

function callFn(
  m: Vm,
  def: FnDef,
  args: Value[],
  fromPart: boolean,
  visitsKey: string | undefined,
  pos: Pos,
  file: string,
): Value {
  if (def.block ? m.depth >= MAX_BLOCK_DEPTH : m.depth >= MAX_DEPTH) {
    if (def.block)
      m.report('story/recursion-depth', `${def.name}() is called more than 200 calls deep`, file, pos)
    else m.report('story/recursion', `${def.name}() calls itself`, file, pos)
    return false
  }
  def.body ??= def.compile()
  const body = def.body
  const frame = m.frame
  const vk = m.visitsKey
  if (fromPart) m.visitsKey = visitsKey
  m.frame = args
  m.depth++
  try {
    return body(m)
  } finally {
    m.depth--
    m.frame = frame
    m.visitsKey = vk
  }
}

/**
 * 1.1: the caller's variable an argument for a `ref` parameter names, as a {@link Ref} made at the
 * call (it captures the caller's frame). An argument that is not a variable (`story/ref-argument`
 * statically) passes its value, which the function's assignments then cannot reach.
 */
function compileRef(a: Expr, scope: Scope): (m: Vm) => Ref {
  if (a.k !== 'name') {
    const ev = compileExpr(a, scope)
    return (m) => {
      let v: Value = ev(m)
      return new Ref(
        () => v,
        (x) => {
          v = x
        },
      )
    }
  }
  const { name } = a
  const p = scope.params.indexOf(name)
  if (p >= 0) {
    if (scope.refs?.[p]) return (m) => m.frame[p] as unknown as Ref
    return (m) => {
      const frame = m.frame
      return new Ref(
        () => frame[p],
        (v) => {
          frame[p] = v
        },
      )
    }
  }
  const temp = tempKey(name, scope)
  const key = intern(temp ?? localKey(name, scope) ?? name)
  if (temp !== undefined)
    return (m) =>
      new Ref(
        () => m.temps.get(key),
        (v) => {
          m.temps.set(key, v)
        },
      )
  const c = key === name ? scope.module.consts.get(name) : undefined
  const { file } = scope
  const pos = a.pos
  return (m) =>
    new Ref(
      () => m.vars.get(key) ?? c,
      (v) => {
        if (c !== undefined && !m.vars.has(key))
          m.report('story/const-assign', `'${name}' is a module constant and cannot be assigned`, file, pos)
        else m.vars.set(key, v)
      },
    )
}

/** Calls a host function; `undefined` when it is missing or threw (reported as `story/host-error`). */
export function callHost(
  m: Vm,
  ns: string,
  fn: string,
  args: Value[],
  file: string,
  pos: Pos,
): Value | undefined {
  const f = m.host[ns]?.[fn]
  if (typeof f !== 'function' || !Object.hasOwn(m.host[ns]!, fn)) {
    m.report('story/host-error', `the host provides no function ${ns}.${fn}`, file, pos)
    return undefined
  }
  try {
    return fromJson(f(...args.map((a) => toJson(a))) as JsonValue) ?? false
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause)
    m.report('story/host-error', `${ns}.${fn} failed: ${why}`, file, pos)
    return undefined
  }
}

/** The visit-count key of the innermost section of part code; `undefined` in `h0` or module code. */
export function sectionVisitsKey(scope: Scope): string | undefined {
  const s = scope.chain?.[0]
  return s === undefined ? undefined : intern(`${scope.file}:${s}@visits`)
}

function compileRefBuiltin(callee: string, argExprs: Expr[], pos: Pos, scope: Scope): Ev {
  const { file } = scope
  const arg = argExprs[0]
  if (argExprs.length > 1 || (callee !== 'visits' && !arg))
    return (m) => {
      m.report(
        'story/arity',
        `${callee}() takes ${callee === 'visits' ? '0 or 1' : '1'} argument(s)`,
        file,
        pos,
      )
      return false
    }
  if (arg && arg.k !== 'ref') return (m) => typeError(m, `${callee}() takes an id written #id`, file, pos)
  const id = arg?.id
  const inPart = scope.chain !== undefined
  if (callee === 'visits') {
    if (id === undefined) {
      if (inPart) {
        const key = sectionVisitsKey(scope)
        if (key === undefined) return (m) => m.partEntries(file)
        return (m) => m.vars.get(key) ?? 0
      }
      return (m) => (m.visitsKey === undefined ? m.partEntries(m.curFile) : (m.vars.get(m.visitsKey) ?? 0))
    }
    if (inPart) {
      const key = intern(`${file}:${id}@visits`)
      if (!scope.headings?.has(id))
        return (m) => {
          m.report('story/unknown-id', `visits(#${id}): no heading '#${id}' in this file`, file, pos)
          return 0
        }
      return (m) => m.vars.get(key) ?? 0
    }
    return (m) => m.vars.get(`${m.curFile}:${id}@visits`) ?? 0
  }
  const keyOf = inPart ? () => `${file}:${id}` : (m: Vm) => `${m.curFile}:${id}`
  if (callee === 'passed') return (m) => m.visited.has(keyOf(m))
  return (m) => {
    const list = m.choices.get(keyOf(m))
    if (!list) return ''
    const last = list[list.length - 1]!
    if (last.charCodeAt(0) !== 60 /* '<' */) return last
    // a thread's option answered this pause (1.1): the option, as the thread's group records it
    const t = m.choices.get(last.slice(1))
    return t ? t[t.length - 1]! : ''
  }
}

/** The archive part and id a `visits()`/`turns()` argument names (`#id` in `file`, or a part target). */
function countTarget(arg: Expr, file: string): { part: string; id: string | undefined } | undefined {
  if (arg.k === 'ref') return { part: file, id: arg.id }
  if (arg.k !== 'target') return undefined
  const r = resolveTarget(file, arg.target)
  return { part: r.part, id: r.id }
}

/**
 * 1.1: `visits()` and `turns()` (section 3 of the 1.1 design). `visits(#id)` reads any id of the
 * file: a heading's or an anchor's visits, a named group's arrivals (`<file>:<id>@visits`), an
 * option's choices (counted in `choices`); `visits(part.sty:id)` the same in another part and
 * `visits(part.sty)` that part's entries. `turns()` is the number of answered pauses, `turns(#id)`
 * the turns since flow last reached the id (`<file>:<id>@turn`), -1 if never (ink's `TURNS_SINCE`).
 */
function compileCount(callee: 'visits' | 'turns', argExprs: Expr[], pos: Pos, scope: Scope): Ev {
  const { file } = scope
  const arg = argExprs[0]
  if (argExprs.length > 1)
    return (m) => {
      m.report('story/arity', `${callee}() takes 0 or 1 argument(s)`, file, pos)
      return false
    }
  const inPart = scope.chain !== undefined
  if (arg === undefined) {
    if (callee === 'turns') return (m) => m.turns
    return compileRefBuiltin(callee, argExprs, pos, scope)
  }
  const t = countTarget(arg, file)
  if (t === undefined)
    return (m) => typeError(m, `${callee}() takes an id written #id, or a part target part.sty:id`, file, pos)
  const { part, id } = t
  if (id === undefined) {
    if (callee === 'visits') return (m) => m.partEntries(part)
    return (m) => {
      m.report('story/type-error', `turns() takes an id: 'turns(${part}:id)' or 'turns(#id)'`, file, pos)
      return false
    }
  }
  // In module code `#id` is an id of the part being played.
  const dynamic = arg.k === 'ref' && !inPart
  if (callee === 'turns') {
    if (dynamic)
      return (m) => {
        const at = m.vars.get(`${m.curFile}:${id}@turn`)
        return typeof at === 'number' ? m.turns - at : -1
      }
    const key = intern(`${part}:${id}@turn`)
    return (m) => {
      const at = m.vars.get(key)
      return typeof at === 'number' ? m.turns - at : -1
    }
  }
  if (dynamic) return (m) => idVisits(m, `${m.curFile}:${id}@visits`, m.curFile, id)
  const key = intern(`${part}:${id}@visits`)
  if (part === file && scope.kinds) {
    const kind = scope.kinds.get(id)
    if (kind === undefined)
      return (m) => {
        m.report(
          'story/unknown-id',
          `${callee}(#${id}): no heading, anchor, group or option '#${id}' in this file`,
          file,
          pos,
        )
        return 0
      }
    const group = kind === 'option' ? scope.optionGroups?.get(id) : undefined
    if (group !== undefined)
      return (m) => {
        const list = m.choices.get(group)
        return list === undefined ? 0 : countOf(list, id)
      }
    return (m) => m.vars.get(key) ?? 0
  }
  return (m) => idVisits(m, key, part, id)
}

/** The visits of `id` in `part`: its count when it has one, else the times it was chosen (an option). */
function idVisits(m: Vm, key: string, part: string, id: string): number {
  const v = m.vars.get(key)
  return typeof v === 'number' ? v : m.chosenCount(part, id)
}

/** How many entries of `list` are `id`. */
export function countOf(list: readonly string[], id: string): number {
  let n = 0
  for (const x of list) if (x === id) n++
  return n
}
