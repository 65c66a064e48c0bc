/**
 * One option line of a choice group (section 5): sticky or once-only bullet, `{if}` guard, label,
 * trailing `[#id]`, `-> #id` and tags. Internal; called by the line parser (_parse-lines.ts).
 */

import type { JumpNode, OptionNode } from '../ast.ts'
import { parseCommand } from './command.ts'
import { jumpNode } from './line-nodes.ts'
import type { LineParser } from './line-parser.ts'
import { findClose, type Line, posAt, trailingId } from './scan.ts'

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
  const label = p.label(line, line.start + from, line.start + from + labelText.length, 'an option label')
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

/**
 * The offset of a trailing `-> …` in an option line (after the bullet, at the start or after
 * whitespace, followed by one word), or -1. Linear time.
 */
function trailingJump(content: string): number {
  const at = content.lastIndexOf('->')
  if (at < 1 || (at > 1 && !/\s/.test(content[at - 1]!))) return -1
  return /^\s*\S*$/.test(content.slice(at + 2)) ? at : -1
}
