/**
 * The line-level parser shared by parts and passages: builds nodes from classified lines,
 * recovering line by line. Internal; see parse-story.ts and parse-module.ts.
 */

import { classify, type LineKind } from './_classify'
import type { ParseContext } from './_context'
import {
  findClose,
  ID,
  ID_ONLY,
  type Line,
  parseTagList,
  posAt,
  splitTags,
  TARGET_RE,
  trailingId,
} from './_scan'
import type { Expr, Inline, JumpNode, MediaKind, Node, OptionNode, Pos } from './ast'
import { parseCommand } from './parse-command'
import type { InlineToken } from './parse-inline'
import { buildInline, checkTarget, tokenizeInline } from './parse-inline'

/** A whole jump: `-> #id` or `-> END`. */
const JUMP = new RegExp(`^->\\s*(?:#(${ID})|(END))$`)

/** How deeply blocks (`{if}`, option bodies) may nest before the rest is skipped. */
const MAX_DEPTH = 100

const MEDIA_KINDS: Record<string, MediaKind> = {}
for (const e of 'png jpg jpeg gif webp avif svg'.split(' ')) MEDIA_KINDS[e] = 'image'
for (const e of 'ogg oga opus mp3 m4a wav flac'.split(' ')) MEDIA_KINDS[e] = 'audio'
for (const e of 'mp4 webm'.split(' ')) MEDIA_KINDS[e] = 'video'

/** An explicit id seen in the file, for `story/duplicate-id` and jump checks. */
export interface IdInfo {
  line: number
  kind: 'heading' | 'anchor' | 'group' | 'option'
}

/** Parses a sequence of lines into nodes. */
export class LineParser {
  i = 0
  readonly kinds: LineKind[]
  readonly ids = new Map<string, IdInfo>()
  readonly jumps: JumpNode[] = []
  headingCount = 0
  private ifDepth = 0
  /** Set by module parsing: where passages are parsed, what is not allowed. */
  passage = false

  constructor(
    readonly ctx: ParseContext,
    readonly lines: Line[],
  ) {
    this.kinds = lines.map(classify)
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
      if (n.kind === 'jump' || n.kind === 'gate') {
        deadAfter = line.no
        this.deadWhat = n.kind === 'jump' ? 'jump' : 'gate'
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
      if (kind === 'command') {
        const close = line.start + line.text.length - 1
        const cmd = parseCommand(this.ctx, line, line.start, close)
        this.i++
        const pos = posAt(line, line.start)
        if (!cmd) {
          // an unreadable `{if …}` still opens a block, so that its `{end}` is not reported too
          if (word === 'if') push(this.blockIf({ k: 'bool', v: false, pos }, pos, parentIndent), line)
          continue
        }
        switch (cmd.c) {
          case 'if': {
            push(this.blockIf(cmd.cond, pos, parentIndent), line)
            break
          }
          case 'elif':
          case 'else':
            this.ctx.report('story/else-without-if', `'{${cmd.c}}' has no '{if}' before it`, pos)
            break
          case 'end':
            this.ctx.report('story/unexpected-end', "'{end}' closes nothing", pos)
            break
          case 'set':
            push({ kind: 'set', pos, stmt: cmd.stmt }, line)
            break
          case 'local':
            if (this.passage) this.notInPassage('{local}', pos)
            else push({ kind: 'local', pos, name: cmd.name, e: cmd.e }, line)
            break
          case 'insert':
            push({ kind: 'insert', pos, name: cmd.name, args: cmd.args }, line)
            break
          case 'call':
            if (this.passage) this.notInPassage('{call}', pos)
            else push({ kind: 'call', pos, ns: cmd.ns, fn: cmd.fn, args: cmd.args }, line)
            break
          case 'use':
            this.ctx.report(
              'story/use-placement',
              "'{use}' belongs in the declaration block at the top of the part",
              pos,
            )
            break
          case 'seed':
            this.ctx.report(
              'story/seed-placement',
              "'{seed}' belongs in the declaration block of the entry part",
              pos,
            )
            break
          default:
            this.ctx.report('story/unknown-command', `'{${cmd.c}}' is only allowed in a module (.xty)`, pos)
        }
        continue
      }
      if (kind === 'unclosed') {
        this.ctx.report('story/unclosed-brace', 'command is not closed on its line', posAt(line, line.start))
        this.i++
        continue
      }
      if (kind === 'text') {
        push(this.paragraph(parentIndent), line)
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
        push(this.group(line.indent, named), line)
        continue
      }
      this.i++
      const node = this.single(kind, line)
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
    if (split.at >= 0) this.checkTagWords(line, text.slice(split.at), offset + split.at)
    return split
  }

  /** The tags of a tag line, reporting words that are not tags. */
  tagLine(line: Line): string[] {
    this.checkTagWords(line, line.text, line.start)
    return parseTagList(line.text)
  }

  private checkTagWords(line: Line, list: string, offset: number): void {
    const word = /(?:^|\s)([^#\s]\S*)/.exec(list)
    if (word)
      this.ctx.report(
        'story/tag-text',
        `'${word[1]!.slice(0, 20)}' follows the tags, so it is ignored; write \\# for a literal '#' in text`,
        posAt(line, offset + word.index + word[0].length - word[1]!.length),
      )
  }

  private badId(id: string, pos: Pos): void {
    this.ctx.report(
      'story/bad-expression',
      `'${id}' is not an id (a letter, then up to 63 letters, digits, _ or -)`,
      pos,
    )
  }

  private notInPassage(what: string, pos: Pos): void {
    this.ctx.report('story/module-content', `${what} cannot be part of a passage`, pos)
  }

  private blockIf(cond: Expr, pos: Pos, parentIndent: number): Node {
    const node: Extract<Node, { kind: 'if' }> = { kind: 'if', pos, branches: [], otherwise: [] }
    this.ifDepth++
    let current: Node[] = this.seq(parentIndent)
    node.branches.push({ cond, body: current })
    let sawElse = false
    for (;;) {
      const line = this.lines[this.i]
      if (!line || this.kinds[this.i] !== 'command' || line.indent <= parentIndent) {
        this.ctx.report('story/missing-end', "'{if}' is not closed by '{end}'", pos)
        break
      }
      const close = line.start + line.text.length - 1
      const cmd = parseCommand(this.ctx, line, line.start, close)
      this.i++
      if (cmd?.c === 'end') break
      if (cmd?.c === 'elif' || cmd?.c === 'else') {
        if (sawElse)
          this.ctx.report('story/else-without-if', `'{${cmd.c}}' after '{else}'`, posAt(line, line.start))
        current = this.seq(parentIndent)
        if (cmd.c === 'elif') node.branches.push({ cond: cmd.cond, body: current })
        else if (!sawElse) node.otherwise = current
        sawElse ||= cmd.c === 'else'
        continue
      }
      current = this.seq(parentIndent)
    }
    this.ifDepth--
    return node
  }

  private paragraph(parentIndent: number): Node {
    const first = this.lines[this.i]!
    const tokens: InlineToken[] = []
    const tags: string[] = []
    let join: InlineToken | undefined
    // in an option body, a less indented line is not a continuation (see story/indentation)
    const minIndent = parentIndent < 0 ? 0 : first.indent
    while (
      this.i < this.lines.length &&
      this.kinds[this.i] === 'text' &&
      this.lines[this.i]!.indent > parentIndent &&
      this.lines[this.i]!.indent >= minIndent
    ) {
      const line = this.lines[this.i]!
      const split = this.splitTagsAt(line, line.text, line.start)
      tags.push(...split.tags)
      let content = split.content
      let hard = false
      let back = 0
      while (back < content.length && content[content.length - 1 - back] === '\\') back++
      if (back % 2 === 1 && split.tags.length === 0) {
        hard = true
        content = content.slice(0, -1)
      }
      if (join) tokens.push(join)
      tokens.push(
        ...tokenizeInline(
          this.ctx,
          line,
          line.start,
          line.start + content.length,
          this.passage ? { noLinks: 'a passage', linkCode: 'story/module-content' } : {},
        ),
      )
      join = hard ? { k: 'break' } : { k: 'text', v: ' ' }
      this.i++
    }
    return { kind: 'paragraph', pos: posAt(first, first.start), lines: [buildInline(this.ctx, tokens)], tags }
  }

  private label(line: Line, from: number, to: number, where: string): Inline[] {
    return buildInline(this.ctx, tokenizeInline(this.ctx, line, from, to, { noLinks: where }))
  }

  private single(kind: LineKind, line: Line): Node | undefined {
    const t = line.text
    const pos = posAt(line, line.start)
    if (this.passage && (kind === 'heading' || kind === 'gate' || kind === 'anchor' || kind === 'jump')) {
      this.notInPassage(`a ${kind}`, pos)
      return undefined
    }
    switch (kind) {
      case 'heading': {
        const level = /^#+/.exec(t)![0].length
        const split = this.splitTagsAt(line, t.slice(level), line.start + level)
        let content = split.content
        let id: string | undefined
        const m = trailingId(content)
        if (m) {
          const idPos = posAt(line, line.start + level + m.bracket)
          if (m.valid) {
            id = m.id
            this.declareId(id, 'heading', idPos)
          } else this.badId(m.id, idPos)
          content = content.slice(0, m.at)
        }
        this.headingCount++
        const from = line.start + level + (content.length - content.trimStart().length)
        const label = this.label(line, from, line.start + level + content.length, 'a heading')
        return {
          kind: 'heading',
          pos,
          level,
          id: id ?? `h${this.headingCount}`,
          explicitId: id !== undefined,
          label,
          tags: split.tags,
          silent: content.trim() === '',
        }
      }
      case 'anchor': {
        const id = t.slice(2, -1)
        if (!ID_ONLY.test(id)) {
          this.ctx.report(
            'story/bad-expression',
            `'${id}' is not an id (a letter, then letters, digits, _ or -)`,
            pos,
          )
          return undefined
        }
        this.declareId(id, 'anchor', pos)
        return { kind: 'anchor', pos, id }
      }
      case 'gate': {
        const target = t.slice(2, -2).trim()
        const tpos = posAt(line, line.start + t.indexOf(target, 2))
        if (!TARGET_RE.test(target) && !target.includes('..') && !target.startsWith('/')) {
          this.ctx.report(
            'story/bad-target',
            `'${target}' is not a part target (a path ending .sty, optionally :id)`,
            tpos,
          )
          return undefined
        }
        if (!checkTarget(this.ctx, target, tpos)) return undefined
        return { kind: 'gate', pos, target }
      }
      case 'jump':
        return this.jump(line, line.start)
      case 'media': {
        const m = /^!\[([^\]]*)\]\(([^)]*)\)/.exec(t)!
        const after = ` ${t.slice(m[0].length)}`
        const rest = this.splitTagsAt(line, after, line.start + m[0].length - 1)
        if (rest.content.trim()) {
          // Only tags may follow the closing ')': other text would be silently lost.
          const at = after.search(/\S/)
          const word = /^\S+/.exec(after.slice(at))![0]
          this.ctx.report(
            'story/tag-text',
            `'${word.slice(0, 20)}' follows a media block, so it is ignored; only tags (#loop) may follow its ')'`,
            posAt(line, line.start + m[0].length - 1 + at),
          )
        }
        const path = m[2]!.trim()
        const ppos = posAt(line, line.start + m[1]!.length + 4)
        const ext = /^[A-Za-z0-9]+$/.exec(path.slice(path.lastIndexOf('.') + 1))?.[0].toLowerCase()
        const media = ext ? MEDIA_KINDS[ext] : undefined
        if (/^[a-z][a-z0-9+.-]*:/i.test(path))
          this.ctx.report(
            'story/bad-path',
            `media path '${path}' has a URL scheme; media must be inside the archive`,
            ppos,
          )
        else if (path.startsWith('/'))
          this.ctx.report(
            'story/bad-path',
            `media path '${path}' starts with / (paths are archive-relative)`,
            ppos,
          )
        else if (path.split('/').includes('..'))
          this.ctx.report('story/bad-path', `media path '${path}' escapes the archive ('..')`, ppos)
        else if (!media)
          this.ctx.report(
            'story/bad-path',
            `media path '${path}' has no known image, audio or video extension`,
            ppos,
          )
        else
          return {
            kind: 'media',
            pos,
            path,
            alt: m[1]!.replace(/\\([!-/:-@[-`{-~])/g, '$1'),
            media,
            tags: rest.tags,
          }
        return undefined
      }
    }
    return undefined
  }

  jump(line: Line, at: number, end = line.raw.length): JumpNode | undefined {
    const t = line.raw.slice(at, end).trimEnd()
    const m = JUMP.exec(t)
    if (!m) {
      this.ctx.report('story/bad-expression', "a jump is written '-> #id' or '-> END'", posAt(line, at))
      return undefined
    }
    const node: JumpNode = {
      kind: 'jump',
      pos: posAt(line, at + t.indexOf(m[1] ? '#' : 'END')),
      target: m[1] ?? null,
    }
    this.jumps.push(node)
    return node
  }

  private group(indent: number, named: Extract<Node, { kind: 'anchor' }> | undefined): Node {
    const first = this.lines[this.i]!
    const options: OptionNode[] = []
    for (;;) {
      let j = this.i
      while (j < this.lines.length && (this.kinds[j] === 'blank' || this.kinds[j] === 'comment')) j++
      if (
        options.length > 0 &&
        (j >= this.lines.length || this.kinds[j] !== 'option' || this.lines[j]!.indent !== indent)
      )
        break
      this.i = j
      const line = this.lines[this.i++]!
      const opt = this.option(line, options.length + 1)
      opt.body = this.seq(indent)
      options.push(opt)
    }
    if (named) this.ids.set(named.id, { line: named.pos.line, kind: 'group' })
    return {
      kind: 'group',
      pos: named?.pos ?? posAt(first, first.start),
      id: named?.id ?? '',
      explicitId: !!named,
      options,
    }
  }

  private option(line: Line, n: number): OptionNode {
    const sticky = line.text[0] === '+'
    const pos = posAt(line, line.start)
    const split = this.splitTagsAt(line, line.text, line.start)
    let content = split.content
    let id: string | undefined
    const idm = trailingId(content)
    if (idm) {
      const idPos = posAt(line, line.start + idm.bracket)
      if (idm.valid) {
        id = idm.id
        this.declareId(id, 'option', idPos)
      } else this.badId(idm.id, idPos)
      content = content.slice(0, idm.at)
    }
    let jump: JumpNode | undefined
    const at = trailingJump(content)
    if (at > 0) {
      jump = this.jump(line, line.start + at, line.start + content.length)
      content = content.slice(0, at)
    }
    let from = 1
    while (content[from] === ' ') from++
    let guard: OptionNode['guard']
    if (content.startsWith('{if', from)) {
      const close = findClose(content, from)
      if (close < 0) {
        this.ctx.report(
          'story/unclosed-brace',
          'the guard is not closed on its line',
          posAt(line, line.start + from),
        )
        guard = { k: 'bool', v: false, pos }
        from = content.length
      } else {
        const cmd = parseCommand(
          this.ctx,
          { ...line, raw: line.raw.slice(0, line.start) + content },
          line.start + from,
          line.start + close,
        )
        if (cmd?.c === 'if') guard = cmd.cond
        else if (cmd)
          this.ctx.report(
            'story/bad-expression',
            'an option guard is written {if condition}',
            posAt(line, line.start + from),
          )
        else guard = { k: 'bool', v: false, pos }
        from = close + 1
        while (content[from] === ' ') from++
      }
    }
    const labelText = content.slice(from).trimEnd()
    const label = this.label(line, line.start + from, line.start + from + labelText.length, 'an option label')
    return {
      kind: 'option',
      pos,
      sticky,
      id: id ?? String(n),
      explicitId: id !== undefined,
      guard,
      label,
      fallback: labelText === '',
      jump,
      tags: split.tags,
      body: [],
    }
  }
}

/**
 * The offset of a trailing `-> …` in an option line (after the bullet, at the start or after
 * whitespace, followed by one word), or -1. Linear time.
 */
function trailingJump(content: string): number {
  const at = content.lastIndexOf('->')
  if (at < 1 || (at > 1 && !/\s/.test(content[at - 1]!))) return -1
  return /^\s*\S*$/.test(content.slice(at + 2)) ? at : -1
}
