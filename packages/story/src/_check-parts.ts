/**
 * Checks across parts: gate and link targets, scene ids, media files, `{seed}` placement,
 * sections that nothing reaches, and once-only groups without explicit ids. Internal.
 */
import type { IdKind } from './_resolve'
import { visitInline, visitNodes } from './_walk'
import type { Node, PartAst, Pos } from './ast'
import type { CheckContext } from './check-story'
import { resolveTarget } from './resolve-paths'

/** The ids a part defines (explicit and implicit headings, anchors, named groups, explicit options). */
export function collectIds(ast: PartAst): Map<string, IdKind> {
  const ids = new Map<string, IdKind>()
  visitNodes(ast.body, {
    node(n) {
      if (n.kind === 'heading') ids.set(n.id, 'heading')
      else if (n.kind === 'anchor') ids.set(n.id, 'anchor')
      else if (n.kind === 'group' && n.explicitId) ids.set(n.id, 'group')
    },
    option(o) {
      if (o.explicitId) ids.set(o.id, 'option')
    },
  })
  return ids
}

/** Gates and links of a part, in document order. */
export function partTargets(ast: PartAst): Array<{ target: string; pos: Pos; kind: 'gate' | 'link' }> {
  const out: Array<{ target: string; pos: Pos; kind: 'gate' | 'link' }> = []
  visitNodes(ast.body, {
    node(n) {
      if (n.kind === 'gate') out.push({ target: n.target, pos: n.pos, kind: 'gate' })
      else if (n.kind === 'paragraph')
        for (const line of n.lines)
          visitInline(line, (i) => {
            if (i.k === 'link') out.push({ target: i.target, pos: i.pos, kind: 'link' })
          })
    },
  })
  return out
}

/** Runs the cross-part checks. `targeted` collects `part:id` keys reached by jumps, gates and links. */
export function checkParts(cx: CheckContext): void {
  const targeted = new Set<string>()
  for (const [file, part] of cx.parts) {
    for (const t of partTargets(part.ast)) {
      const r = resolveTarget(file, t.target)
      // clarification 10: a flat archive has exactly one part, its entry
      const dest = cx.flat && r.part !== cx.entry ? undefined : cx.parts.get(r.part)
      if (!dest) {
        cx.report(
          file,
          'story/unknown-part',
          cx.flat
            ? `a flat archive has one part, its entry; the ${t.kind} '${t.target}' names another file`
            : `no part '${r.part}' in this package (${t.kind} '${t.target}')`,
          t.pos,
        )
        continue
      }
      targeted.add(r.part)
      if (r.id === undefined) continue
      const kind = dest.ids.get(r.id)
      if (kind === undefined)
        cx.report(file, 'story/unknown-id', `'${r.part}' has no heading, anchor or group '#${r.id}'`, t.pos)
      else if (kind === 'option')
        cx.report(
          file,
          'story/not-a-target',
          `'#${r.id}' in '${r.part}' names an option, not a place to enter`,
          t.pos,
        )
      else targeted.add(`${r.part}:${r.id}`)
    }
    visitNodes(part.ast.body, {
      node(n) {
        if (n.kind === 'jump' && n.target !== null) targeted.add(`${file}:${n.target}`)
        if (n.kind === 'media' && cx.assets && !cx.assets.has(n.path))
          cx.report(file, 'story/missing-media', `media file '${n.path}' is not in the package`, n.pos)
      },
      option(o) {
        if (o.jump?.target) targeted.add(`${file}:${o.jump.target}`)
      },
    })
    const seed = part.ast.declarations.seed
    if (seed && file !== cx.entry)
      cx.report(
        file,
        'story/seed-placement',
        `'{seed}' only counts in the entry part (${cx.entry ?? 'none'}); move it there`,
        seed.pos,
      )
    checkImplicitIds(cx, file, part.ast)
  }
  for (const [file, part] of cx.parts) checkDeadSections(cx, file, part.ast.body, targeted)
  checkDeadParts(cx, targeted)
}

/**
 * A part is reached by being the entry, by a gate or link, or by falling off the end of the
 * part before it in play order (when that part's last top-level line is not a jump or gate).
 */
function checkDeadParts(cx: CheckContext, targeted: Set<string>): void {
  const entered = new Set<string>()
  for (const key of targeted) {
    const at = key.lastIndexOf(':')
    entered.add(at < 0 ? key : key.slice(0, at))
  }
  const playOrder = cx.order.filter((p) => cx.parts.has(p))
  let fallsThrough = false
  for (const [i, file] of playOrder.entries()) {
    const reached: boolean = i === 0 || entered.has(file) || fallsThrough
    const last = cx.parts.get(file)!.ast.body.at(-1)
    fallsThrough = reached && last?.kind !== 'jump' && last?.kind !== 'gate'
    if (!reached)
      cx.report(
        file,
        'story/unreachable',
        `no gate or link leads to this part, and the part before it (${playOrder[i - 1]}) never ends by falling through`,
        { line: 1, column: 1 },
      )
  }
  for (const file of cx.parts.keys())
    if (!playOrder.includes(file) && !entered.has(file))
      cx.report(
        file,
        'story/unreachable',
        'this part is not in manifest.parts and no gate or link leads to it',
        {
          line: 1,
          column: 1,
        },
      )
}

/**
 * A heading, anchor or named group right after a jump or gate is reachable only through its
 * id; when nothing targets it, the content is unreachable.
 */
function checkDeadSections(cx: CheckContext, file: string, nodes: Node[], targeted: Set<string>): void {
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!
    if (n.kind === 'if') {
      for (const b of n.branches) checkDeadSections(cx, file, b.body, targeted)
      checkDeadSections(cx, file, n.otherwise, targeted)
    } else if (n.kind === 'group') for (const o of n.options) checkDeadSections(cx, file, o.body, targeted)
    const prev = nodes[i - 1]
    if (!prev || (prev.kind !== 'jump' && prev.kind !== 'gate')) continue
    const id =
      n.kind === 'heading' || n.kind === 'anchor' || (n.kind === 'group' && n.explicitId) ? n.id : undefined
    if (id === undefined || targeted.has(`${file}:${id}`)) continue
    cx.report(
      file,
      'story/unreachable',
      `nothing jumps or links to '#${id}', and the flow above it ends at the ${prev.kind} on line ${prev.pos.line}`,
      n.pos,
    )
  }
}

/** Clarification 4: once-only options in a group without explicit ids (info). */
function checkImplicitIds(cx: CheckContext, file: string, ast: PartAst): void {
  visitNodes(ast.body, {
    node(n) {
      if (n.kind !== 'group') return
      const once = n.options.filter((o) => !o.sticky && !o.fallback)
      if (once.length === 0) return
      const unnamed = once.filter((o) => !o.explicitId)
      if (n.explicitId && unnamed.length === 0) return
      const what = !n.explicitId
        ? `the group '${n.id}' has no explicit id (write an anchor like [#talk] on the line above it)`
        : `options ${unnamed.map((o) => o.id).join(', ')} have no explicit id (end the line with [#id])`
      cx.report(
        file,
        'story/implicit-ids',
        `once-only options are saved by position: ${what}; inserting an option above would shift saved choices`,
        n.pos,
      )
    },
  })
}
