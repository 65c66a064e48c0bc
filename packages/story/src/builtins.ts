/**
 * Names the language defines: built-in functions with their argument counts (section 6) and the
 * rule for variable names. Internal; the checker uses them.
 */
/** Built-in functions: the least and most arguments each takes. */
export const BUILTINS: ReadonlyMap<string, readonly [number, number]> = new Map([
  ['len', [1, 1]],
  ['join', [2, 2]],
  ['contains', [2, 2]],
  ['min', [1, Number.POSITIVE_INFINITY]],
  ['max', [1, Number.POSITIVE_INFINITY]],
  ['abs', [1, 1]],
  ['floor', [1, 1]],
  ['ceil', [1, 1]],
  ['round', [1, 1]],
  ['str', [1, 1]],
  ['num', [1, 1]],
  ['upper', [1, 1]],
  ['lower', [1, 1]],
  ['cap', [1, 1]],
  ['random', [2, 2]],
  ['roll', [2, 2]],
  ['pick', [1, 1]],
  ['chance', [1, 1]],
  ['visits', [0, 1]],
  ['passed', [1, 1]],
  ['picked', [1, 1]],
])

/** Built-ins that draw from the PRNG or read play state: not allowed in a `{const}`. */
export const IMPURE_BUILTINS: ReadonlySet<string> = new Set([
  'random',
  'roll',
  'pick',
  'chance',
  'visits',
  'passed',
  'picked',
])

/** "1 argument", "2 arguments", "1 to 2 arguments", "at least 1 argument". */
export function describeArity([min, max]: readonly [number, number]): string {
  const n = (k: number) => `${k} argument${k === 1 ? '' : 's'}`
  if (max === Number.POSITIVE_INFINITY) return `at least ${n(min)}`
  return min === max ? n(min) : `${min} to ${n(max)}`
}
