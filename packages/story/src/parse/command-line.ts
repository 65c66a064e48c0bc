/**
 * Command lines in a body (`{if}` blocks, `{set}`, `{local}`, `{insert}`, `{call}`) and the
 * commands that do not belong there. Internal; called by the line parser (_parse-lines.ts).
 */

import type { AltMode, Expr, Node, Pos } from '../ast.ts'
import { parseCommand } from './command.ts'
import type { LineParser } from './line-parser.ts'
import { type Line, posAt } from './scan.ts'

/**
 * The node of the command line at `p.i` (which it consumes; an `{if}` also its block), or
 * `undefined` after reporting a command that is misplaced or unreadable.
 */
export function commandLineNode(
  p: LineParser,
  line: Line,
  word: string | undefined,
  parentIndent: number,
): Node | undefined {
  const close = line.start + line.text.length - 1
  const cmd = parseCommand(p.ctx, line, line.start, close)
  p.i++
  const pos = posAt(line, line.start)
  if (!cmd) {
    // an unreadable `{if …}` still opens a block, so that its `{end}` is not reported too
    return word === 'if' ? blockIf(p, { k: 'bool', v: false, pos }, pos, parentIndent) : undefined
  }
  switch (cmd.c) {
    case 'if':
      return blockIf(p, cmd.cond, pos, parentIndent)
    case 'alt':
      return blockAlt(p, cmd.mode, pos, parentIndent)
    case 'or':
      p.ctx.report(
        'story/unexpected-end',
        "'{or}' separates the branches of a block '{seq}', '{cycle}', '{once}' or '{shuffle}'; there is none open here",
        pos,
      )
      return undefined
    case 'elif':
    case 'else':
      p.ctx.report('story/else-without-if', `'{${cmd.c}}' has no '{if}' before it`, pos)
      return undefined
    case 'end':
      p.ctx.report('story/unexpected-end', "'{end}' closes nothing", pos)
      return undefined
    case 'set':
      return { kind: 'set', pos, stmt: cmd.stmt }
    case 'local':
      if (!p.passage) return { kind: 'local', pos, name: cmd.name, namePos: cmd.namePos, e: cmd.e }
      p.notInPassage('{local}', pos)
      return undefined
    case 'temp':
      return { kind: 'temp', pos, name: cmd.name, namePos: cmd.namePos, e: cmd.e }
    case 'return':
      if (p.fnBody) return cmd.e ? { kind: 'return', pos, e: cmd.e } : { kind: 'return', pos }
      p.ctx.report(
        'story/return-placement',
        "'{return}' belongs in a block function '{fn name(…)}' … '{end}' of a module; here, jump with '-> #id' or end with '-> END'",
        pos,
      )
      return undefined
    case 'items':
      p.ctx.report(
        'story/unknown-command',
        p.passage
          ? "'{items}' declares a set at the top level of a module, not inside a passage or function"
          : "'{items}' belongs in the declaration block at the top of the part (or in a module)",
        pos,
      )
      return undefined
    case 'insert':
      return { kind: 'insert', pos, name: cmd.name, namePos: cmd.namePos, args: cmd.args }
    case 'call':
      if (!p.passage)
        return { kind: 'call', pos, ns: cmd.ns, fn: cmd.fn, namePos: cmd.namePos, args: cmd.args }
      p.notInPassage('{call}', pos)
      return undefined
    case 'use':
      p.ctx.report(
        'story/use-placement',
        "'{use}' belongs in the declaration block at the top of the part",
        pos,
      )
      return undefined
    case 'seed':
      p.ctx.report('story/seed-placement', "'{seed}' belongs in the declaration block of the entry part", pos)
      return undefined
    default:
      p.ctx.report(
        'story/unknown-command',
        cmd.c === 'const' && p.ctx.v11 && !p.passage
          ? "'{const}' belongs in the declaration block at the top of the part, or in a module (.xty)"
          : `'{${cmd.c}}' is only allowed in a module (.xty)`,
        pos,
      )
      return undefined
  }
}

/** An `{if}` block: its branches up to the matching `{end}` (lines at `parentIndent` or left end it). */
export function blockIf(p: LineParser, cond: Expr, pos: Pos, parentIndent: number): Node {
  const node: Extract<Node, { kind: 'if' }> = { kind: 'if', pos, branches: [], otherwise: [] }
  p.ifDepth++
  let current: Node[] = p.seq(parentIndent)
  node.branches.push({ cond, body: current })
  let sawElse = false
  for (;;) {
    const line = p.lines[p.i]
    if (!line || p.kinds[p.i] !== 'command' || line.indent <= parentIndent) {
      p.ctx.report('story/missing-end', "'{if}' is not closed by '{end}'", pos)
      break
    }
    const close = line.start + line.text.length - 1
    const cmd = parseCommand(p.ctx, line, line.start, close)
    p.i++
    if (cmd?.c === 'end') break
    if (cmd?.c === 'or') {
      p.ctx.report(
        'story/missing-end',
        "'{or}' inside an '{if}': close the '{if}' with '{end}' before the next branch of the alternative",
        posAt(line, line.start),
      )
      current = p.seq(parentIndent)
      continue
    }
    if (cmd?.c === 'elif' || cmd?.c === 'else') {
      if (sawElse)
        p.ctx.report('story/else-without-if', `'{${cmd.c}}' after '{else}'`, posAt(line, line.start))
      current = p.seq(parentIndent)
      if (cmd.c === 'elif') node.branches.push({ cond: cmd.cond, body: current })
      else if (!sawElse) node.otherwise = current
      sawElse ||= cmd.c === 'else'
      continue
    }
    current = p.seq(parentIndent)
  }
  p.ifDepth--
  return node
}

/**
 * 1.1: a block alternative: its branches, separated by `{or}` lines, up to the matching `{end}`
 * (lines at `parentIndent` or left end it). A block whose only branch is empty has no items
 * (`story/empty-alternative`).
 */
export function blockAlt(p: LineParser, mode: AltMode, pos: Pos, parentIndent: number): Node | undefined {
  const node: Extract<Node, { kind: 'alt' }> = { kind: 'alt', pos, mode, id: '', branches: [] }
  p.altDepth++
  // an `{if}` open around the block does not own the block's `{or}` and `{end}` lines
  const ifDepth = p.ifDepth
  p.ifDepth = 0
  node.branches.push(p.seq(parentIndent))
  for (;;) {
    const line = p.lines[p.i]
    if (!line || p.kinds[p.i] !== 'command' || line.indent <= parentIndent) {
      p.ctx.report('story/missing-end', `'{${mode}}' is not closed by '{end}'`, pos)
      break
    }
    const close = line.start + line.text.length - 1
    const cmd = parseCommand(p.ctx, line, line.start, close)
    p.i++
    if (cmd?.c === 'end') break
    if (cmd?.c === 'or') node.branches.push(p.seq(parentIndent))
    else {
      if (cmd?.c === 'elif' || cmd?.c === 'else')
        p.ctx.report('story/else-without-if', `'{${cmd.c}}' has no '{if}' before it`, posAt(line, line.start))
      node.branches[node.branches.length - 1]!.push(...p.seq(parentIndent))
    }
  }
  p.ifDepth = ifDepth
  p.altDepth--
  if (node.branches.length === 1 && node.branches[0]!.length === 0) {
    p.ctx.report(
      'story/empty-alternative',
      `'{${mode}}' has no branches; put lines between '{${mode}}' and '{end}', separated by '{or}' lines`,
      pos,
    )
    return undefined
  }
  return node
}
