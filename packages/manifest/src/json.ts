/**
 * JSON helpers without zod: the JSON value type, a BOM-tolerant parse, and type names for messages.
 */
/** A JSON value: what `JSON.parse` can return. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * `JSON.parse` of a file's text, ignoring a leading UTF-8 byte-order mark; never throws.
 *
 * @example
 * parseJsonText('\uFEFF{"id":"x"}') // { ok: true, value: { id: 'x' } }
 * parseJsonText('{')                 // { ok: false, message: "Expected property name ..." }
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) }
  } catch (e) {
    return { ok: false, message: (e as Error).message }
  }
}

/** A plain object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Names the JSON type of a value for messages: `a string`, `an array`, `null`. */
export function describeJsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'string':
      return 'a string'
    case 'number':
      return Number.isFinite(value) ? 'a number' : 'a non-finite number'
    case 'boolean':
      return 'a boolean'
    case 'object':
      return 'an object'
    case 'undefined':
      return 'undefined'
    default:
      return `a ${typeof value}`
  }
}

/**
 * `JSON.stringify(value)`, or `undefined` when it cannot be written (nested past the engine's
 * stack, a cycle or a BigInt): what the parsers compare and quote without throwing.
 */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
}

/**
 * Where `value` first nests deeper than `maxDepth` levels (`value` itself is level 1): the keys
 * and indexes down to the first array or object past it, breadth first and in document order
 * (`[]` for `value` itself). `null` when it holds more than `maxNodes` arrays and objects before
 * that (only a value with shared or cyclic members can: each costs its text at least 2 bytes),
 * `undefined` when it is within. Iterative, so a value nested 100,000 levels deep (or a cycle) is
 * answered without touching the stack. Only arrays and plain objects are descended.
 *
 * @example
 * deeperAt([[1]], 1, Infinity) // [0]
 * deeperAt([[1]], 2, Infinity) // undefined
 */
export function deeperAt(
  value: unknown,
  maxDepth: number,
  maxNodes: number,
): (string | number)[] | null | undefined {
  // The queue of arrays and objects to visit, with the index of their container and their key.
  const nodes: unknown[] = [value]
  const up: number[] = [-1]
  const keys: (string | number)[] = ['']
  for (let i = 0, level = 1, end = 1; i < nodes.length; i++) {
    if (i === end) {
      level++
      end = nodes.length
    }
    if (level > maxDepth) {
      const at: (string | number)[] = []
      for (let j = i; j > 0; j = up[j]!) at.unshift(keys[j]!)
      return at
    }
    const v = nodes[i]
    const list = Array.isArray(v)
    if (!list && !isPlainObject(v)) continue
    const own = list ? v : Object.keys(v)
    for (let k = 0; k < own.length; k++) {
      const x = list ? v[k] : v[own[k] as string]
      if (typeof x !== 'object' || x === null) continue
      if (nodes.push(x) > maxNodes) return null
      up.push(i)
      keys.push(list ? k : (own[k] as string))
    }
  }
  return undefined
}
