/**
 * The per-field bounds of {@link MANIFEST_LIMITS}, publishing policy: one iterative walk of the
 * parsed value (no recursion: any depth is safe) that bounds its nesting, counts its keys and
 * values and holds every string, list and map to its field's bound. The walk visits each array
 * and object once and stops at the first bound of the whole (depth, keys, values), so it costs no
 * more than the value's size allows. A parse runs it only when asked (`bounds:
 * checkManifestBounds`), after the size and depth guards every reader keeps (`manifest-guards.ts`):
 * a bundle that does not ask drops this file and `manifest-limits.ts`.
 */

import { MANIFEST_FIELD_CHECKS } from './compiled/validators'
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import type { ManifestField } from './fields'
import { isPlainObject } from './json'
import { tooLarge } from './manifest-guards'
import { MANIFEST_LIMITS, type ManifestBound } from './manifest-limits'
import { VERSION_PATTERN } from './rules'

// No top-level code reads MANIFEST_LIMITS (a property read may have effects, for a bundler): a
// bundle that never calls the walk drops this file and the table.

/** Where a value lies: each segment from the manifest down (as many as its level: the manifest is 0). */
type Segments = (string | number)[]

/** An array or object to visit: the value, its bound, where it lies. */
type Node = [v: unknown, b: ManifestBound, at: Segments]

/** What {@link checkManifestBounds} found. */
export interface ManifestBoundsResult {
  /** A bound of the whole manifest (depth, keys, values): nothing more is checked or returned. */
  fatal?: Diagnostic
  /** Values over their bound (`manifest/too-long`, `manifest/too-many`), in the order found. */
  findings: Diagnostic[]
  /**
   * The manifest without what is over a bound, which the parse reads on (`undefined` after a
   * fatal finding): a field over its bound is left out, a list or map (`parts`, `integrity`...)
   * loses only its members over a bound, and more unknown fields than allowed are all left out.
   * The input itself when nothing is over; else a shallow copy, the input untouched.
   */
  value?: Record<string, unknown>
}

/** The bound of the member `key` of an object bounded by `b`, or `undefined` when `key` is not one of its properties. */
const propertyBound = (b: ManifestBound, key: string): ManifestBound | undefined =>
  b.properties && Object.hasOwn(b.properties, key) ? b.properties[key] : undefined

/**
 * Holds a parsed manifest (the object `value`, at the archive path `path`) to
 * {@link MANIFEST_LIMITS}; pass it as the `bounds` option of `parseManifest` or
 * `parseManifestText`, which then report its findings and leave out what is over. Iterative: a
 * queue of the arrays and objects still to visit, in document order level by level (strings and
 * other scalars are checked where their container is, so a list of 500 paths is one loop), and a
 * value nested 100,000 levels deep is refused at level 65 like any other.
 *
 * @example
 * parseManifestText(text, { bounds: checkManifestBounds })
 */
export function checkManifestBounds(value: Record<string, unknown>, path: string): ManifestBoundsResult {
  const L = MANIFEST_LIMITS
  const OTHER: Required<Pick<ManifestBound, 'maxLength' | 'maxItems' | 'maxOtherKeys'>> = L.other
  const ROOT: ManifestBound = { properties: L.fields, maxOtherKeys: L.maxUnknownFields, other: OTHER }
  const findings: Diagnostic[] = []
  /**
   * What is left out, by top-level field: `true` for the whole field, else the indexes or keys of
   * the members over a bound. The key `''`: more unknown fields than allowed, all of them go.
   */
  const bad = new Map<string, true | Set<string | number>>()
  const result: ManifestBoundsResult = { findings }
  const queue: Node[] = [[value, ROOT, []]]
  let keys = 0
  let values = 1

  /** Reports `at` and leaves out its top-level field, or only its member of a list or map. */
  const find = (at: Segments, over: string, max: number, unit: string, drop = at) => {
    const field = at.length > 0 ? toPointer(at) : undefined
    findings.push(
      createDiagnostic(
        unit === 'characters' ? 'manifest/too-long' : 'manifest/too-many',
        `${field === undefined ? path : `"${field.slice(1)}"`} has ${over}, over the ${max} ${unit} allowed.`,
        { path, field },
      ),
    )
    const top = (drop[0] ?? '') as string
    const known = bad.get(top)
    if (drop.length < 2) bad.set(top, true)
    else if (known === undefined) bad.set(top, new Set([drop[1]!]))
    else if (known !== true) known.add(drop[1]!)
  }
  /** Checks the member `key` of the container at `at`: a string here, an array or object when its turn comes. */
  const member = (x: unknown, b: ManifestBound, at: Segments, key: string | number) => {
    if (typeof x === 'string') {
      const max = b.maxLength ?? OTHER.maxLength
      if (x.length > max) find([...at, key], `${x.length} characters`, max, 'characters')
    } else if (typeof x === 'object' && x !== null) queue.push([x, b, [...at, key]])
  }

  for (let i = 0; i < queue.length; i++) {
    const [v, b, at] = queue[i]!
    if (at.length >= L.maxDepth) {
      const field = toPointer(at)
      result.fatal = createDiagnostic(
        'manifest/too-deep',
        `${path} nests deeper than ${L.maxDepth} levels at "${field}"; it is not read.`,
        { path, field },
      )
      return result
    }
    const list = Array.isArray(v)
    if (!list && !isPlainObject(v)) continue
    // A list over its bound is reported whole, its items neither counted nor checked.
    const maxItems = b.maxItems ?? OTHER.maxItems
    if (list && v.length > maxItems) {
      find(at, `${v.length} items`, maxItems, 'items')
      continue
    }
    const own = list ? v : Object.keys(v)
    values += own.length
    if (!list) keys += own.length
    if (keys > L.maxKeys || values > L.maxValues) {
      result.fatal = tooLarge(path, `holds more than ${L.maxKeys} object keys or ${L.maxValues} JSON values`)
      return result
    }
    if (list) {
      for (let k = 0; k < v.length; k++) member(v[k], b.item ?? OTHER, at, k)
      continue
    }
    const record = v as Record<string, unknown>
    const names = own as string[]
    let others = 0
    for (const k of names) if (!propertyBound(b, k)) others++
    const max = b.maxOtherKeys ?? OTHER.maxOtherKeys
    // The manifest itself keeps its known fields: only the unknown ones go.
    if (others > max) find(at, `${others} ${at.length > 0 ? 'keys' : 'unknown fields'}`, max, 'keys')
    if (others > max && at.length > 0) continue
    for (const k of names) {
      const known = propertyBound(b, k)
      if (!known && others > max) continue
      // The key itself may be a megabyte long: the finding names the object holding it.
      if (k.length > L.maxKeyLength)
        find(at, `a key of ${k.length} characters`, L.maxKeyLength, 'characters', [...at, k])
      else member(record[k], known ?? b.other ?? OTHER, at, k)
    }
  }
  // `version` names a stored version on the platform: never a path (kept, like a rule's finding).
  const v = value.version
  if (typeof v === 'string' && v.length <= L.fields.version.maxLength && !VERSION_PATTERN.test(v))
    findings.push(
      createDiagnostic(
        'manifest/invalid-version',
        `"version" must be like "1.2.3" or "1.0-beta.2" (letters, digits, . _ + -; no ".."), got ${JSON.stringify(v)}.`,
        { path, field: '/version' },
      ),
    )
  result.value = bad.size > 0 ? without(value, bad) : value
  return result
}

/**
 * A copy of `value` without what `bad` names: a known field written as a list or map (as its
 * schema reads it) keeps its other members, any other field over a bound goes whole; an unknown
 * field goes only when it is over a bound itself (`x-note` too long), or with all of them (`''`).
 */
function without(value: Record<string, unknown>, bad: Map<string, true | Set<string | number>>) {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(value)) {
    const over = bad.get(k)
    const known = Object.hasOwn(MANIFEST_LIMITS.fields, k)
    if (over === true || (!known && bad.has(''))) continue
    const raw = value[k]
    if (over === undefined || !known) out[k] = raw
    else {
      const kind = MANIFEST_FIELD_CHECKS[k as ManifestField].kind
      if (kind === 'array' && Array.isArray(raw)) out[k] = raw.filter((_, i) => !over.has(i))
      else if (kind === 'record' && isPlainObject(raw)) {
        const kept: Record<string, unknown> = {}
        for (const m of Object.keys(raw)) if (!over.has(m)) kept[m] = raw[m]
        out[k] = kept
      }
    }
  }
  return out
}
