/**
 * The line-level parser shared by parts and passages: builds nodes from classified lines,
 * recovering line by line. Internal; see parse-story.ts and parse-module.ts.
 */

import type { GlueSide, GroupIf, Inline, JumpNode, Node, OptionNode, Pos } from '../ast.ts'
import { classify } from './classify.ts'
import { ALT_MODES, isCommandWord, parseCommand } from './command.ts'
import { commandLineNode } from './command-line.ts'
import { type ParseContext, UNCLOSED_COMMAND } from './context.ts'
import type { InlineToken } from './inline.ts'
import { buildInline, tokenizeInline } from './inline.ts'
import { jumpNode, singleLineNode } from './line-nodes.ts'
import type { IdInfo, LineKind, LineParser } from './line-parser.ts'
import { optionNode } from './option-line.ts'
import { type Line, lineGlue, parseTagList, posAt, splitTags } from './scan.ts'

/**
 * 1.1: a command line that is an inline alternative with items (`{seq a|b}`), or ink's spelling of
 * one (`{&a|b}`, `{a|b}`), rather than the head of a block alternative or a command.
 */
function isInlineAltLine(text: string): boolean {
  const m = /^\{\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(text)
  if (m && ALT_MODES.has(m[1]!)) return text.slice(m[0].length, -1).trim() !== ''
  if (m && (isCommandWord(m[1]!) || m[1] === 'or')) return false
  return /^\{[&~!]/.test(text) || text.includes('|')
}

/** How deeply blocks (`{if}`, option bodies) may nest before the rest is skipped. */
const MAX_DEPTH = 100

/** The line parser of parts and passages. */
export class BodyParser implements LineParser {
  i = 0
  readonly kinds: LineKind[]
  readonly ids = new Map<string, IdInfo>()
  readonly jumps: JumpNode[] = []
  headingCount = 0
  /** How many `{if}` blocks are open around the line being parsed. */
  ifDepth = 0
  /** 1.1: how many block alternatives (`{seq}` … `{end}`) are open around the line being parsed. */
  altDepth = 0
  /** Set by module parsing: where passages are parsed, what is not allowed. */
  passage = false
  /** Set by module parsing while a block function's body is parsed: `{return}` is allowed. */
  fnBody = false

  constructor(
    readonly ctx: ParseContext,
    readonly lines: Line[],
  ) {
    this.kinds = lines.map((l) => classify(l, ctx.v11))
    // 1.1: an inline alternative alone on its line (`{seq a|b}`, ink's `{&a|b}`) is a text line
    if (ctx.v11)
      for (let i = 0; i < lines.length; i++)
        if (this.kinds[i] === 'command' && isInlineAltLine(lines[i]!.text)) this.kinds[i] = 'text'
  }

  /** Records an explicit id, reporting reserved and duplicate ids. */
  declareId(id: string, kind: IdInfo['kind'], pos: Pos): void {
    if (/^h[0-9]+$/.test(id)) {
      this.ctx.report(
        'story/reserved-id',
        `'#${id}' has the form of an implicit heading id (h<digits>); choose another`,
        pos,
      )
      return
    }
    const prev = this.ids.get(id)
    if (prev) this.ctx.report('story/duplicate-id', `'#${id}' already names line ${prev.line}`, pos)
    else this.ids.set(id, { line: pos.line, kind })
  }

  /** Parses nodes until a line at or left of `parentIndent`, or a `{elif}`/`{else}`/`{end}` of an open `{if}`. */
  seq(parentIndent: number): Node[] {
    const nodes: Node[] = []
    let pendingTags: string[] = []
    let tagsPos: Pos = { line: 1, column: 1 }
    let deadAfter: number | undefined
    let bodyIndent: number | undefined
    let bodyFirst = 0
    const push = (n: Node, line: Line) => {
      if ((n.kind === 'paragraph' || n.kind === 'heading' || n.kind === 'media') && pendingTags.length) {
        n.tags = [...pendingTags, ...n.tags]
        pendingTags = []
      }
      nodes.push(n)
      if (n.kind === 'jump' || n.kind === 'gate' || n.kind === 'tunnel-return') {
        deadAfter = line.no
        this.deadWhat = n.kind === 'tunnel-return' ? "'->->'" : n.kind
      }
    }
    if (++this.depth > MAX_DEPTH) {
      const line = this.lines[this.i]
      if (line)
        this.ctx.report(
          'story/bad-expression',
          `blocks are nested more than ${MAX_DEPTH} deep; the rest of this block is skipped`,
          posAt(line, line.start),
        )
      while (
        this.i < this.lines.length &&
        (this.kinds[this.i] === 'blank' || this.lines[this.i]!.indent > parentIndent)
      )
        this.i++
      this.depth--
      return nodes
    }
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!
      const kind = this.kinds[this.i]!
      if (kind === 'blank' || kind === 'comment') {
        this.i++
        continue
      }
      if (line.indent <= parentIndent) break
      if (parentIndent >= 0) {
        if (bodyIndent === undefined) {
          bodyIndent = line.indent
          bodyFirst = line.no
        } else if (line.indent < bodyIndent)
          this.ctx.report(
            'story/indentation',
            `this line is indented less than the first line of the option body (line ${bodyFirst}); indent it like that line`,
            posAt(line, line.start),
          )
      }
      const word = kind === 'command' ? /^\{\s*([a-z]+)/.exec(line.text)?.[1] : undefined
      if (kind === 'command') {
        if ((word === 'or' || word === 'end') && this.altDepth > 0) break
        if ((word === 'elif' || word === 'else' || word === 'end') && this.ifDepth > 0) break
        if (word === 'end' && this.passage && this.ifDepth === 0) break
      }
      if (deadAfter !== undefined && kind !== 'tags') {
        // a heading or an anchor can be reached by a jump; anything else after a jump or gate cannot
        if (kind !== 'heading' && kind !== 'anchor')
          this.ctx.report(
            'story/unreachable',
            `unreachable after the ${this.deadWhat} on line ${deadAfter}`,
            posAt(line, line.start),
          )
        deadAfter = undefined
      }
      if (
        kind === 'command' &&
        word === 'if' &&
        this.ctx.v11 &&
        !this.passage &&
        (parentIndent < 0 || line.indent > parentIndent) &&
        this.startsGroup()
      ) {
        // 1.1: an `{if}` with options inside, before options at its indentation: one group
        const prev = nodes[nodes.length - 1]
        const named = prev?.kind === 'anchor' && prev.pos.line === line.no - 1 ? prev : undefined
        if (named) nodes.pop()
        push(this.group(line.indent, named, parentIndent), line)
        continue
      }
      if (kind === 'command') {
        const node = commandLineNode(this, line, word, parentIndent)
        if (node) push(node, line)
        continue
      }
      if (kind === 'unclosed') {
        this.ctx.report('story/unclosed-brace', UNCLOSED_COMMAND, posAt(line, line.start))
        this.i++
        continue
      }
      if (kind === 'text') {
        const prev = nodes[nodes.length - 1]
        if (prev?.kind === 'group') this.ctx.lint?.gather(this, line, prev)
        for (const n of this.paragraph(parentIndent)) push(n, line)
        continue
      }
      if (kind === 'tags') {
        if (pendingTags.length === 0) tagsPos = posAt(line, line.start)
        pendingTags.push(...this.tagLine(line))
        this.i++
        continue
      }
      if (kind === 'option') {
        if (this.passage) {
          this.notInPassage('an option', posAt(line, line.start))
          this.i++
          continue
        }
        const prev = nodes[nodes.length - 1]
        const named = prev?.kind === 'anchor' && prev.pos.line === line.no - 1 ? prev : undefined
        if (named) nodes.pop()
        push(this.group(line.indent, named, parentIndent), line)
        continue
      }
      this.i++
      const node = singleLineNode(this, kind, line)
      if (node) push(node, line)
    }
    // tag lines that no block follows are kept as a node, so that nothing an author wrote is lost
    if (pendingTags.length) nodes.push({ kind: 'tags', pos: tagsPos, tags: pendingTags })
    this.depth--
    return nodes
  }

  private deadWhat = 'jump'
  private depth = 0

  /** {@link splitTags}, reporting words in the tag list that are not tags (`text` starts at `offset` of the line). */
  splitTagsAt(line: Line, text: string, offset: number): ReturnType<typeof splitTags> {
    const split = splitTags(text)
    if (split.at >= 0) this.ctx.lint?.tagWords(this.ctx, line, text.slice(split.at), offset + split.at)
    return split
  }

  /** The tags of a tag line, reporting words that are not tags. */
  tagLine(line: Line): string[] {
    this.ctx.lint?.tagWords(this.ctx, line, line.text, line.start)
    return parseTagList(line.text)
  }

  badId(id: string, pos: Pos): void {
    this.ctx.report(
      'story/bad-expression',
      `'${id}' is not an id (a letter, then up to 63 letters, digits, _ or -)`,
      pos,
    )
  }

  notInPassage(what: string, pos: Pos): void {
    this.ctx.report('story/module-content', `${what} cannot be part of a passage`, pos)
  }

  private paragraph(parentIndent: number): Node[] {
    const first = this.lines[this.i]!
    const tokens: InlineToken[] = []
    const tags: string[] = []
    let join: InlineToken | undefined
    let glue: NonNullable<Extract<Node, { kind: 'paragraph' }>['glue']> | undefined
    let jump: JumpNode | undefined
    let firstLine = true
    let lastEnd: GlueSide | 'jump' | undefined
    // in an option body, a less indented line is not a continuation (see story/indentation)
    const minIndent = parentIndent < 0 ? 0 : first.indent
    while (
      this.i < this.lines.length &&
      this.kinds[this.i] === 'text' &&
      this.lines[this.i]!.indent > parentIndent &&
      this.lines[this.i]!.indent >= minIndent
    ) {
      const line = this.lines[this.i]!
      this.ctx.lint?.textLine(this.ctx, line)
      const split = this.splitTagsAt(line, line.text, line.start)
      tags.push(...split.tags)
      let content = split.content
      let from = line.start
      let hard = false
      // 1.1: `<>` at the line's start or end (glue), ` -> #id` or ` -> END` at its end (a jump)
      let startGlue: GlueSide | undefined
      let endGlue: GlueSide | 'jump' | undefined
      if (this.ctx.v11) {
        const g = lineGlue(content)
        if (g.jumpAt >= 0) {
          if (this.passage) this.notInPassage('a jump', posAt(line, line.start + g.jumpAt))
          else jump = jumpNode(this, line, line.start + g.jumpAt, line.start + g.jumpEnd)
          if (jump) endGlue = 'jump'
        }
        startGlue = g.start
        // a jump after the glue: the space before its arrow is written, as ink reads `A<> -> k`
        if (!jump) endGlue = g.end
        from += g.from
        content = content.slice(g.from, g.to)
      }
      let back = 0
      while (back < content.length && content[content.length - 1 - back] === '\\') back++
      if (back % 2 === 1 && split.tags.length === 0 && endGlue === undefined) {
        hard = true
        content = content.slice(0, -1)
      }
      if (firstLine) {
        if (startGlue) glue = { start: startGlue }
      } else if (join && startGlue === undefined) tokens.push(join)
      firstLine = false
      tokens.push(
        ...tokenizeInline(
          this.ctx,
          line,
          from,
          from + content.length,
          this.passage ? { noLinks: 'a passage', linkCode: 'story/module-content' } : {},
        ),
      )
      // glue at the end of a line joins it to the next text line with nothing between
      join = endGlue !== undefined ? undefined : hard ? { k: 'break' } : { k: 'text', v: ' ' }
      this.i++
      lastEnd = endGlue
      if (endGlue === 'jump') break
    }
    if (lastEnd) glue = { ...glue, end: lastEnd }
    const para: Node = {
      kind: 'paragraph',
      pos: posAt(first, first.start),
      lines: [buildInline(this.ctx, tokens)],
      tags,
    }
    if (glue) para.glue = glue
    return jump ? [para, jump] : [para]
  }

  label(line: Line, from: number, to: number, where: string): Inline[] {
    return buildInline(this.ctx, tokenizeInline(this.ctx, line, from, to, { noLinks: where }))
  }

  private group(
    indent: number,
    named: Extract<Node, { kind: 'anchor' }> | undefined,
    parentIndent: number,
  ): Node {
    const first = this.lines[this.i]!
    const options: OptionNode[] = []
    const ifs: GroupIf[] = []
    this.groupItems(indent, options, ifs, undefined)
    this.ctx.lint?.dedented(this, indent, parentIndent, options)
    if (named) this.ids.set(named.id, { line: named.pos.line, kind: 'group' })
    const group: Node = {
      kind: 'group',
      pos: named?.pos ?? posAt(first, first.start),
      id: named?.id ?? '',
      explicitId: !!named,
      options,
    }
    if (ifs.length) group.ifs = ifs
    return group
  }

  /**
   * Reads a group's options at `indent` (and, at 1.1, the block `{if}`s among them) until a line
   * that is neither; inside an `{if}` branch (`under`), up to its `{elif}`, `{else}` or `{end}`.
   */
  private groupItems(
    indent: number,
    options: OptionNode[],
    ifs: GroupIf[],
    under: OptionNode['under'],
  ): void {
    for (;;) {
      let j = this.i
      while (j < this.lines.length && (this.kinds[j] === 'blank' || this.kinds[j] === 'comment')) j++
      if (j >= this.lines.length || this.lines[j]!.indent !== indent) return
      if (this.kinds[j] === 'option') {
        this.i = j
        const line = this.lines[this.i++]!
        const opt = optionNode(this, line, options.length + 1)
        if (under) opt.under = under
        opt.body = this.seq(indent)
        options.push(opt)
        continue
      }
      // 1.1: a block `{if}` of options (one inside a branch was checked with the one around it)
      if (!this.ctx.v11 || this.kinds[j] !== 'command' || !isIfLine(this.lines[j]!)) return
      if (!under && this.groupIfEnd(j) < 0) return
      this.i = j
      this.groupIf(indent, options, ifs, under)
    }
  }

  /** A 1.1 block `{if}` among a group's options (its shape checked by {@link groupIfEnd}). */
  private groupIf(indent: number, options: OptionNode[], ifs: GroupIf[], parent: OptionNode['under']): void {
    const line = this.lines[this.i++]!
    const pos = posAt(line, line.start)
    const cmd = parseCommand(this.ctx, line, line.start, line.start + line.text.length - 1)
    const node: GroupIf = {
      pos,
      conds: [cmd?.c === 'if' ? cmd.cond : { k: 'bool', v: false, pos }],
      at: options.length,
    }
    if (parent) node.parent = parent
    const k = ifs.length
    ifs.push(node)
    let branch = 0
    let sawElse = false
    for (;;) {
      this.groupItems(indent, options, ifs, { if: k, branch })
      while (
        this.i < this.lines.length &&
        (this.kinds[this.i] === 'blank' || this.kinds[this.i] === 'comment')
      )
        this.i++
      const l = this.lines[this.i]
      if (!l || l.indent !== indent || this.kinds[this.i] !== 'command') {
        this.ctx.report('story/missing-end', "'{if}' is not closed by '{end}'", pos)
        return
      }
      const c = parseCommand(this.ctx, l, l.start, l.start + l.text.length - 1)
      this.i++
      if (c?.c === 'elif' || c?.c === 'else') {
        if (sawElse) this.ctx.report('story/else-without-if', `'{${c.c}}' after '{else}'`, posAt(l, l.start))
        if (c.c === 'elif') node.conds.push(c.cond)
        sawElse ||= c.c === 'else'
        branch = c.c === 'else' ? -1 : node.conds.length - 1
        continue
      }
      return
    }
  }

  /**
   * At 1.1, where the block `{if}` on line `j` closes when it is one of a group's (made only of
   * options with their bodies, blanks, comments and such `{if}`s at its indentation), else -1.
   * Linear: the ends of the `{if}`s nested in it are remembered.
   */
  private groupIfEnd(j: number): number {
    const known = this.groupIfEnds.get(j)
    if (known !== undefined) return known
    const indent = this.lines[j]!.indent
    const open = [j]
    let afterOption = false
    for (let k = j + 1; k < this.lines.length; k++) {
      const kind = this.kinds[k]
      if (kind === 'blank' || kind === 'comment') continue
      const l = this.lines[k]!
      if (l.indent > indent && afterOption) continue
      if (l.indent !== indent) break
      if (kind === 'option') {
        afterOption = true
        continue
      }
      const w = kind === 'command' ? /^\{\s*([a-z]+)/.exec(l.text)?.[1] : undefined
      afterOption = false
      if (w === 'if') {
        // deeper nesting is read as ordinary blocks, which stop at the nesting limit
        if (open.push(k) > MAX_DEPTH) break
      } else if (w === 'end') {
        this.groupIfEnds.set(open.pop()!, k)
        if (open.length === 0) return k
      } else if (w !== 'elif' && w !== 'else') break
    }
    this.groupIfEnds.set(j, -1)
    return -1
  }

  /** True when the `{if}` at `this.i` (1.1) begins a run of options and such `{if}`s with an option outside them: one group. */
  private startsGroup(): boolean {
    const indent = this.lines[this.i]!.indent
    let j = this.i
    for (;;) {
      const end = this.groupIfEnd(j)
      if (end < 0) return false
      j = end + 1
      while (j < this.lines.length && (this.kinds[j] === 'blank' || this.kinds[j] === 'comment')) j++
      if (j >= this.lines.length || this.lines[j]!.indent !== indent) return false
      if (this.kinds[j] === 'option') return true
      if (!isIfLine(this.lines[j]!) || this.kinds[j] !== 'command') return false
    }
  }

  private readonly groupIfEnds = new Map<number, number>()
}

/** True for a command line `{if …}`. */
function isIfLine(line: Line): boolean {
  return /^\{\s*if\b/.test(line.text)
}
