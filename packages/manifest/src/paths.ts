/**
 * Archive paths written in a manifest: canonical, relative, forward-slash paths that stay inside
 * the archive. The same rule as ZIP entry names, applied before anything is looked up.
 */

/**
 * The common safe path: segments of word characters, dots, spaces and hyphens that start with a
 * word character (so never empty, `.` or `..`; no colon, backslash or control). Paths of this
 * shape need no further check. `@spkg/zip`'s entry-name rule declares the same pattern (it depends
 * on nothing of ours); the reader's tests check that the two stay one.
 */
export const COMMON_SAFE_PATH = /^\w[\w. -]*(?:\/\w[\w. -]*)*$/

/**
 * C0 and C1 control characters (U+0000-U+001F, U+007F-U+009F), DEL included: refused in archive
 * paths and display text (and, with `@spkg/zip`'s copy, in ZIP entry names).
 */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/

/**
 * One segment of {@link COMMON_SAFE_PATH} as pattern source, for the patterns built on it (a test
 * checks it rebuilds that pattern exactly). @internal
 */
export const SAFE_SEGMENT = String.raw`\w[\w. -]*`

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
