/**
 * Low-level scanning shared by the parsers: matching brackets on one line, tag lists, ids, columns.
 * Internal: offsets are UTF-16 indices into the raw line; positions are code-point columns.
 */
import type { Pos } from '../ast.ts'

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
  /** Cached code-point columns (see {@link posAt}); null when every character is one UTF-16 unit. */
  cols?: Int32Array | null
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

/** The position of `offset` in `line` (columns in code points). O(1) after the first call on a line. */
export function posAt(line: Line, offset: number): Pos {
  let cols = line.cols
  if (cols === undefined) {
    cols = line.cols = columnTable(line.raw)
  }
  const raw = line.raw
  if (cols === null || offset <= 0) return { line: line.no, column: Math.max(0, offset) + 1 }
  if (offset >= raw.length) return { line: line.no, column: cols[raw.length]! + offset - raw.length }
  return { line: line.no, column: cols[offset]! }
}

/** Code-point columns for each UTF-16 offset of `raw`; null when it is all single units (the common case). */
function columnTable(raw: string): Int32Array | null {
  let astral = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdfff) {
      astral = true
      break
    }
  }
  if (!astral) return null
  const cols = new Int32Array(raw.length + 1)
  let column = 1
  for (let i = 0; i < raw.length; i++) {
    cols[i] = column
    const c = raw.charCodeAt(i)
    // a surrogate pair is one code point: its low half does not start a new column
    const next = raw.charCodeAt(i + 1)
    if (!(c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff)) column++
  }
  cols[raw.length] = column
  return cols
}

/**
 * Finds the offset of the bracket closing the one at `open` (`{`, `[`, `(`), skipping strings
 * and nested brackets; -1 when it is not closed on the line.
 */
export function findClose(s: string, open: number): number {
  return scanClose(s, open, undefined)
}

/**
 * A memoised {@link findClose} for many lookups in one string. A scan from one opener also
 * settles every opener nested in it (outside braces), so a line of N brackets costs O(N), not
 * O(N²): adversarial lines cannot make the parser hang.
 */
export function createCloser(s: string): (open: number) => number {
  const memo = new Map<number, number>()
  return (open) => memo.get(open) ?? scanClose(s, open, memo)
}

function scanClose(s: string, open: number, memo: Map<number, number> | undefined): number {
  // stack of [char, offset, memoisable]; an opener is memoisable when no brace lies below it,
  // because then its own scan would see strings exactly as this one does
  const stack: Array<[string, number, boolean]> = []
  let braces = 0
  let result = -1
  for (let i = open; i < s.length; i++) {
    const c = s[i]!
    const top = stack[stack.length - 1]
    if (top?.[0] === '"') {
      if (c === '\\') i++
      else if (c === '"') stack.pop()
      continue
    }
    if (c === '\\') {
      i++
      continue
    }
    if (c === '"' && braces > 0) stack.push(['"', i, false])
    else if (c === '{' || c === '[' || c === '(') {
      stack.push([c, i, braces === 0])
      if (c === '{') braces++
    } else if (c === '}' || c === ']' || c === ')') {
      const want = c === '}' ? '{' : c === ']' ? '[' : '('
      if (top?.[0] !== want) continue
      stack.pop()
      if (c === '}') braces--
      if (memo && top[2]) memo.set(top[1], i)
      if (stack.length === 0) {
        result = i
        break
      }
    }
  }
  if (memo) {
    memo.set(open, result)
    if (result < 0) for (const [c, at, ok] of stack) if (ok && c !== '"') memo.set(at, -1)
  }
  return result
}

/** True when `->` (at the start or after whitespace) and then only whitespace end `text`. */
function endsWithArrow(text: string): boolean {
  let i = text.length
  while (i > 0 && /\s/.test(text[i - 1]!)) i--
  return i >= 2 && text[i - 1] === '>' && text[i - 2] === '-' && (i === 2 || /\s/.test(text[i - 3]!))
}

/**
 * Finds `[#id]` at the end of `content` (after optional whitespace): the offset where the
 * whitespace before it starts, the id and whether it is a valid id; undefined when there is
 * none. Linear time.
 */
export function trailingId(
  content: string,
): { at: number; bracket: number; id: string; valid: boolean } | undefined {
  if (!content.endsWith(']')) return undefined
  const bracket = content.lastIndexOf('[#')
  if (bracket < 0) return undefined
  const id = content.slice(bracket + 2, -1)
  // `[#1st]` is meant as an id but is not one (reported); `[#two words]` is plain text
  const valid = ID_ONLY.test(id)
  if (!valid && !/^[^\s[\]]+$/.test(id)) return undefined
  let at = bracket
  while (at > 0 && /\s/.test(content[at - 1]!)) at--
  return { at, bracket, id, valid }
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
      !endsWithArrow(text.slice(0, i))
    ) {
      return { content: text.slice(0, i).trimEnd(), tags: parseTagList(text.slice(i)), at: i }
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

/**
 * The 1.1 glue and jump of a text line's content (tags already split off): `<>` at its start or
 * end, and a trailing ` -> #id`, ` -> END` or ` -> DONE` (whitespace before the arrow; `\\->` is text).
 * `from`/`to` bound the text left between them; `jumpAt`/`jumpEnd` the jump (-1 when none). A line
 * of `<>` alone glues on both sides. Linear time.
 */
export function lineGlue(content: string): {
  from: number
  to: number
  start?: 'tight' | 'space'
  end?: 'tight' | 'space'
  jumpAt: number
  jumpEnd: number
} {
  let to = content.length
  while (to > 0 && /\s/.test(content[to - 1]!)) to--
  let jumpAt = -1
  const jumpEnd = to
  const arrow = content.lastIndexOf('->', to)
  if (
    arrow > 0 &&
    /\s/.test(content[arrow - 1]!) &&
    /^\s*(?:#\S*|END|DONE)$/.test(content.slice(arrow + 2, to))
  ) {
    jumpAt = arrow
    to = arrow
    while (to > 0 && /\s/.test(content[to - 1]!)) to--
  }
  let from = 0
  let start: 'tight' | 'space' | undefined
  if (content.startsWith('<>') && to >= 2) {
    from = 2
    start = /\s/.test(content[2] ?? '') ? 'space' : 'tight'
  }
  let end: 'tight' | 'space' | undefined
  if (to - from >= 2 && content.startsWith('<>', to - 2)) {
    let back = 0
    while (to - 3 - back >= from && content[to - 3 - back] === '\\') back++
    if (back % 2 === 0) {
      to -= 2
      end = to > from && /\s/.test(content[to - 1]!) ? 'space' : 'tight'
    }
  } else if (start && content.slice(from, to).trim() === '') end = 'tight'
  return { from, to, jumpAt, jumpEnd, ...(start ? { start } : {}), ...(end ? { end } : {}) }
}
