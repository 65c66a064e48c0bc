/**
 * The built-in functions of the language (section 6): the one table of their names, argument
 * counts and purity. The checker reads it for `story/arity` and `{const}` purity; the interpreter
 * (run/builtins.ts) keys its implementations by the same names, so that TypeScript rejects an
 * implementation missing from this table or a name here without an implementation.
 */

/** Name → least and most arguments; `impure` when it draws from the PRNG or reads play state. */
const TABLE = {
  len: [1, 1],
  join: [2, 2],
  contains: [2, 2],
  min: [1, Number.POSITIVE_INFINITY],
  max: [1, Number.POSITIVE_INFINITY],
  abs: [1, 1],
  floor: [1, 1],
  ceil: [1, 1],
  round: [1, 1],
  str: [1, 1],
  num: [1, 1],
  upper: [1, 1],
  lower: [1, 1],
  cap: [1, 1],
  random: [2, 2, 'impure'],
  roll: [2, 2, 'impure'],
  pick: [1, 1, 'impure'],
  chance: [1, 1, 'impure'],
  visits: [0, 1, 'impure'],
  passed: [1, 1, 'impure'],
  picked: [1, 1, 'impure'],
} as const satisfies Record<string, readonly [number, number] | readonly [number, number, 'impure']>

/** The name of a built-in function. */
export type BuiltinName = keyof typeof TABLE

/** The built-ins that take an id (`#id`) instead of a value: the interpreter compiles them itself. */
export type RefBuiltinName = 'visits' | 'passed' | 'picked'

/** The built-ins that take an id: `visits(#heading)`, `passed(#group)`, `picked(#group)`. */
export const REF_BUILTINS: ReadonlySet<string> = new Set<RefBuiltinName>(['visits', 'passed', 'picked'])

/** The built-ins evaluated from their argument values (run/builtins.ts implements each). */
export type ValueBuiltinName = Exclude<BuiltinName, RefBuiltinName>

/** Built-in functions: the least and most arguments each takes. */
export const BUILTINS: ReadonlyMap<string, readonly [number, number]> = new Map(
  Object.entries(TABLE).map(([name, [min, max]]) => [name, [min, max] as const]),
)

/**
 * Built-ins that draw from the PRNG or read play state: not allowed in a `{const}`. Marked pure
 * (the whole expression, not only `new Set`): a bundle that never reads it drops it.
 */
export const IMPURE_BUILTINS: ReadonlySet<string> = /* @__PURE__ */ (() =>
  new Set(
    Object.entries(TABLE)
      .filter(([, entry]) => (entry as readonly unknown[]).includes('impure'))
      .map(([name]) => name),
  ))()

/** "1 argument", "2 arguments", "1 to 2 arguments", "at least 1 argument". */
export function describeArity([min, max]: readonly [number, number]): string {
  const n = (k: number) => `${k} argument${k === 1 ? '' : 's'}`
  if (max === Number.POSITIVE_INFINITY) return `at least ${n(min)}`
  return min === max ? n(min) : `${min} to ${n(max)}`
}
