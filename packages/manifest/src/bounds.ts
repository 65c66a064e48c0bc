/**
 * The checks of {@link MANIFEST_LIMITS}: the size of `manifest.json`'s text before it is parsed,
 * then one iterative walk of the parsed value (no recursion: any depth is safe) that bounds its
 * nesting, counts its keys and values and holds every string, list and map to its field's bound.
 * The walk visits each array and object once and stops at the first bound of the whole (depth,
 * keys, values), so it costs no more than the value's size allows; it runs before any other check
 * of the manifest. Kept small: it is in every player's bundle.
 */
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { isPlainObject } from './json'
import { MANIFEST_LIMITS, type ManifestBound } from './manifest-limits'

const L = MANIFEST_LIMITS
const OTHER: Required<Pick<ManifestBound, 'maxLength' | 'maxItems' | 'maxOtherKeys'>> = L.other
const ROOT: ManifestBound = { properties: L.fields, maxOtherKeys: L.maxUnknownFields, other: OTHER }

/** Where a value lies: each segment from the manifest down (as many as its level: the manifest is 0). */
type Segments = (string | number)[]

/** An array or object to visit: the value, its bound, where it lies. */
type Node = [v: unknown, b: ManifestBound, at: Segments]

/** What {@link checkManifestBounds} found. */
export interface BoundsResult {
  /** A bound of the whole manifest (depth, keys, values): nothing more is checked or returned. */
  fatal?: Diagnostic
  /** Values over their bound (`manifest/too-long`, `manifest/too-many`), in the order found. */
  findings: Diagnostic[]
  /**
   * What the parse leaves out, by top-level field: `true` for the whole field, else the indexes
   * or keys of the members over a bound (lists and maps keep their other members). The key `''`:
   * more unknown fields than allowed, every unknown field is left out.
   */
  bad: Map<string, true | Set<string | number>>
}

/**
 * `manifest/too-large` when `text` is over {@link MANIFEST_LIMITS}' `maxBytes` in UTF-8: a
 * string never has more UTF-16 units than UTF-8 bytes, so a long one is refused by its length;
 * one that may be over is encoded into a buffer of the limit's size, which it must fit.
 */
export function textTooLarge(text: string, path: string): Diagnostic | undefined {
  const max = L.maxBytes
  const n = text.length
  if (n * 3 <= max || (n <= max && new TextEncoder().encodeInto(text, new Uint8Array(max)).read === n))
    return undefined
  return tooLarge(path, `is over ${max} bytes (1 MiB)`)
}

const tooLarge = (path: string, what: string) =>
  createDiagnostic('manifest/too-large', `${path} ${what}, the limit of a manifest; it is not read.`, {
    path,
  })

/** The bound of the member `key` of an object bounded by `b`, or `undefined` when `key` is not one of its properties. */
const propertyBound = (b: ManifestBound, key: string): ManifestBound | undefined =>
  b.properties && Object.hasOwn(b.properties, key) ? b.properties[key] : undefined

/**
 * Holds a parsed manifest to {@link MANIFEST_LIMITS}. Iterative: a queue of the arrays and
 * objects still to visit, in document order level by level (strings and other scalars are checked
 * where their container is, so a list of 500 paths is one loop), and a value nested 100,000
 * levels deep is refused at level 65 like any other.
 */
export function checkManifestBounds(value: Record<string, unknown>, path: string): BoundsResult {
  const findings: Diagnostic[] = []
  const bad = new Map<string, true | Set<string | number>>()
  const result: BoundsResult = { findings, bad }
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
  return result
}
