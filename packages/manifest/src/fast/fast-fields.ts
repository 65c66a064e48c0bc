/**
 * Cold-start optimisation of `parseManifest` (target: a package peek or open in a fresh
 * process, whose manifest `spkg pack` wrote in canonical form: bare part names, lowercase
 * digests for every file). A check of manifest fields already in canonical form that
 * `parseManifest` asks first; when it answers, the value is exactly what the schema's check
 * (`compiled/validators.ts`, exactly zod) would return (same values, same key order, new arrays
 * and objects where it builds them, or the input itself when the caller owns it) and that check
 * would have reported nothing. On any doubt (a wrong type, an `undefined` member, a non-plain
 * object, a `__proto__` key, a field or member it does not model) it answers `undefined` and the
 * schema's check decides, so results and diagnostics are the schema's in every case
 * (`fast-fields.property.test.ts` checks that equivalence on arbitrary input).
 *
 * Measured gain over the compiled checks alone (scripts/measure-fast.ts: a fresh process per
 * sample, first parse, on and off alternating, 21 each; medians and quartiles, 2-core machine):
 * a 250-part manifest with 500 digests, 2.33 ms (2.29-2.37) against 5.35 ms (5.16-5.62) at
 * load 1.8 (14.9 against 25.4 ms at load 20); a 5-part manifest, 0.75 ms (0.74-0.82) against
 * 1.03 ms (1.03-1.05). Kept: the gain is well above the spread of either figure.
 */

import type { ManifestField } from '../fields'
import { isPlainObject } from '../json'
import { derivePartName } from '../normalize'

/** Set by a check that cannot vouch that its output serialises like its input (keys reordered). */
let reordered = false
/**
 * Set for the duration of one {@link fastField} call whose input nobody else holds (the fresh
 * result of `JSON.parse`): an array or object whose checked content is identical, in the same
 * order, is then returned itself instead of copied (copying 500 integrity entries or 250 parts
 * is a large part of a cold package peek).
 */
let owned = false

/** Thrown inside a check to mean "not sure: let zod decide". */
const DOUBT: unique symbol = Symbol('doubt')

const doubt = (): never => {
  throw DOUBT
}

type Check = (v: unknown) => unknown

const string: Check = (v) => (typeof v === 'string' ? v : doubt())
const nonEmptyString: Check = (v) => (typeof v === 'string' && v.length >= 1 ? v : doubt())
const boolean: Check = (v) => (typeof v === 'boolean' ? v : doubt())
const number: Check = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : doubt())
const numberOrString: Check = (v) =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : doubt()
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? v : doubt()
const HEX64 = /^[0-9a-f]{64}$/

/** A plain object whose own keys are all safe to copy by assignment. */
function plain(v: unknown): Record<string, unknown> {
  if (!isPlainObject(v)) return doubt()
  return v
}

/**
 * An array of `item` (as `parseManifest` validates arrays: member by member, a new array). A
 * hole or an `undefined` member fails its item check.
 */
const arrayOf =
  (item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return doubt()
    const n = v.length
    // Owned input: copied only from the first member the check changed.
    let out = owned ? undefined : new Array<unknown>(n)
    for (let i = 0; i < n; i++) {
      const x = v[i]
      const y = item(x)
      if (out) out[i] = y
      else if (y !== x) {
        out = v.slice(0, i)
        out[i] = y
      }
    }
    return out ?? v
  }

/**
 * zod's looseObject: known keys in shape order (required ones must be present, optional ones
 * only when present), then the other own keys in input order, values untouched.
 */
function looseObject(shape: Record<string, Check>, required: readonly string[] = []): Check {
  const known = Object.keys(shape)
  /**
   * For an owned input: true when the output would be the input itself (known keys first, in
   * shape order, each value checked unchanged; no other key that zod would doubt), so nothing
   * is built. False sends it through the copying path below, which decides as before.
   */
  const reusable = (input: Record<string, unknown>, keys: string[]): boolean => {
    let k = 0
    for (let s = 0; s < known.length; s++) {
      const key = known[s]!
      if (!Object.hasOwn(input, key)) {
        if (required.includes(key)) return false
        continue
      }
      const value = input[key]
      if (value === undefined || keys[k++] !== key || shape[key]!(value) !== value) return false
    }
    for (; k < keys.length; k++) {
      const key = keys[k]!
      if (Object.hasOwn(shape, key) || key === '__proto__' || input[key] === undefined) return false
    }
    return true
  }
  return (v) => {
    const input = plain(v)
    const keys = Object.keys(input)
    if (owned && reusable(input, keys)) return input
    const out: Record<string, unknown> = {}
    // Whether the output's keys come in the input's order (then its JSON is the input's).
    let k = 0
    let inOrder = true
    for (let s = 0; s < known.length; s++) {
      const key = known[s]!
      if (!Object.hasOwn(input, key)) {
        if (required.includes(key)) return doubt()
        continue
      }
      const value = input[key]
      if (value === undefined) return doubt()
      out[key] = shape[key]!(value)
      if (keys[k++] !== key) inOrder = false
    }
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!
      if (Object.hasOwn(shape, key)) continue
      if (key === '__proto__' || input[key] === undefined) return doubt()
      out[key] = input[key]
      if (keys[k++] !== key) inOrder = false
    }
    if (!inOrder) reordered = true
    return out
  }
}

/**
 * The integrity map as `parseManifest` validates records: each value checked (lowercase hex
 * SHA-256), a new object in `Object.entries` order, or an owned input itself; one loop, no call
 * per member (the map lists every file).
 */
const digestMap: Check = (v) => {
  const input = plain(v)
  const keys = Object.keys(input)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const x = input[key]
    if (key === '__proto__' || typeof x !== 'string' || !HEX64.test(x)) return doubt()
  }
  if (owned) return input
  const out: Record<string, unknown> = {}
  for (let i = 0; i < keys.length; i++) out[keys[i]!] = input[keys[i]!]
  return out
}

const partsOf = arrayOf(looseObject({ file: string, name: string }, ['file', 'name']))

/**
 * `parts` as {@link partsOf} checks them; an owned list whose members are all exactly
 * `{ file, name }` strings, in that order (a canonical manifest's, or the normaliser's from bare
 * file names), is taken in one loop without a call per member.
 */
const parts: Check = (v) => {
  if (owned && Array.isArray(v)) {
    let i = 0
    for (; i < v.length; i++) {
      const p = v[i]
      if (!isPlainObject(p)) break
      const keys = Object.keys(p)
      if (keys.length !== 2 || keys[0] !== 'file' || keys[1] !== 'name') break
      if (typeof p.file !== 'string' || typeof p.name !== 'string') break
    }
    if (i === v.length) return v
  }
  return partsOf(v)
}

const stringList = arrayOf(string)
const section = looseObject({ enabled: boolean, label: string, icon: string })

const FIELDS: Record<ManifestField, Check> = {
  story_lang: string,
  manifest: string,
  type: oneOf('story', 'instruction'),
  id: nonEmptyString,
  title: string,
  intro: string,
  cover: string,
  author: arrayOf(looseObject({ name: nonEmptyString, id: nonEmptyString }, ['name'])),
  version: string,
  language: string,
  direction: oneOf('ltr', 'rtl'),
  date: string,
  description: string,
  genre: string,
  tags: stringList,
  license: string,
  parts,
  assets: arrayOf(looseObject({ file: string, name: string }, ['file'])),
  instruction: string,
  stories: stringList,
  readers: arrayOf(number),
  age: looseObject({ min: number, max: number }),
  content_warnings: stringList,
  series: string,
  season: numberOrString,
  entry: numberOrString,
  series_name: string,
  season_name: string,
  duration: (v) => ((number(v) as number) >= 0 ? v : doubt()),
  sensors: stringList,
  accessibility: stringList,
  // `params` (a record of anything) is left to zod.
  allowed_urls: arrayOf(looseObject({ alias: nonEmptyString, url: string, params: doubt }, ['alias', 'url'])),
  extensions: stringList,
  requires: stringList,
  loading: oneOf('progressive'),
  preload: stringList,
  locked: stringList,
  offline: boolean,
  preview: boolean,
  integrity: digestMap,
  solo_mode: oneOf('all_roles', 'single_role'),
  storage: oneOf('none', 'local', 'cloud'),
  reader: looseObject({
    tabBar: looseObject({
      enabled: boolean,
      priorityHand: oneOf('reader', 'left', 'right'),
      help: section,
      map: section,
      bag: section,
      character: section,
      actions: section,
    }),
  }),
  build: looseObject({ minified: boolean, names_map: string }),
  signed: boolean,
  signature: string,
}

/**
 * The validated value of one field when it is plainly valid (`value`, exactly what the zod path
 * would return, with no diagnostic), or `undefined` when zod must decide. When `same` is true
 * the value serialises to the same JSON as the input (no key was reordered). `ownedInput`: the
 * caller owns `value` (nothing else refers to it), so unchanged arrays and objects may be
 * returned themselves rather than copied.
 */
export function fastField(
  field: ManifestField,
  value: unknown,
  ownedInput = false,
): { value: unknown; same: boolean } | undefined {
  const check = FIELDS[field]
  if (!check) return undefined
  reordered = false
  owned = ownedInput
  try {
    return { value: check(value), same: !reordered }
  } catch (e) {
    if (e === DOUBT) return undefined
    throw e
  } finally {
    owned = false
  }
}

/**
 * `parts` given as bare file names, the way a packer writes them: each becomes `{ file, name }`
 * (what normalising gives, already canonical), in one loop without a call per member besides
 * the name. `undefined` when `value` is not a non-empty array of strings.
 */
export function nameBareParts(value: unknown): { file: string; name: string }[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined
  const n = value.length
  for (let i = 0; i < n; i++) if (typeof value[i] !== 'string') return undefined
  const out = new Array<{ file: string; name: string }>(n)
  for (let i = 0; i < n; i++) {
    const file = value[i] as string
    out[i] = { file, name: derivePartName(file) }
  }
  return out
}
