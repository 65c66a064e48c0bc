/**
 * Low-level scanning shared by the parsers: matching brackets on one line, tag lists, ids, columns.
 * Internal: offsets are UTF-16 indices into the raw line; positions are code-point columns.
 */
import type { Pos } from './ast'

/** An id: a letter, then up to 63 letters, digits, `_` or `-`. */
export const ID = '[A-Za-z][A-Za-z0-9_-]{0,63}'
/** Matches a whole id. */
export const ID_ONLY = new RegExp(`^${ID}$`)

/** One source line. */
export interface Line {
  no: number
  raw: string
  /** Indentation width (tabs to the next multiple of 4). */
  indent: number
  /** Offset of the first non-indentation character. */
  start: number
  /** The line without indentation and trailing whitespace. */
  text: string
}

/** Splits source text into lines (LF, CRLF or CR; BOM ignored). */
export function splitLines(source: string): Line[] {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1)
  const raws = source.split(/\r\n|\r|\n/)
  return raws.map((raw, i) => {
    let indent = 0
    let start = 0
    while (start < raw.length) {
      const c = raw[start]
      if (c === ' ') indent++
      else if (c === '\t') indent = (Math.floor(indent / 4) + 1) * 4
      else break
      start++
    }
    let end = raw.length
    while (end > start && (raw.charCodeAt(end - 1) === 32 || raw.charCodeAt(end - 1) === 9)) end--
    return { no: i + 1, raw, indent, start, text: raw.slice(start, end) }
  })
}

/** The position of `offset` in `line` (columns in code points). */
export function posAt(line: Line, offset: number): Pos {
  const raw = line.raw
  const end = Math.min(offset, raw.length)
  let column = 1
  for (let i = 0; i < end; i++) {
    const c = raw.charCodeAt(i)
    // a surrogate pair is one code point: count its high half only
    if (
      c < 0xdc00 ||
      c > 0xdfff ||
      i === 0 ||
      raw.charCodeAt(i - 1) < 0xd800 ||
      raw.charCodeAt(i - 1) > 0xdbff
    )
      column++
  }
  return { line: line.no, column: column + Math.max(0, offset - raw.length) }
}

/**
 * Finds the offset of the bracket closing the one at `open` (`{`, `[`, `(`), skipping strings
 * and nested brackets; -1 when it is not closed on the line.
 */
export function findClose(s: string, open: number): number {
  const stack: string[] = []
  let braces = 0
  for (let i = open; i < s.length; i++) {
    const c = s[i]!
    const top = stack[stack.length - 1]
    if (top === '"') {
      if (c === '\\') i++
      else if (c === '"') stack.pop()
      continue
    }
    if (c === '\\') {
      i++
      continue
    }
    if (c === '"' && braces > 0) stack.push('"')
    else if (c === '{' || c === '[' || c === '(') {
      stack.push(c)
      if (c === '{') braces++
    } else if (c === '}' || c === ']' || c === ')') {
      const want = c === '}' ? '{' : c === ']' ? '[' : '('
      if (top !== want) continue
      stack.pop()
      if (c === '}') braces--
      if (stack.length === 0) return i
    }
  }
  return -1
}

/** Splits the tag list off a line: `content` keeps everything before it. */
export function splitTags(text: string): { content: string; tags: string[]; at: number } {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\') {
      i++
      continue
    }
    if (c === '{' || c === '[') depth++
    else if ((c === '}' || c === ']') && depth > 0) depth--
    else if (
      c === '#' &&
      depth === 0 &&
      i > 0 &&
      /\s/.test(text[i - 1]!) &&
      i + 1 < text.length &&
      !/\s/.test(text[i + 1]!) &&
      !/(?:^|\s)->\s*$/.test(text.slice(0, i))
    ) {
      return { content: text.slice(0, i).replace(/\s+$/, ''), tags: parseTagList(text.slice(i)), at: i }
    }
  }
  return { content: text, tags: [], at: -1 }
}

/** Parses `#a #b:c` into `['a', 'b:c']` (a tag runs to the next whitespace). */
export function parseTagList(s: string): string[] {
  const tags: string[] = []
  for (const word of s.split(/\s+/)) if (word.startsWith('#') && word.length > 1) tags.push(word.slice(1))
  return tags
}

/** True for an ASCII punctuation character (what `\` escapes). */
export function isAsciiPunct(c: string | undefined): boolean {
  return c !== undefined && /^[!-/:-@[-`{-~]$/.test(c)
}

/** Removes `\` escapes before ASCII punctuation. */
export function unescapePunctuation(s: string): string {
  return s.replace(/\\([!-/:-@[-`{-~])/g, '$1')
}

/** The syntax of a target `path[:id]` (without the safety checks). */
export const TARGET_RE = new RegExp(`^([^\\s:]+\\.sty)(?::(${ID}))?$`)
