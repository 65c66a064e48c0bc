/**
 * The canonical entry-name rule: an archive entry name is accepted exactly as written or
 * refused, never repaired (no stripping of `./`, no resolving of `..`).
 */
import { COMMON_SAFE_PATH, CONTROL_CHARACTER } from './entry-names'

/**
 * The usual shape of a name, accepted without the checks below: ASCII word characters, dots,
 * hyphens and spaces, in segments that start with a word character (so never empty, `.` or
 * `..`; no slash at either end, no colon, backslash or control character). The manifest's
 * common safe path, so entry names and manifest paths share one rule.
 */
export const COMMON_NAME = COMMON_SAFE_PATH

const SYSTEM_BASENAME = /^(?:\._.*|\.DS_Store)$/

/**
 * Explains why `name` is not a canonical, safe entry name, or returns `undefined` when it is.
 * Directory entries are checked without their one trailing `/`.
 * Refused: empty, absolute, drive letters, backslashes, NUL, control characters (C0 and C1) or DEL, and
 * `..`, `.` or empty segments (even `./manifest.json`, even a `..` that stays inside).
 *
 * @example
 * checkEntryName('story/0001-inn.sty') // undefined
 * checkEntryName('./manifest.json')    // 'has a "." segment'
 */
export function checkEntryName(name: string): string | undefined {
  if (COMMON_NAME.test(name)) return undefined
  if (name.length === 0) return 'is empty'
  if (CONTROL_CHARACTER.test(name)) return 'contains NUL, a control character or DEL'
  if (name.includes('\\')) return 'contains a backslash'
  if (name.startsWith('/')) return 'is absolute'
  if (/^[A-Za-z]:/.test(name)) return 'starts with a drive letter'
  for (const segment of name.split('/')) {
    if (segment === '..') return 'has a ".." segment'
    if (segment === '.') return 'has a "." segment'
    if (segment === '') return 'has an empty segment (a doubled or trailing slash)'
  }
  return undefined
}

/** True for macOS and system clutter the reader ignores: `__MACOSX/…`, `._*`, `.DS_Store`. */
export function isSystemClutter(name: string): boolean {
  if (name === '__MACOSX' || name.startsWith('__MACOSX/')) return true
  const trimmed = name.endsWith('/') ? name.slice(0, -1) : name
  return SYSTEM_BASENAME.test(trimmed.slice(trimmed.lastIndexOf('/') + 1))
}

/**
 * Compares two strings by Unicode code point (not UTF-16 unit, not locale): the order of
 * the flat layout's entry and of extension modules without `manifest.extensions`.
 */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]()
  const ib = b[Symbol.iterator]()
  for (;;) {
    const x = ia.next()
    const y = ib.next()
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1
    const cx = x.value.codePointAt(0)!
    const cy = y.value.codePointAt(0)!
    if (cx !== cy) return cx - cy
  }
}
