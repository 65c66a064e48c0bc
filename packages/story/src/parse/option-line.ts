/**
 * One option line of a choice group (section 5): sticky or once-only bullet, `{if}` guard, label,
 * trailing `[#id]`, `-> #id` and tags. Internal; called by the line parser (_parse-lines.ts).
 */

import type { Inline, JumpNode, OptionNode } from '../ast.ts'
import { parseCommand } from './command.ts'
import { ParseContext } from './context.ts'
import { buildInline, tokenizeInline } from './inline.ts'
import { jumpNode } from './line-nodes.ts'
import type { LineParser } from './line-parser.ts'
import { createCloser, findClose, type Line, posAt, TARGET_RE, trailingId } from './scan.ts'

/** An option line (its body is parsed by the caller): bullet, guard, label, id, jump and tags. */
export function optionNode(p: LineParser, line: Line, n: number): OptionNode {
  const sticky = line.text[0] === '+'
  const pos = posAt(line, line.start)
  const split = p.splitTagsAt(line, line.text, line.start)
  let content = split.content
  let id: string | undefined
  const idm = trailingId(content)
  if (idm) {
    const idPos = posAt(line, line.start + idm.bracket)
    if (idm.valid) {
      id = idm.id
      p.declareId(id, 'option', idPos)
    } else p.badId(idm.id, idPos)
    content = content.slice(0, idm.at)
  }
  let jump: JumpNode | undefined
  const at = trailingJump(content)
  if (at > 0) {
    jump = jumpNode(p, line, line.start + at, line.start + content.length)
    content = content.slice(0, at)
  }
  let from = 1
  while (content[from] === ' ') from++
  let guard: OptionNode['guard']
  if (content.startsWith('{if', from)) {
    const close = findClose(content, from)
    if (close < 0) {
      p.ctx.report(
        'story/unclosed-brace',
        "the guard is not closed on its line; add '}' after its condition",
        posAt(line, line.start + from),
      )
      guard = { k: 'bool', v: false, pos }
      from = content.length
    } else {
      const cmd = parseCommand(
        p.ctx,
        { ...line, raw: line.raw.slice(0, line.start) + content },
        line.start + from,
        line.start + close,
      )
      if (cmd?.c === 'if') guard = cmd.cond
      else if (cmd)
        p.ctx.report(
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
  p.ctx.lint?.labelId(p, line, from, content, labelText, split.tags, jump, id)
  const lat = line.start + from
  const brackets = p.ctx.v11 ? choiceBrackets(labelText) : undefined
  let label: Inline[]
  let echo: OptionNode['echo']
  if (brackets) {
    // 1.1 choice text: before [inside] after; the menu shows before + inside, the story before + after
    const where = { noLinks: 'an option label' }
    const before = tokenizeInline(p.ctx, line, lat, lat + brackets.open, where)
    const inside = tokenizeInline(p.ctx, line, lat + brackets.open + 1, lat + brackets.close, where)
    const after = tokenizeInline(p.ctx, line, lat + brackets.close + 1, lat + labelText.length, where)
    label = buildInline(p.ctx, [...before, ...inside])
    const keep = before.some((t) => t.k === 'cmd')
      ? buildInline(new ParseContext(p.ctx.file), before).length
      : before.length
    echo = { keep, after: buildInline(p.ctx, after) }
  } else label = p.label(line, lat, lat + labelText.length, 'an option label')
  const menuText = brackets
    ? labelText.slice(0, brackets.open) + labelText.slice(brackets.open + 1, brackets.close)
    : labelText
  const node: OptionNode = {
    kind: 'option',
    pos,
    sticky,
    id: id ?? String(n),
    explicitId: id !== undefined,
    guard,
    label,
    fallback: menuText.trim() === '',
    jump,
    tags: split.tags,
    body: [],
  }
  if (echo) node.echo = echo
  return node
}

/**
 * The first `[…]` of a 1.1 option label that is choice text: not escaped, not inside `{}` or
 * `${}`, not a link `[text > target]` and not an id `[#id]`. Offsets into `label`; linear time.
 */
function choiceBrackets(label: string): { open: number; close: number } | undefined {
  const findClose = createCloser(label)
  for (let i = 0; i < label.length; i++) {
    const c = label[i]
    if (c === '\\') i++
    else if (c === '{') {
      const close = findClose(i)
      if (close < 0) return undefined
      i = close
    } else if (c === '[') {
      const close = findClose(i)
      if (close < 0) return undefined
      const inner = label.slice(i + 1, close)
      const sep = inner.lastIndexOf(' > ')
      const isLink = sep >= 0 && TARGET_RE.test(inner.slice(sep + 3).trim())
      if (!isLink && !inner.startsWith('#')) return { open: i, close }
      i = close
    }
  }
  return undefined
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
