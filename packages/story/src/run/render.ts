/**
 * Inline content (section 2, clarifications 1-6): compiled once per node, rendered per emission to
 * plain text plus styled runs. Order: evaluate (interpolation, inline `{if}`/`{set}`), match style
 * delimiters left to right, then collapse spaces and trim. Internal.
 */
import type { Inline } from '../ast.ts'
import { altIndex, altSpec } from './alts.ts'
import type { CompiledInline, Piece, Rendered } from './code.ts'
import { compileExpr } from './expr.ts'
import type { TextRun } from './types.ts'
import { show, truthy } from './values.ts'
import type { Scope, Vm } from './vm.ts'

/** Compiles inline content; `resolve` maps a link target to its archive target; `set` compiles a `{set}`. */
export function compileInline(
  nodes: Inline[],
  scope: Scope,
  resolve: (target: string) => string,
  set: (stmt: Extract<Inline, { k: 'set' }>['stmt']) => (m: Vm) => void,
): CompiledInline {
  const conv = (list: Inline[]): Piece[] =>
    list.map((n): Piece => {
      switch (n.k) {
        case 'text':
          return n.v.replace(/[ \t]+/g, ' ')
        case 'delim':
          return { k: 'delim', n: n.n }
        case 'break':
          return { k: 'break' }
        case 'interp':
          return { k: 'interp', e: compileExpr(n.e, scope) }
        case 'if':
          return {
            k: 'if',
            conds: n.branches.map((b) => compileExpr(b.cond, scope)),
            bodies: n.branches.map((b) => conv(b.body)),
            otherwise: conv(n.otherwise),
          }
        case 'set':
          return { k: 'set', run: set(n.stmt) }
        case 'link':
          return { k: 'link', body: conv(n.body), target: resolve(n.target) }
        case 'alt':
          return {
            k: 'alt',
            alt: altSpec(scope.file, n.id, n.mode, n.items.length),
            items: n.items.map(conv),
          }
      }
      return ''
    })
  const pieces = conv(nodes)
  const out: CompiledInline = { pieces, plain: isPlain(pieces) }
  if (isConstant(pieces)) out.constant = renderPieces(pieces, undefined as unknown as Vm)
  return out
}

function isPlain(pieces: Piece[]): boolean {
  for (const p of pieces) {
    if (typeof p === 'string') continue
    if (p.k === 'delim' || p.k === 'link') return false
    if (p.k === 'if' && (!p.bodies.every(isPlain) || !isPlain(p.otherwise))) return false
    if (p.k === 'alt' && !p.items.every(isPlain)) return false
  }
  return true
}

/**
 * Builds the text of plain pieces, collapsing spaces as it goes (clarifications 2-3): literal text
 * was collapsed at compile time, so only junctions and interpolated values need care. No regex
 * runs on the common path.
 */
class PlainBuilder {
  s = ''
  /** True at the start, after a space and after a line break: a leading space is dropped. */
  space = true
  /**
   * The code of the last character of `s` (0 while empty), and whether its first is a space or a
   * line break: `finish` and `lineBreak` then need not read the text back (reading a string built
   * by concatenation flattens it).
   */
  last = 0
  lead = false

  reset(): void {
    this.s = ''
    this.space = true
    this.last = 0
    this.lead = false
  }

  add(x: string): void {
    if (x.length === 0) return
    if (this.space && x.charCodeAt(0) === 32) {
      x = x.slice(1)
      if (x.length === 0) return
    }
    if (this.s.length === 0) {
      const c0 = x.charCodeAt(0)
      this.lead = c0 === 32 || c0 === 10
    }
    this.s += x
    const c = x.charCodeAt(x.length - 1)
    this.last = c
    this.space = c === 32 || c === 10
  }

  value(x: string): void {
    if (x.indexOf('  ') >= 0 || x.indexOf('\t') >= 0) x = x.replace(/[ \t]+/g, ' ')
    this.add(x)
  }

  lineBreak(): void {
    if (this.last === 32) this.s = this.s.slice(0, -1)
    if (this.s.length === 0) this.lead = true
    this.s += '\n'
    this.last = 10
    this.space = true
  }

  pieces(pieces: Piece[], m: Vm): void {
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i]!
      if (typeof p === 'string') this.add(p)
      else
        switch (p.k) {
          case 'interp': {
            const v = p.e(m)
            // a number prints without spaces or tabs: nothing to collapse
            if (typeof v === 'number') this.add(v === 0 ? '0' : String(v))
            else this.value(show(v))
            break
          }
          case 'break':
            this.lineBreak()
            break
          case 'set':
            p.run(m)
            break
          case 'if':
            this.pieces(branch(p, m), m)
            break
          case 'alt': {
            const i = altIndex(m, p.alt)
            if (i >= 0) this.pieces(p.items[i]!, m)
          }
        }
    }
  }

  finish(): string {
    let s = this.s
    if (!this.lead && this.last !== 32 && this.last !== 10) return s
    let end = s.length
    while (end > 0 && (s.charCodeAt(end - 1) === 32 || s.charCodeAt(end - 1) === 10)) end--
    if (end < s.length) s = s.slice(0, end)
    let start = 0
    while (s.charCodeAt(start) === 10 || s.charCodeAt(start) === 32) start++
    return start ? s.slice(start) : s
  }
}

const NO_LINKS: Rendered['links'] = []

/** The pieces of the first branch of an `{if}` whose condition holds, else its `otherwise`. */
function branch(p: Extract<Piece, { k: 'if' }>, m: Vm): Piece[] {
  for (let i = 0; i < p.conds.length; i++) if (truthy(p.conds[i]!(m))) return p.bodies[i]!
  return p.otherwise
}

function isConstant(pieces: Piece[]): boolean {
  for (const p of pieces) {
    if (typeof p === 'string' || p.k === 'delim' || p.k === 'break') continue
    if (p.k === 'link' && isConstant(p.body)) continue
    return false
  }
  return true
}

// Flattened segments: text, 1/2 = delimiters, BREAK, LINK_END, or a link start (its target).
const BREAK = 3
const LINK_END = 4
type Seg = string | number | { target: string }

function flatten(pieces: Piece[], m: Vm, out: Seg[]): void {
  for (const p of pieces) {
    if (typeof p === 'string') out.push(p)
    else
      switch (p.k) {
        case 'delim':
          out.push(p.n)
          break
        case 'break':
          out.push(BREAK)
          break
        case 'interp':
          out.push(show(p.e(m)))
          break
        case 'set':
          p.run(m)
          break
        case 'if':
          flatten(branch(p, m), m, out)
          break
        case 'alt': {
          const i = altIndex(m, p.alt)
          if (i >= 0) flatten(p.items[i]!, m, out)
          break
        }
        case 'link':
          out.push({ target: p.target })
          flatten(p.body, m, out)
          out.push(LINK_END)
      }
  }
}

const isSpace = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || c === '\n'

function charBefore(segs: Seg[], i: number): string | undefined {
  for (let j = i - 1; j >= 0; j--) {
    const s = segs[j]!
    if (typeof s === 'string') {
      if (s.length) return s[s.length - 1]
    } else return s === BREAK ? '\n' : '*'
  }
  return undefined
}

function charAfter(segs: Seg[], i: number): string | undefined {
  for (let j = i + 1; j < segs.length; j++) {
    const s = segs[j]!
    if (typeof s === 'string') {
      if (s.length) return s[0]
    } else return s === BREAK ? '\n' : '*'
  }
  return undefined
}

// Rendering never re-enters itself (expressions cannot render inline content), so one builder serves all.
const PLAIN = new PlainBuilder()

/** The text of plain (`c.plain`) inline content: no styles, no links, so one run. */
export function renderPlain(c: CompiledInline, m: Vm): string {
  if (c.constant) return c.constant.text
  const b = PLAIN
  b.reset()
  b.pieces(c.pieces, m)
  const text = b.finish()
  b.s = ''
  return text
}

/** Renders compiled inline content against the machine. */
export function render(c: CompiledInline, m: Vm): Rendered {
  if (c.constant) return c.constant
  if (c.plain) {
    const text = renderPlain(c, m)
    return { text, runs: text ? [{ text }] : [], links: NO_LINKS }
  }
  return renderPieces(c.pieces, m)
}

function renderPieces(pieces: Piece[], m: Vm): Rendered {
  const segs: Seg[] = []
  flatten(pieces, m, segs)
  // Match delimiters left to right: a closer takes the nearest open opener of its size.
  let openers: Set<number> | undefined
  let closers: Set<number> | undefined
  const stack: number[] = []
  for (let i = 0; i < segs.length; i++) {
    let s = segs[i]
    if (s !== 1 && s !== 2) continue
    if (!isSpace(charBefore(segs, i))) {
      // A closing `***` is `**` then `*`; when the innermost open style is the `*`, close it first
      // (`**bold *and italic***`, `***both***`), as CommonMark and ink do.
      const top = stack.length > 0 ? segs[stack[stack.length - 1]!] : undefined
      if (top !== undefined && top !== s && segs[i + 1] === top) {
        segs[i + 1] = s
        segs[i] = top
        s = top
      }
      let j = stack.length - 1
      while (j >= 0 && segs[stack[j]!] !== s) j--
      if (j >= 0) {
        openers ??= new Set()
        closers ??= new Set()
        openers.add(stack[j]!)
        closers.add(i)
        stack.length = j
        continue
      }
    }
    if (!isSpace(charAfter(segs, i))) stack.push(i)
  }
  const b = new RunBuilder()
  let strong = 0
  let em = 0
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!
    if (typeof s === 'string') b.text(s)
    else if (s === 1 || s === 2) {
      const d = openers?.has(i) ? 1 : closers?.has(i) ? -1 : 0
      if (d === 0) b.text(s === 2 ? '**' : '*')
      else {
        if (s === 2) strong += d
        else em += d
        b.style(strong > 0, em > 0)
      }
    } else if (s === BREAK) b.lineBreak()
    else if (s === LINK_END) b.endLink()
    else if (typeof s === 'object') b.startLink(s.target)
  }
  return b.finish()
}

/** Builds runs while collapsing spaces (clarifications 2-3). */
class RunBuilder {
  runs: TextRun[] = []
  links: Array<{ target: string; text: string }> = []
  private strong = false
  private em = false
  private link: string | undefined
  private linkText = ''
  /** The last character emitted ('' at the start). */
  private last = ''

  style(strong: boolean, em: boolean): void {
    this.strong = strong
    this.em = em
  }

  startLink(target: string): void {
    this.link = target
    this.linkText = ''
  }

  endLink(): void {
    if (this.link !== undefined)
      this.links.push({ target: this.link, text: this.linkText.replace(/[ \t]+/g, ' ').trim() })
    this.link = undefined
  }

  text(s: string): void {
    if (this.link !== undefined) this.linkText += s
    s = s.replace(/[ \t]+/g, ' ')
    if (s.charCodeAt(0) === 32 && (this.last === '' || this.last === ' ' || this.last === '\n'))
      s = s.slice(1)
    if (!s) return
    this.push(s)
  }

  lineBreak(): void {
    this.trimEnd()
    if (this.link !== undefined) this.linkText += ' '
    this.push('\n')
  }

  private push(s: string): void {
    const last = this.runs[this.runs.length - 1]
    if (last && !!last.strong === this.strong && !!last.em === this.em && last.link === this.link)
      last.text += s
    else {
      const r: TextRun = { text: s }
      if (this.strong) r.strong = true
      if (this.em) r.em = true
      if (this.link !== undefined) r.link = this.link
      this.runs.push(r)
    }
    this.last = s[s.length - 1]!
  }

  private trimEnd(end = false): void {
    for (;;) {
      const r = this.runs[this.runs.length - 1]
      if (!r) break
      r.text = r.text.replace(end ? /[ \n]+$/ : / +$/, '')
      if (r.text) break
      this.runs.pop()
    }
    const r = this.runs[this.runs.length - 1]
    this.last = r ? r.text[r.text.length - 1]! : ''
  }

  finish(): Rendered {
    this.trimEnd(true)
    let text = ''
    for (const r of this.runs) text += r.text
    return { text, runs: this.runs, links: this.links }
  }
}
