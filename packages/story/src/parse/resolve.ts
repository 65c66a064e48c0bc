/**
 * The resolution pass run after a part is parsed: implicit group ids (`<section>@<k>`), jump
 * targets, `#id` references in expressions and `{local}` placement. Internal.
 */

import type { Expr, IdKind, Inline, Node, PartAst } from '../ast.ts'
import { didYouMean } from '../suggest.ts'
import type { ParseContext } from './context.ts'
import { checkTarget } from './inline.ts'
import type { LineParser } from './line-parser.ts'
import { nodeExprs, optionExprs, visitInline, visitNodes, walkExpr } from './walk.ts'

/**
 * 1.1: the implicit ids of alternatives, `<scope>~<k>` (the k-th alternative of its section, or
 * of its passage), in document order: an alternative before the alternatives nested in it.
 */
export class AltIds {
  private readonly count = new Map<string, number>()

  /** Names the block alternative `n`, in `scope`. */
  node(n: Extract<Node, { kind: 'alt' }>, scope: string): void {
    n.id = this.next(scope)
  }

  /** Names every alternative of inline content, in `scope`. */
  inline(list: readonly Inline[], scope: string): void {
    visitInline(list, (i) => {
      if (i.k === 'alt') i.id = this.next(scope)
    })
  }

  /** Names every alternative of nodes that all belong to `scope` (a passage body). */
  nodes(list: readonly Node[], scope: string): void {
    visitNodes(list, {
      node: (n) => {
        if (n.kind === 'alt') this.node(n, scope)
        else if (n.kind === 'paragraph') for (const l of n.lines) this.inline(l, scope)
      },
      option: (o) => this.inline(o.label, scope),
    })
  }

  private next(scope: string): string {
    const k = (this.count.get(scope) ?? 0) + 1
    this.count.set(scope, k)
    return `${scope}~${k}`
  }
}

/** Built-ins whose `#id` argument must name a heading. */
const HEADING_REF = new Set(['visits'])
/** Built-ins whose `#id` argument must name a choice group. */
const GROUP_REF = new Set(['passed', 'picked'])

/**
 * Fills implicit group ids and checks the same-file references of `ast`. Returns the id table
 * (explicit and implicit heading ids, anchors, named groups, explicit option ids).
 */
export function resolvePart(ctx: ParseContext, lp: LineParser, ast: PartAst): Map<string, IdKind> {
  const ids = new Map<string, IdKind>()
  for (const [id, info] of lp.ids) ids.set(id, info.kind)
  let section = 'h0'
  const outer: string[] = []
  const groupCount = new Map<string, number>()
  const exprs: Expr[] = []
  const alts = new AltIds()
  visitNodes(ast.body, {
    node(n: Node) {
      exprs.push(...nodeExprs(n))
      if (n.kind === 'heading') {
        section = n.id
        if (!n.explicitId) ids.set(n.id, 'heading')
        alts.inline(n.label, section)
      } else if (n.kind === 'paragraph') {
        for (const l of n.lines) alts.inline(l, section)
      } else if (n.kind === 'alt') {
        alts.node(n, section)
      } else if (n.kind === 'group') {
        const k = (groupCount.get(section) ?? 0) + 1
        groupCount.set(section, k)
        if (!n.explicitId) n.id = `${section}@${k}`
        else ids.set(n.id, 'group')
      } else if (n.kind === 'local' && section === 'h0') {
        ctx.report(
          'story/local-placement',
          `'{local ${n.name}}' must be inside a section (after a heading); use '{set}' for a story variable`,
          n.pos,
        )
      }
    },
    option(o) {
      exprs.push(...optionExprs(o))
      alts.inline(o.label, section)
      outer.push(section)
    },
    // a heading inside an option body opens a section for that body only (as the interpreter runs it)
    leaveOption() {
      section = outer.pop()!
    },
  })
  // "did you mean": the ids an author wrote (implicit ids are positions, not names)
  const named = (...kinds: IdKind[]) =>
    [...lp.ids].filter(([, info]) => kinds.includes(info.kind)).map(([id]) => id)
  const hash = (id: string) => `#${id}`
  for (const j of lp.jumps) {
    if (j.target === null) continue
    const kind = ids.get(j.target)
    if (kind === undefined)
      ctx.report(
        'story/unknown-id',
        `no heading, anchor or group '#${j.target}'${didYouMean(j.target, named('heading', 'anchor', 'group'), hash)}`,
        j.pos,
      )
    else if (kind === 'option')
      ctx.report(
        'story/not-a-target',
        `'#${j.target}' names an option; jump to its group's anchor or a heading instead`,
        j.pos,
      )
  }
  for (const d of ast.declarations.defaults) exprs.push(d.e)
  for (const root of exprs)
    walkExpr(root, (e) => {
      if (e.k === 'call') {
        const arg = e.args[0]
        if (arg?.k === 'target') {
          if (checkTarget(ctx, arg.target, arg.pos) && e.callee === 'turns' && !arg.target.includes(':'))
            ctx.report(
              'story/bad-target',
              `turns() counts the turns since flow reached an id; write 'turns(${arg.target}:id)'`,
              arg.pos,
            )
          return
        }
        if (arg?.k !== 'ref') return
        const kind = ids.get(arg.id)
        // 1.1: visits() and turns() read every id of the file (section 3 of the 1.1 design)
        if (ctx.v11 && (e.callee === 'visits' || e.callee === 'turns')) {
          if (kind === undefined)
            ctx.report(
              'story/unknown-id',
              `no heading, anchor, group or option '#${arg.id}' in this file; ${e.callee}() takes an id of this file or 'part.sty:id'`,
              arg.pos,
            )
        } else if (HEADING_REF.has(e.callee) && kind !== 'heading')
          ctx.report(
            'story/unknown-id',
            kind === undefined
              ? `no heading '#${arg.id}' in this file${didYouMean(arg.id, named('heading'), hash)}`
              : `'#${arg.id}' names ${article(kind)}; visits() counts headings only`,
            arg.pos,
          )
        else if (GROUP_REF.has(e.callee) && kind !== 'group')
          ctx.report(
            'story/unknown-id',
            kind === undefined
              ? `no choice group '#${arg.id}' in this file${didYouMean(arg.id, named('group'), hash)}`
              : `'#${arg.id}' names ${article(kind)}; ${e.callee}() takes a choice group`,
            arg.pos,
          )
      }
    })
  return ids
}

function article(kind: IdKind): string {
  return kind === 'anchor' ? 'an anchor' : `a ${kind}`
}
