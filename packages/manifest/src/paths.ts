/**
 * Archive paths written in a manifest: canonical, relative, forward-slash paths that stay inside
 * the archive. The same rule as ZIP entry names, applied before anything is looked up.
 */

/**
 * The common safe path: segments of word characters, dots, spaces and hyphens that start with a
 * word character (so never empty, `.` or `..`; no colon, backslash or control). Paths and ZIP
 * entry names of this shape need no further check (the reader's entry-name rule uses it too).
 */
export const COMMON_SAFE_PATH = /^\w[\w. -]*(?:\/\w[\w. -]*)*$/

/**
 * One segment of {@link COMMON_SAFE_PATH} as pattern source, for the patterns built on it (a test
 * checks it rebuilds that pattern exactly). @internal
 */
export const SAFE_SEGMENT = String.raw`\w[\w. -]*`

/**
 * C0 and C1 control characters (U+0000-U+001F, U+007F-U+009F), DEL included: refused in archive
 * paths, ZIP entry names (the reader's rule uses it too) and display text.
 */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/

/**
 * Explains why `path` is not a safe archive-relative path, or returns `undefined` when it is.
 * Refused: empty, absolute (`/x`), drive letters (`C:`), schemes or protocol-relative URLs,
 * backslashes, NUL/control characters (C0 and C1)/DEL, and `..`, `.` or empty segments.
 *
 * @example
 * checkArchivePath('story/0001-inn.sty') // undefined
 * checkArchivePath('../etc/passwd')      // 'has a ".." segment'
 */
export function checkArchivePath(path: string): string | undefined {
  // Fast path for the common case.
  if (COMMON_SAFE_PATH.test(path)) return undefined
  if (path.length === 0) return 'is empty'
  if (CONTROL_CHARACTER.test(path)) return 'contains a control character'
  if (path.includes('\\')) return 'contains a backslash (use forward slashes)'
  if (path.startsWith('//')) return 'is a protocol-relative URL (media are never fetched from the network)'
  if (path.startsWith('/')) return 'is absolute (paths are relative to the archive root)'
  if (/^[A-Za-z]:/.test(path)) return 'starts with a drive letter'
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return 'is a URL (media are never fetched from the network)'
  for (const segment of path.split('/')) {
    if (segment === '..') return 'has a ".." segment'
    if (segment === '.') return 'has a "." segment'
    if (segment === '') return 'has an empty segment (a doubled or trailing slash)'
  }
  return undefined
}

/** True when `path` is a safe, canonical archive-relative path. */
export function isSafeArchivePath(path: string): boolean {
  return checkArchivePath(path) === undefined
}

/**
 * The key two archive paths collide under on real file systems: NFC-normalised and case-folded
 * (upper- then lower-casing folds `ß` with `ss` and `ﬁ` with `fi` as full case folding does).
 * The fold repeats until stable: `ẞ` (U+1E9E) lower-cases to `ß`, which only a second pass
 * folds to `ss` (the one code point that needs it; an exhaustive check is in the tests).
 * `spkg pack` refuses a folder with two files of one key, as the reader refuses such an archive
 * (`pkg/duplicate-entry`); both use this function.
 *
 * @example
 * collisionKey('Story/Straße.sty') === collisionKey('story/STRASSE.sty') // true
 */
export function collisionKey(path: string): string {
  if (ASCII.test(path)) return path.toLowerCase()
  let key = fold(path.normalize('NFC'))
  for (let next = fold(key); next !== key; next = fold(key)) key = next
  return key
}

function fold(text: string): string {
  return text.toUpperCase().toLowerCase().normalize('NFC')
}

const ASCII = /^[\x00-\x7f]*$/
