/**
 * Story values (section 6): truthiness, deep equality and the printed form. Internal.
 */
import type { JsonValue } from '@spkg/manifest'
import { ItemSet, type SetDecl, sameSet, setToJson } from './sets.ts'
import type { Value } from './types.ts'

/** Falsy: `false`, `0`, `""`, `[]`, `{}` (section 6). */
export function truthy(v: Value): boolean {
  if (v === true) return true
  if (v === false) return false
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v)
  if (typeof v === 'string') return v.length > 0
  if (Array.isArray(v)) return v.length > 0
  if (v instanceof ItemSet) return v.ords.length > 0
  for (const _ in v) return true
  return false
}

/** Deep equality with no coercion. */
export function equal(a: Value, b: Value): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object') return false
  if (a instanceof ItemSet || b instanceof ItemSet)
    return a instanceof ItemSet && b instanceof ItemSet && sameSet(a, b)
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
  if (v instanceof ItemSet) {
    // ink prints a list's items in order joined by ", "; an empty set prints nothing. An item
    // prints its text when its declaration gives one (a minified story's renamed items do).
    const shown = v.decl.shown ?? v.decl.items
    let s = ''
    for (let i = 0; i < v.ords.length; i++) s += (i ? ', ' : '') + shown[v.ords[i]!]!
    return s
  }
  return JSON.stringify(toJson(v))
}

/** A type name for messages. */
export function typeName(v: Value): string {
  if (Array.isArray(v)) return 'a list'
  if (v instanceof ItemSet) return `a set of ${v.decl.name}`
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

/**
 * A value as JSON, for the reading state and host functions: a set is `{"$items": "Tools", "of":
 * ["rope"]}`; with `escapeMaps` (the reading state of a 1.1 story), a map with a key starting `$` is
 * wrapped as `{"$map": map}` so that no map reads back as a set.
 */
export function toJson(v: Value, escapeMaps = false): JsonValue {
  if (typeof v !== 'object') return v
  if (v instanceof ItemSet) return setToJson(v)
  if (Array.isArray(v)) {
    let plain = true
    for (const x of v) if (typeof x === 'object') plain = false
    return plain ? (v as JsonValue[]) : v.map((x) => toJson(x, escapeMaps))
  }
  const out: Record<string, JsonValue> = {}
  let dollar = false
  for (const k of Object.keys(v)) {
    out[k] = toJson(v[k]!, escapeMaps)
    if (k.startsWith('$')) dollar = true
  }
  return escapeMaps && dollar ? { $map: out } : out
}

/**
 * A saved variable of a 1.1 story back to a value: `{"$items", "of"}` is a set of a known
 * declaration (items it no longer declares are dropped), `{"$map"}` an escaped map; the rest as
 * {@link fromJson}. An unknown declaration leaves the object a map.
 */
export function fromStateJson(
  v: JsonValue | undefined,
  decls: ReadonlyMap<string, SetDecl>,
): Value | undefined {
  if (v === null || v === undefined || typeof v !== 'object') return fromJson(v)
  if (Array.isArray(v)) {
    const out: Value[] = []
    for (const x of v) {
      const y = fromStateJson(x, decls)
      if (y !== undefined) out.push(y)
    }
    return out
  }
  const keys = Object.keys(v)
  if (keys.length === 2 && typeof v.$items === 'string' && Array.isArray(v.of)) {
    const decl = decls.get(v.$items)
    if (decl) {
      const ords = new Set<number>()
      for (const x of v.of) {
        const o = typeof x === 'string' ? decl.index.get(x) : undefined
        if (o !== undefined) ords.add(o)
      }
      return new ItemSet(
        decl,
        [...ords].sort((a, b) => a - b),
      )
    }
  }
  const inner = keys.length === 1 && v.$map !== null && typeof v.$map === 'object' && !Array.isArray(v.$map)
  const src = inner ? (v.$map as Record<string, JsonValue>) : v
  const out: Record<string, Value> = {}
  for (const k of Object.keys(src)) {
    const y = fromStateJson(src[k], decls)
    if (y !== undefined && k !== '__proto__') out[k] = y
  }
  return out
}
