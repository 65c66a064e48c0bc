/**
 * The checks of {@link MANIFEST_LIMITS}: the size and nesting of `manifest.json`'s text before it
 * is parsed, then one iterative walk of the parsed value (no recursion: any depth is safe) that
 * counts its keys and values and holds every string, list and map to its field's bound. The walk
 * visits each value once and stops at the first bound of the whole (depth, keys, values), so it
 * costs no more than the value's size allows; it runs before any other check of the manifest.
 */
import type { DiagnosticCode } from './codes'
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { isPlainObject } from './json'
import { MANIFEST_LIMITS, type ManifestBound } from './manifest-limits'

const L = MANIFEST_LIMITS
const OTHER: ManifestBound = L.other
const ROOT: ManifestBound = { properties: L.fields, maxOtherKeys: L.maxUnknownFields, other: OTHER }

/** Where a value lies: each segment from the manifest down. */
type Segments = (string | number)[]

/** What {@link checkManifestBounds} found. */
export interface BoundsResult {
  /** A bound of the whole manifest (depth, keys, values): nothing more is checked or returned. */
  fatal?: Diagnostic
  /** Values over their bound (`manifest/too-long`, `manifest/too-many`), in the order found. */
  findings: Diagnostic[]
  /**
   * What the parse leaves out, by top-level field: `true` for the whole field, else the indexes
   * or keys of the members over a bound (lists and maps keep their other members).
   */
  bad: Map<string, true | Set<string | number>>
  /** More unknown fields than allowed: every unknown field is left out. */
  unknownOverflow: boolean
}

/** The UTF-8 length of `text`, counting no further than `stop` (a lone surrogate counts 3, as encoders write U+FFFD). */
function utf8Length(text: string, stop: number): number {
  let n = 0
  for (let i = 0; i < text.length && n <= stop; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

/**
 * `manifest/too-large` when `text` is over {@link MANIFEST_LIMITS}' `maxBytes` in UTF-8 (a
 * string never has more UTF-16 units than UTF-8 bytes, so a long one is refused without a scan).
 */
export function textTooLarge(text: string, path: string): Diagnostic | undefined {
  const max = L.maxBytes
  if (text.length * 3 <= max) return undefined
  if (text.length <= max && utf8Length(text, max) <= max) return undefined
  return tooLargeBytes(path, text.length > max ? text.length : utf8Length(text, max))
}

/** `manifest/too-large` for a manifest of `bytes` bytes (the reader's check of the entry's size). */
export function tooLargeBytes(path: string, bytes: number): Diagnostic {
  return createDiagnostic(
    'manifest/too-large',
    `${path} is ${bytes > L.maxBytes * 2 ? `${Math.round(bytes / 1_048_576)} MiB` : `${bytes} bytes`}, over the ${L.maxBytes}-byte (1 MiB) limit of a manifest; it is not read.`,
    { path },
  )
}

function tooDeep(path: string, segments: Segments): Diagnostic {
  return createDiagnostic(
    'manifest/too-deep',
    `${path} nests deeper than ${L.maxDepth} levels at "${toPointer(segments)}"; it is not read.`,
    { path, field: toPointer(segments) },
  )
}

/**
 * Scans JSON text without parsing it, in one pass with no recursion, for an array or object
 * nested deeper than `maxDepth` (the outermost value is level 1): the segments down to the first
 * one, or `undefined`. Strings are skipped whole; text that is not JSON is left for `JSON.parse`
 * to refuse (the verdict on it is JSON.parse's unless it is found too deep first).
 *
 * @example
 * scanDepth('{"a":[[1]]}', 2) // ['a', 0]
 */
export function scanDepth(text: string, maxDepth: number): Segments | undefined {
  // Per open level: 1 array, 2 object; the item index of an array, the last key of an object
  // (its position in the text, decoded only when reported).
  const kind = new Uint8Array(maxDepth + 1)
  const index = new Int32Array(maxDepth + 1)
  const keyStart = new Int32Array(maxDepth + 1)
  const keyEnd = new Int32Array(maxDepth + 1)
  let depth = 0
  let expectKey = false
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      let j = i
      for (;;) {
        j = text.indexOf('"', j + 1)
        if (j < 0) return undefined
        let backslashes = 0
        while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes++
        if (backslashes % 2 === 0) break
      }
      if (expectKey) {
        keyStart[depth] = i
        keyEnd[depth] = j + 1
        expectKey = false
      }
      i = j
    } else if (c === 0x5b || c === 0x7b) {
      if (depth === maxDepth) return scannedSegments(text, depth, kind, index, keyStart, keyEnd)
      depth++
      kind[depth] = c === 0x5b ? 1 : 2
      index[depth] = 0
      keyStart[depth] = -1
      expectKey = c === 0x7b
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--
      expectKey = false
    } else if (c === 0x2c) {
      if (kind[depth] === 1) index[depth]!++
      else expectKey = kind[depth] === 2
    }
  }
  return undefined
}

/** The segments of the value opening at level `depth + 1` (reported only, so decoding keys here is fine). */
function scannedSegments(
  text: string,
  depth: number,
  kind: Uint8Array,
  index: Int32Array,
  keyStart: Int32Array,
  keyEnd: Int32Array,
): Segments {
  const out: Segments = []
  for (let d = 1; d <= depth; d++) {
    if (kind[d] === 1) out.push(index[d]!)
    else {
      let key = ''
      try {
        key = keyStart[d]! >= 0 ? String(JSON.parse(text.slice(keyStart[d], keyEnd[d]))) : ''
      } catch {}
      out.push(key)
    }
  }
  return out
}

/**
 * Whole strings, and runs of anything that is neither a bracket nor a quote: what is left of a
 * text without them is its brackets (and the quote of a string that never ends).
 */
const NOT_BRACKETS = /"[^"\\]*(?:\\.[^"\\]*)*"|[^[\]{}"]+/g

/**
 * True when the brackets of `text` (outside its strings) may nest deeper than `maxDepth`: two
 * native passes (the regular expression, then a loop over the few brackets left), so a text
 * within the bound, the usual case, is never walked character by character.
 */
function mayNestDeeper(text: string, maxDepth: number): boolean {
  if (text.length <= maxDepth * 2) return false
  const brackets = text.replace(NOT_BRACKETS, '')
  let depth = 0
  for (let i = 0; i < brackets.length; i++) {
    const c = brackets.charCodeAt(i)
    if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--
    }
  }
  return false
}

/** The nesting check of `manifest.json`'s text: `manifest/too-deep` with the pointer of the first value too deep. */
export function textTooDeep(text: string, path: string): Diagnostic | undefined {
  // The scan that names the place runs only when the brackets alone say there is one (it decides:
  // a quote that never closes stops it, and JSON.parse refuses that text).
  if (!mayNestDeeper(text, L.maxDepth)) return undefined
  const at = scanDepth(text, L.maxDepth)
  return at ? tooDeep(path, at) : undefined
}

/** The bound of the member `key` of an object bounded by `b`, or `undefined` when `key` is not one of its properties. */
function propertyBound(b: ManifestBound, key: string): ManifestBound | undefined {
  const props = b.properties
  return props && Object.hasOwn(props, key) ? props[key] : undefined
}

/**
 * Holds a parsed manifest to {@link MANIFEST_LIMITS}. Iterative (a queue of the values still to
 * visit, each with its parent, so a finding can name its pointer): a value nested 100,000 levels
 * deep is refused at level 65 like any other.
 */
export function checkManifestBounds(value: Record<string, unknown>, path: string): BoundsResult {
  const findings: Diagnostic[] = []
  const bad = new Map<string, true | Set<string | number>>()
  const result: BoundsResult = { findings, bad, unknownOverflow: false }
  // The queue of the arrays and objects still to visit, each with its bound, its parent's slot,
  // its key in the parent and its level. Strings and other scalars are checked where their
  // container is visited, so a list of 500 paths or digests is one loop, not 500 visits.
  const values: unknown[] = [value]
  const bounds: ManifestBound[] = [ROOT]
  const parents: number[] = [-1]
  const keys: (string | number)[] = ['']
  const levels: number[] = [1]
  let keyCount = 0
  let valueCount = 1

  const segmentsOf = (slot: number, extra?: string | number): Segments => {
    const out: Segments = extra === undefined ? [] : [extra]
    for (let s = slot; s > 0; s = parents[s]!) out.push(keys[s]!)
    return out.reverse()
  }
  /** Reports the value at `segments` and leaves out what holds it (`drop`: the member to leave out, by default itself). */
  const find = (code: DiagnosticCode, segments: Segments, message: string, drop = segments) => {
    const field = segments.length > 0 ? toPointer(segments) : undefined
    const label = field === undefined ? path : `"${field.slice(1)}"`
    findings.push(createDiagnostic(code, `${label} ${message}.`, { path, field }))
    const top = drop[0] as string
    const member = drop[1]
    if (member === undefined) bad.set(top, true)
    else {
      const known = bad.get(top)
      if (known === true) return
      if (known) known.add(member)
      else bad.set(top, new Set([member]))
    }
  }
  const tooLong = (slot: number, key: string | number, length: number, max: number) =>
    find('manifest/too-long', segmentsOf(slot, key), `is ${length} characters long, over the ${max} allowed`)
  /** Queues `child` (an array or object) of the container at `slot`. */
  const queue = (child: unknown, bound: ManifestBound, slot: number, key: string | number, level: number) => {
    values.push(child)
    bounds.push(bound)
    parents.push(slot)
    keys.push(key)
    levels.push(level + 1)
  }
  const tooManyValues = () =>
    createDiagnostic(
      'manifest/too-large',
      `${path} holds more than ${L.maxValues} JSON values; it is not read.`,
      {
        path,
      },
    )

  for (let slot = 0; slot < values.length; slot++) {
    const v = values[slot] as object
    const b = bounds[slot]!
    const level = levels[slot]!
    if (level > L.maxDepth) {
      result.fatal = tooDeep(path, segmentsOf(slot))
      return result
    }
    if (Array.isArray(v)) {
      const max = b.maxItems ?? OTHER.maxItems!
      if (v.length > max) {
        find('manifest/too-many', segmentsOf(slot), `has ${v.length} items, over the ${max} allowed`)
        continue
      }
      valueCount += v.length
      if (valueCount > L.maxValues) {
        result.fatal = tooManyValues()
        return result
      }
      const item = b.item ?? OTHER
      const maxLength = item.maxLength ?? OTHER.maxLength!
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i]
        if (typeof x === 'string') {
          if (x.length > maxLength) tooLong(slot, i, x.length, maxLength)
        } else if (typeof x === 'object' && x !== null) queue(x, item, slot, i, level)
      }
      continue
    }
    if (!isPlainObject(v)) continue
    const own = Object.keys(v)
    keyCount += own.length
    if (keyCount > L.maxKeys) {
      result.fatal = createDiagnostic(
        'manifest/too-large',
        `${path} holds more than ${L.maxKeys} object keys; it is not read.`,
        { path },
      )
      return result
    }
    valueCount += own.length
    if (valueCount > L.maxValues) {
      result.fatal = tooManyValues()
      return result
    }
    const maxOther = b.maxOtherKeys ?? OTHER.maxOtherKeys!
    let others = 0
    if (b.properties) {
      for (let k = 0; k < own.length; k++) if (!propertyBound(b, own[k]!)) others++
    } else others = own.length
    if (others > maxOther) {
      if (slot === 0) {
        // The manifest itself: the unknown fields go, the known ones are still checked.
        result.unknownOverflow = true
        findings.push(
          createDiagnostic(
            'manifest/too-many',
            `${path} has ${others} fields it does not know, over the ${maxOther} allowed; they are left out.`,
            { path },
          ),
        )
      } else {
        find('manifest/too-many', segmentsOf(slot), `has ${others} keys, over the ${maxOther} allowed`)
        continue
      }
    }
    const rest = b.other ?? OTHER
    const restLength = rest.maxLength ?? OTHER.maxLength!
    const record = v as Record<string, unknown>
    for (let k = 0; k < own.length; k++) {
      const key = own[k]!
      const known = b.properties ? propertyBound(b, key) : undefined
      if (slot === 0 && result.unknownOverflow && !known) continue
      if (key.length > L.maxKeyLength) {
        // The pointer names the object: the key itself may be a megabyte long.
        const at = segmentsOf(slot)
        find(
          'manifest/too-long',
          at,
          `has a key of ${key.length} characters (${JSON.stringify(key.slice(0, 20))}...), over the ${L.maxKeyLength} allowed for a key`,
          [...at, key],
        )
        continue
      }
      const x = record[key]
      if (typeof x === 'string') {
        const max = known ? (known.maxLength ?? OTHER.maxLength!) : restLength
        if (x.length > max) tooLong(slot, key, x.length, max)
      } else if (typeof x === 'object' && x !== null) queue(x, known ?? rest, slot, key, level)
    }
  }
  return result
}
