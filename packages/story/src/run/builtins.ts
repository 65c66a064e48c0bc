/**
 * The built-in functions of section 6 (clarifications 23-24) and the rolls of section 7. Each takes
 * evaluated arguments; a wrong type reports `story/type-error` and yields `false`. Internal.
 */
import type { Pos } from '../ast.ts'
import { BUILTINS as LANGUAGE_BUILTINS, type ValueBuiltinName } from '../builtins.ts'
import { drawInt, drawUint32 } from './rng.ts'
import { containsAll, extremeItem, ItemSet } from './sets.ts'
import type { Value } from './types.ts'
import { equal, show, typeName } from './values.ts'
import type { Vm } from './vm.ts'

type Impl = (m: Vm, a: Value[], file: string, pos: Pos) => Value

function bad(m: Vm, message: string, file: string, pos: Pos): false {
  m.report('story/type-error', message, file, pos)
  return false
}

function num1(name: string, f: (x: number) => number): Impl {
  return (m, a, file, pos) => {
    const x = a[0]!
    if (typeof x !== 'number') return bad(m, `${name}() needs a number, not ${typeName(x)}`, file, pos)
    return f(x)
  }
}

function str1(name: string, f: (x: string) => Value): Impl {
  return (m, a, file, pos) => {
    const x = a[0]!
    if (typeof x !== 'string') return bad(m, `${name}() needs a string, not ${typeName(x)}`, file, pos)
    return f(x)
  }
}

function extreme(name: string, pickLess: boolean): Impl {
  return (m, a, file, pos) => {
    // 1.1: the first or last item of a set in declared order, as a one-item set (ink's LIST_MIN/MAX)
    if (a.length === 1 && a[0] instanceof ItemSet) return extremeItem(a[0], !pickLess)
    const xs = a.length === 1 && Array.isArray(a[0]) ? a[0] : a
    if (xs.length === 0) return bad(m, `${name}() of an empty list`, file, pos)
    let best: number | undefined
    for (const x of xs) {
      if (typeof x !== 'number') return bad(m, `${name}() takes numbers, not ${typeName(x)}`, file, pos)
      if (best === undefined || (pickLess ? x < best : x > best)) best = x
    }
    return best!
  }
}

/** `random(a, b)` with the checks of section 7. */
export function randomInt(m: Vm, a: Value, b: Value, file: string, pos: Pos): Value {
  if (typeof a !== 'number' || typeof b !== 'number')
    return bad(m, `random() needs two numbers, not ${typeName(a)} and ${typeName(b)}`, file, pos)
  if (!Number.isInteger(a) || !Number.isInteger(b) || a > b || b - a >= 1e6) {
    m.report(
      'story/roll-range',
      `random(${show(a)}, ${show(b)}) needs integers a <= b with b - a < 1000000`,
      file,
      pos,
    )
    return a
  }
  return drawInt(m.rng, a, b)
}

/** `roll(n, m)` and `NdM`: n draws of `random(1, m)`, summed; `0` and `story/roll-range` out of range. */
export function rollDice(m: Vm, n: Value, sides: Value, file: string, pos: Pos): Value {
  if (typeof n !== 'number' || typeof sides !== 'number')
    return bad(m, `roll() needs two numbers, not ${typeName(n)} and ${typeName(sides)}`, file, pos)
  if (!Number.isInteger(n) || !Number.isInteger(sides) || n < 1 || n > 100 || sides < 1 || sides > 1e6) {
    m.report(
      'story/roll-range',
      `cannot roll ${show(n)} dice of ${show(sides)} sides (1-100 dice, at least 1 side)`,
      file,
      pos,
    )
    return 0
  }
  let sum = 0
  for (let i = 0; i < n; i++) sum += drawInt(m.rng, 1, sides)
  return sum
}

const cp = (s: string) => {
  let n = 0
  for (const _ of s) n++
  return n
}

const NUMERIC = /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/

/**
 * The implementations, keyed by exactly the value built-ins of the language's table (../builtins.ts):
 * a name missing here or unknown there does not compile.
 */
const IMPLEMENTATIONS: { readonly [K in ValueBuiltinName]: Impl } = {
  len: (m, a, file, pos) => {
    const x = a[0]!
    if (typeof x === 'string') return cp(x)
    if (Array.isArray(x)) return x.length
    if (x instanceof ItemSet) return x.ords.length
    return bad(m, `len() needs a string, a list or a set, not ${typeName(x)}`, file, pos)
  },
  join: (m, a, file, pos) => {
    const [x, sep] = a as [Value, Value]
    if (!Array.isArray(x)) return bad(m, `join() needs a list, not ${typeName(x)}`, file, pos)
    if (typeof sep !== 'string')
      return bad(m, `join() needs a string separator, not ${typeName(sep)}`, file, pos)
    return x.map(show).join(sep)
  },
  contains: (m, a, file, pos) => {
    const [h, n] = a as [Value, Value]
    if (h instanceof ItemSet) {
      if (n instanceof ItemSet) return containsAll(h, n)
      return bad(
        m,
        `contains() of a set takes items, not ${typeName(n)}: write contains(s, ${h.decl.name}.${h.decl.items[0] ?? 'item'})`,
        file,
        pos,
      )
    }
    if (Array.isArray(h)) return h.some((x) => equal(x, n))
    if (typeof h === 'string' && typeof n === 'string') return h.includes(n)
    return bad(m, `contains() needs a list, or two strings; got ${typeName(h)} and ${typeName(n)}`, file, pos)
  },
  min: extreme('min', true),
  max: extreme('max', false),
  abs: num1('abs', Math.abs),
  floor: num1('floor', Math.floor),
  ceil: num1('ceil', Math.ceil),
  round: num1('round', (x) => Math.floor(x + 0.5)),
  str: (_m, a) => show(a[0]!),
  num: (m, a, file, pos) => {
    const x = a[0]!
    if (typeof x === 'number') return x
    if (typeof x === 'string' && NUMERIC.test(x)) return Number(x)
    return bad(
      m,
      `num() cannot read a number from ${typeof x === 'string' ? `"${x}"` : typeName(x)}`,
      file,
      pos,
    )
  },
  upper: str1('upper', (s) => s.toUpperCase()),
  lower: str1('lower', (s) => s.toLowerCase()),
  cap: str1('cap', (s) => {
    const first = s.codePointAt(0)
    if (first === undefined) return s
    const n = first > 0xffff ? 2 : 1
    return s.slice(0, n).toUpperCase() + s.slice(n)
  }),
  random: (m, a, file, pos) => randomInt(m, a[0]!, a[1]!, file, pos),
  roll: (m, a, file, pos) => rollDice(m, a[0]!, a[1]!, file, pos),
  pick: (m, a, file, pos) => {
    const x = a[0]!
    if (!Array.isArray(x)) return bad(m, `pick() needs a list, not ${typeName(x)}`, file, pos)
    if (x.length === 0) {
      m.report('story/empty-pick', 'pick() of an empty list', file, pos)
      return false
    }
    return x[Math.floor((drawUint32(m.rng) * x.length) / 4294967296)]!
  },
  chance: (m, a, file, pos) => {
    const p = a[0]!
    if (typeof p !== 'number') return bad(m, `chance() needs a number, not ${typeName(p)}`, file, pos)
    return drawUint32(m.rng) < Math.floor(p * 4294967296)
  },
}

/** name → [min arity, max arity, implementation], the arities from the language's table. */
export const BUILTINS: ReadonlyMap<string, readonly [number, number, Impl]> = new Map(
  Object.entries(IMPLEMENTATIONS).map(([name, impl]) => {
    const [min, max] = LANGUAGE_BUILTINS.get(name)!
    return [name, [min, max, impl] as const]
  }),
)

/** Names of the built-ins, including `visits`, `passed` and `picked` (a module may not redeclare them). */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set(LANGUAGE_BUILTINS.keys())
