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
 * True when `value` holds an array or object nested deeper than `maxDepth` levels (`value`
 * itself is level 1). Iterative, so a value nested 100,000 levels deep is answered without
 * touching the stack; it stops at the first one too deep.
 *
 * @example
 * nestsDeeper([[1]], 1) // true
 * nestsDeeper([[1]], 2) // false
 */
export function nestsDeeper(value: unknown, maxDepth: number): boolean {
  const stack: unknown[] = [value]
  const levels: number[] = [1]
  while (stack.length > 0) {
    const v = stack.pop()
    const level = levels.pop()!
    if (typeof v !== 'object' || v === null) continue
    if (level > maxDepth) return true
    const items = Array.isArray(v) ? v : Object.values(v)
    for (let i = 0; i < items.length; i++) {
      const item = items[i]
      if (typeof item === 'object' && item !== null) {
        stack.push(item)
        levels.push(level + 1)
      }
    }
  }
  return false
}
