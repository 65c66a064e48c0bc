/**
 * Story values (section 6): truthiness, deep equality and the printed form. Internal.
 */
import type { JsonValue } from '@spkg/manifest'
import type { Value } from './types.ts'

/** Falsy: `false`, `0`, `""`, `[]`, `{}` (section 6). */
export function truthy(v: Value): boolean {
  if (v === true) return true
  if (v === false) return false
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v)
  if (typeof v === 'string') return v.length > 0
  if (Array.isArray(v)) return v.length > 0
  for (const _ in v) return true
  return false
}

/** Deep equality with no coercion. */
export function equal(a: Value, b: Value): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!equal(a[i]!, b[i]!)) return false
    return true
  }
  if (Array.isArray(b)) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  for (const k of ka) if (!Object.hasOwn(b, k) || !equal(a[k]!, b[k]!)) return false
  return true
}

/** The printed form (`${}`): numbers by `Number::toString` with `-0` as `0`, lists joined by `", "`, maps as JSON. */
export function show(v: Value): string {
  switch (typeof v) {
    case 'string':
      return v
    case 'number':
      return v === 0 ? '0' : String(v)
    case 'boolean':
      return v ? 'true' : 'false'
  }
  if (Array.isArray(v)) {
    let s = ''
    for (let i = 0; i < v.length; i++) s += (i ? ', ' : '') + show(v[i]!)
    return s
  }
  return JSON.stringify(v)
}

/** A type name for messages. */
export function typeName(v: Value): string {
  if (Array.isArray(v)) return 'a list'
  switch (typeof v) {
    case 'number':
      return 'a number'
    case 'string':
      return 'a string'
    case 'boolean':
      return 'a boolean'
  }
  return 'a map'
}

/** Converts JSON (session values, host results, saved variables) to a story value; `null` gives `undefined`. */
export function fromJson(v: JsonValue | undefined): Value | undefined {
  if (v === null || v === undefined) return undefined
  if (typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? undefined : v
  if (Array.isArray(v)) {
    const out: Value[] = []
    for (const x of v) {
      const y = fromJson(x)
      if (y !== undefined) out.push(y)
    }
    return out
  }
  const out: Record<string, Value> = {}
  for (const k of Object.keys(v)) {
    const y = fromJson(v[k])
    if (y !== undefined && k !== '__proto__') out[k] = y
  }
  return out
}
