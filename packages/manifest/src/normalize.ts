/**
 * Normalisers from the looser forms authors write to the canonical shape. Each takes the raw
 * field value and returns the candidate canonical value; validation comes after.
 */

import type { ManifestField } from './fields'
import { isPlainObject } from './json'

/**
 * Derives a part's display name from its file when the manifest gives a bare string:
 * the file name without directory and extension, without a leading number prefix
 * (`0002-`), with `-` and `_` read as spaces, first letter upper-cased.
 *
 * @example
 * derivePartName('story/0002-forest-edge.sty') // 'Forest edge'
 */
export function derivePartName(file: string): string {
  // The common case in one scan of character codes, no helper call: a name after the number
  // prefix that starts and ends with printable ASCII (so trimming leaves it) and has no `-` or
  // `_`. Anything else takes the general path below, which defines the result.
  const from = file.lastIndexOf('/') + 1
  const dot = file.lastIndexOf('.')
  const end = dot >= from && dot < file.length - 1 ? dot : file.length
  let digits = from
  while (digits < end) {
    const c = file.charCodeAt(digits)
    if (c < 0x30 || c > 0x39) break
    digits++
  }
  let start = from
  if (digits > from) {
    let after = digits
    while (after < end) {
      const c = file.charCodeAt(after)
      if (c !== 0x2d && c !== 0x5f && c !== 0x2e && c !== 0x20) break
      after++
    }
    if (after > digits || digits === end) start = after
  }
  if (start < end) {
    const first = file.charCodeAt(start)
    const last = file.charCodeAt(end - 1)
    if (first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f) {
      const rest = file.slice(start, end)
      if (!rest.includes('-') && !rest.includes('_'))
        return first >= 0x61 && first <= 0x7a ? String.fromCharCode(first - 0x20) + rest.slice(1) : rest
    }
  }
  return derivePartNameGeneral(file)
}

/** {@link derivePartName} for any file name (the reference its common case is tested against). @internal */
export function derivePartNameGeneral(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1)
  // Without the extension: the last dot and what follows it, when something follows it.
  const dot = base.lastIndexOf('.')
  const stem = dot >= 0 && dot < base.length - 1 ? base.slice(0, dot) : base
  // A number prefix goes with the separators after it (`0002-`), or alone when it is all there
  // is: /^\d+(?:[-_. ]+|$)/ written as a scan.
  let digits = 0
  while (digits < stem.length && isDigit(stem.charCodeAt(digits))) digits++
  let start = 0
  if (digits > 0) {
    let end = digits
    while (end < stem.length && isPrefixSeparator(stem.charCodeAt(end))) end++
    if (end > digits || digits === stem.length) start = end
  }
  const rest = start > 0 ? stem.slice(start) : stem
  const words = (rest.includes('-') || rest.includes('_') ? rest.replace(/[-_]+/g, ' ') : rest).trim()
  const name = words.length > 0 ? words : stem
  return name.length > 0 ? name.charAt(0).toUpperCase() + name.slice(1) : base
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39
/** `-`, `_`, `.` or a space. */
const isPrefixSeparator = (c: number) => c === 0x2d || c === 0x5f || c === 0x2e || c === 0x20

/** `sha256-<base64>` or 64 hex digits in any case → lowercase hex; anything else → undefined. */
export function normalizeDigest(value: string): string | undefined {
  const v = value.trim()
  if (/^[0-9a-fA-F]{64}$/.test(v)) return v.toLowerCase()
  const m = /^sha256-([A-Za-z0-9+/]{43}=)$/.exec(v)
  if (!m) return undefined
  let bin: string
  try {
    bin = atob(m[1]!)
  } catch {
    return undefined
  }
  if (bin.length !== 32) return undefined
  let hex = ''
  for (let i = 0; i < bin.length; i++) hex += bin.charCodeAt(i).toString(16).padStart(2, '0')
  return hex
}

const STRING_LISTS = new Set<ManifestField>([
  'tags',
  'stories',
  'content_warnings',
  'sensors',
  'accessibility',
  'extensions',
  'requires',
  'preload',
  'locked',
])

const HEX64 = /^[0-9a-f]{64}$/

/** True when every value is already lowercase hex (what `normalizeDigest` would return unchanged). */
function isCanonicalDigestMap(value: Record<string, unknown>): boolean {
  for (const k of Object.keys(value)) {
    const v = value[k]
    if (typeof v !== 'string' || !HEX64.test(v)) return false
  }
  return true
}

const toList = (v: unknown): unknown => (Array.isArray(v) ? v : [v])

/**
 * `f` over the members of `list`: `list` itself when `f` returned every member unchanged, else
 * a new array (so a caller can tell "normalised" by reference).
 */
function mapChanged(list: unknown[], f: (v: unknown) => unknown): unknown[] {
  let out: unknown[] | undefined
  for (let i = 0; i < list.length; i++) {
    const v = list[i]
    const w = f(v)
    if (out) out.push(w)
    else if (!Object.is(w, v)) {
      out = list.slice(0, i)
      out.push(w)
    }
  }
  return out ?? list
}

const authorOf = (a: unknown) => (typeof a === 'string' ? { name: a } : a)
const assetOf = (a: unknown) => (typeof a === 'string' ? { file: a } : a)
const partOf = (p: unknown) => {
  if (typeof p === 'string') return { file: p, name: derivePartName(p) }
  if (isPlainObject(p) && typeof p.file === 'string' && p.name === undefined)
    return { ...p, name: derivePartName(p.file) }
  return p
}

/**
 * Returns the canonical candidate for one field's raw value. It returns `value` itself when
 * there is nothing to normalise, and a new value only when normalising changed it in a way its
 * JSON shows (a string wrapped in a list, a part given its name, a digest rewritten), so
 * `parseManifest` reports `manifest/normalized` by reference, without serialising.
 */
export function normalizeField(field: ManifestField, value: unknown): unknown {
  switch (field) {
    case 'author':
      if (typeof value === 'string' || isPlainObject(value)) return [authorOf(value)]
      return Array.isArray(value) ? mapChanged(value, authorOf) : value
    case 'parts':
      return Array.isArray(value) ? mapChanged(value, partOf) : value
    case 'assets':
      return Array.isArray(value) ? mapChanged(value, assetOf) : value
    case 'readers':
      return typeof value === 'number' ? [value] : value
    case 'integrity': {
      if (!isPlainObject(value) || isCanonicalDigestMap(value)) return value
      let changed = false
      const out = Object.fromEntries(
        Object.entries(value).map(([k, v]) => {
          const w = typeof v === 'string' ? (normalizeDigest(v) ?? v) : v
          if (!Object.is(w, v)) changed = true
          return [k, w]
        }),
      )
      return changed ? out : value
    }
    default:
      if (STRING_LISTS.has(field) && typeof value === 'string') return toList(value)
      return value
  }
}
