/**
 * Walking the syntax tree in document order: nodes, options, inline content and expressions.
 * Internal; used by the post-parse resolution and the static checker.
 */
import type { Expr, Inline, Node, OptionNode, SetStmt } from '../ast.ts'

/** Callbacks of {@link visitNodes}. Each is called in document order. */
export interface NodeVisitor {
  node?(n: Node): void
  option?(o: OptionNode, group: Extract<Node, { kind: 'group' }>): void
  /** Called when an option's body has been visited. */
  leaveOption?(o: OptionNode): void
  /** Called when a node's nested content has been visited. */
  leave?(n: Node): void
}

/** Visits `nodes` and everything nested in them (if branches, alternatives, options and their bodies). */
export function visitNodes(nodes: readonly Node[], v: NodeVisitor): void {
  for (const n of nodes) {
    v.node?.(n)
    if (n.kind === 'if') {
      for (const b of n.branches) visitNodes(b.body, v)
      visitNodes(n.otherwise, v)
    } else if (n.kind === 'alt') {
      for (const b of n.branches) visitNodes(b, v)
    } else if (n.kind === 'group') {
      for (const o of n.options) {
        v.option?.(o, n)
        visitNodes(o.body, v)
        v.leaveOption?.(o)
      }
    }
    v.leave?.(n)
  }
}

/** Calls `fn` for each inline node, descending into `{if}` branches, alternatives' items and link bodies. */
export function visitInline(inl: readonly Inline[], fn: (i: Inline) => void): void {
  for (const i of inl) {
    fn(i)
    if (i.k === 'if') {
      for (const b of i.branches) visitInline(b.body, fn)
      visitInline(i.otherwise, fn)
    } else if (i.k === 'link') visitInline(i.body, fn)
    else if (i.k === 'alt') for (const item of i.items) visitInline(item, fn)
  }
}

/** The assignments written inline in `inl` (`{set}` inside text). */
export function inlineSets(inl: readonly Inline[]): SetStmt[] {
  const out: SetStmt[] = []
  visitInline(inl, (i) => {
    if (i.k === 'set') out.push(i.stmt)
  })
  return out
}

/** The root expressions of inline content (interpolations, conditions, inline `{set}` values). */
export function inlineExprs(inl: readonly Inline[], out: Expr[] = []): Expr[] {
  visitInline(inl, (i) => {
    if (i.k === 'interp') out.push(i.e)
    else if (i.k === 'set') out.push(i.stmt.e)
    else if (i.k === 'if') for (const b of i.branches) out.push(b.cond)
  })
  return out
}

/** The root expressions that belong to the node itself (not to nested nodes). */
export function nodeExprs(n: Node): Expr[] {
  switch (n.kind) {
    case 'paragraph': {
      const out: Expr[] = []
      for (const l of n.lines) inlineExprs(l, out)
      return out
    }
    case 'heading':
      return inlineExprs(n.label)
    case 'set':
      return [n.stmt.e]
    case 'local':
    case 'temp':
      return [n.e]
    case 'return':
      return n.e ? [n.e] : []
    case 'if':
      return n.branches.map((b) => b.cond)
    case 'group':
      return n.ifs ? n.ifs.flatMap((f) => f.conds) : []
    case 'insert':
    case 'call':
      return [...n.args]
    default:
      return []
  }
}

/** The root expressions of an option line (guard, label and, for 1.1 choice text, the text after its brackets). */
export function optionExprs(o: OptionNode): Expr[] {
  const out = inlineExprs(o.label)
  if (o.echo) inlineExprs(o.echo.after, out)
  if (o.guard) out.unshift(o.guard)
  return out
}

/** Calls `fn` for `e` and every sub-expression, parents first. */
export function walkExpr(e: Expr, fn: (e: Expr) => void): void {
  fn(e)
  switch (e.k) {
    case 'list':
      for (const x of e.items) walkExpr(x, fn)
      break
    case 'un':
      walkExpr(e.e, fn)
      break
    case 'bin':
      walkExpr(e.a, fn)
      walkExpr(e.b, fn)
      break
    case 'call':
      for (const x of e.args) walkExpr(x, fn)
      break
    case 'index':
      walkExpr(e.e, fn)
      walkExpr(e.index, fn)
      break
    case 'field':
      walkExpr(e.e, fn)
      break
  }
}
