/**
 * The shapes of a safe archive path and the key two names collide under, for the entry-name rule.
 * `@spkg/manifest` declares the same two patterns for the paths a manifest names (this package
 * depends on nothing of ours); the reader's tests check that names and paths follow one rule.
 */

/**
 * The common safe path: segments of word characters, dots, spaces and hyphens that start with a
 * word character (so never empty, `.` or `..`; no colon, backslash or control). Paths and ZIP
 * entry names of this shape need no further check (the reader's entry-name rule uses it too).
 */
export const COMMON_SAFE_PATH = /^\w[\w. -]*(?:\/\w[\w. -]*)*$/

/**
 * C0 and C1 control characters (U+0000-U+001F, U+007F-U+009F), DEL included: refused in archive
 * paths, ZIP entry names (the reader's rule uses it too) and display text.
 */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/

/**
 * The key two archive paths collide under on real file systems: NFC-normalised and case-folded
 * (upper- then lower-casing folds `ß` with `ss` and `ﬁ` with `fi` as full case folding does).
 * The fold repeats until stable: `ẞ` (U+1E9E) lower-cases to `ß`, which only a second pass
 * folds to `ss` (the one code point that needs it; an exhaustive check is in the manifest's tests).
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
