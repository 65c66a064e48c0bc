/**
 * `story/ink-syntax`: text lines that are ink, not the story language, and would print as text.
 * Each finding's message is the 1.x way to write it. Internal; called by the lints (lint.ts) on
 * every text line (a `- ` gather right after a group is checked there, as it needs the group).
 */

/** The offset in the line and the message of an ink construct on a text line, if it has one. */
export interface InkFinding {
  at: number
  message: string
}

// Literals, not `new RegExp` of a shared NAME: a bundler drops an unused literal, not a call (the
// name in each is `[A-Za-z_][A-Za-z0-9_]*`).
const TILDE = /^~\s*(?:(temp)\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(\+\+|--|\+=|-=|=)\s*(.*)$/
const VAR = /^(VAR|CONST)\s+([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+)$/
const KNOT = /^(={1,})\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^)]*\))?\s*=*\s*$/
/** A gather with an ink marker after the dash: a choice, a label, a divert or a nested gather. */
const MARKED_GATHER = /^-\s*(?:[*+]\s|\(|->|-(?:\s|$))|^-\s*$/
/** A divert at the end of a text line: `-> #id`, `-> END`, or ink's `-> knot` / `-> knot.stitch`. */
const END_DIVERT =
  /(?:^|\s)->\s*(#[A-Za-z][A-Za-z0-9_-]*|END|DONE|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)\s*$/

/** A tunnel call at the end of a text line: `-> #id ->`, `-> part.sty:id ->`, or ink's `-> knot ->`. */
const END_TUNNEL = /(?:^|\s)->\s*(\S+)\s*->\s*$/
/** ink's thread, `<- knot`, on a 1.0 text line (at 1.1 a `<-` line is a thread). */
const THREAD = /^<-\s*(#?[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\s*$/

/** The id to write for ink's divert target `knot` or `knot.stitch` (`#knot_stitch`); `#id` as it is. */
const asId = (target: string) => (target.startsWith('#') ? target : `#${target.replace('.', '_')}`)

const title = (name: string) => (name[0] ?? '').toUpperCase() + name.slice(1).replace(/_/g, ' ')

/**
 * The ink construct of the text line `text` (indentation removed), if any. At 1.1 (`v11`), glue
 * and a jump to `#id`, `END` or `DONE` at a line's end are the language's own syntax, not findings.
 */
export function inkSyntax(text: string, v11 = false): InkFinding | undefined {
  const inkText = (what: string) => `${what} is ink, and prints as text here`
  if (text.startsWith('~')) {
    const m = TILDE.exec(text)
    if (!m) return { at: 0, message: `${inkText("'~'")}; write an assignment as '{set name = value}'` }
    const [, temp, name, op, value] = m as unknown as [string, string | undefined, string, string, string]
    const e = op === '++' ? '+= 1' : op === '--' ? '-= 1' : `${op} ${value.trim()}`
    const cmd = temp && op === '=' ? `{local ${name} = ${value.trim()}}` : `{set ${name} ${e}}`
    return { at: 0, message: `${inkText(`'${text.trim()}'`)}; write '${cmd}'` }
  }
  let m = VAR.exec(text)
  if (m) {
    const [, kw, name, value] = m as unknown as [string, string, string, string]
    const set = `{set ${name} = ${value.trim()}}`
    return {
      at: 0,
      message:
        kw === 'VAR'
          ? `${inkText(`'${kw} ${name}'`)}; write '${set}' in the part's top lines (its declaration block)`
          : `${inkText(`'${kw} ${name}'`)}; write '{const ${name} = ${value.trim()}}' in a module, or '${set}' in the part's top lines`,
    }
  }
  m = KNOT.exec(text)
  if (m) {
    const [, eq, name] = m as unknown as [string, string, string]
    const heading = `${eq.length === 1 ? '##' : '#'} ${title(name)} [#${name}]`
    return {
      at: 0,
      message: `${inkText(`'${text.trim()}'`)} (a ${eq.length === 1 ? 'stitch' : 'knot'}); write a heading with an id: '${heading}'`,
    }
  }
  if (MARKED_GATHER.test(text))
    return {
      at: 0,
      message: `${inkText("'-' before a choice, label or divert (a gather)")}; after a group the story goes on by itself: write the line without '-', at the options' indentation after the group (a label is an anchor line '[#id]')`,
    }
  const glue = v11 ? -1 : text.indexOf('<>')
  if (glue >= 0)
    return {
      at: glue,
      message: `${inkText("'<>' (glue)")}; 1.0 has no glue: write the text that should join on one line, or set story_lang to 1.1, which has it`,
    }
  m = END_TUNNEL.exec(text)
  if (m) {
    const target = m[1]!
    const call = `-> ${/\.sty(?::|$)/.test(target) ? target : asId(target)} ->`
    return {
      at: m.index + m[0].indexOf('->'),
      message: v11
        ? `a tunnel call at the end of a text line prints as text; put '${call}' on a line of its own below the text`
        : `${inkText(`'-> ${target} ->' (a tunnel)`)}; 1.0 has no tunnels: set story_lang to 1.1 and put '${call}' on a line of its own`,
    }
  }
  m = v11 ? null : THREAD.exec(text)
  if (m) {
    return {
      at: 0,
      message: `${inkText(`'${text.trim()}' (a thread)`)}; 1.0 has no threads: set story_lang to 1.1 and write '<- ${asId(m[1]!.replace(/^#/, ''))}'`,
    }
  }
  m = END_DIVERT.exec(text)
  if (m && !(v11 && (m[1] === 'END' || m[1] === 'DONE' || m[1]!.startsWith('#')))) {
    const target = m[1]!
    const jump = target === 'END' || target === 'DONE' ? '-> END' : `-> ${asId(target)}`
    return {
      at: m.index + m[0].indexOf('->'),
      message: v11
        ? `'-> ${target}' is an ink divert; write '${jump}' (a jump names an id)`
        : `a jump at the end of a text line prints as text in 1.0; put '${jump}' on a line of its own, or set story_lang to 1.1, which allows it at a line's end`,
    }
  }
  return undefined
}
