/**
 * Checks across parts: gate and link targets, scene ids, media files, `{seed}` placement,
 * sections that nothing reaches, and once-only groups without explicit ids. Internal.
 */

import type { IdKind, Node, PartAst, Pos } from '../ast.ts'
import { visitInline, visitNodes } from '../parse/walk.ts'
import { resolveTarget } from '../paths.ts'
import { didYouMean } from '../suggest.ts'
import { type CheckContext, PHASE } from './context.ts'

interface Target {
  target: string
  /** The first character of the target. */
  pos: Pos
  kind: 'gate' | 'link'
}

/** The position of the id after `:` in a target (`b.sty:hall` → `hall`). */
function idPos(t: Target): Pos {
  const colon = t.target.lastIndexOf(':')
  return { line: t.pos.line, column: t.pos.column + [...t.target.slice(0, colon + 1)].length }
}

/** A heading, anchor or named group right after a jump or gate: dead unless something targets it. */
interface DeadCandidate {
  id: string
  pos: Pos
  /** The jump or gate above it. */
  prev: { kind: string; line: number }
}

/** What the cross-part checks keep of a part once its syntax tree is dropped. */
interface PartSummary {
  file: string
  targets: Target[]
  dead: DeadCandidate[]
  /** The last top-level node is a jump or a gate: play does not fall through to the next part. */
  endsInJump: boolean
}

/**
 * The cross-part checks, one part at a time: {@link PartChecks.scan} runs what one part can
 * tell (media, `{seed}`, implicit ids) and keeps a summary; {@link PartChecks.finish} checks
 * targets against every part's ids, then unreachable sections and parts.
 */
export class PartChecks {
  /** Parts reached by a jump, gate or link, each with the ids targeted in it. */
  private readonly targeted = new Map<string, Set<string>>()
  private readonly summaries: PartSummary[] = []

  constructor(private readonly cx: CheckContext) {}

  private target(part: string, id?: string): void {
    const ids = this.targeted.get(part) ?? new Set<string>()
    this.targeted.set(part, ids)
    if (id !== undefined) ids.add(id)
  }

  /** Runs the checks of one part and keeps what {@link PartChecks.finish} needs. */
  scan(file: string, ast: PartAst): void {
    const cx = this.cx
    // The ids a part defines (explicit and implicit headings, anchors, named groups, explicit options).
    const ids = new Map<string, IdKind>()
    const targets: Target[] = []
    visitNodes(ast.body, {
      node: (n) => {
        if (n.kind === 'heading') ids.set(n.id, 'heading')
        else if (n.kind === 'anchor') ids.set(n.id, 'anchor')
        else if (n.kind === 'group') {
          if (n.explicitId) ids.set(n.id, 'group')
          checkImplicitIds(cx, file, n)
        } else if (n.kind === 'jump') {
          if (n.target !== null) this.target(file, n.target)
        } else if (n.kind === 'media') {
          if (cx.assets && !cx.assets.has(n.path)) {
            cx.phase = PHASE.media
            cx.report(file, 'story/missing-media', `media file '${n.path}' is not in the package`, n.pathPos)
          }
        } else if (n.kind === 'gate') targets.push({ target: n.target, pos: n.targetPos, kind: 'gate' })
        else if (n.kind === 'paragraph')
          for (const line of n.lines)
            visitInline(line, (i) => {
              if (i.k === 'link') targets.push({ target: i.target, pos: i.targetPos, kind: 'link' })
            })
      },
      option: (o) => {
        if (o.explicitId) ids.set(o.id, 'option')
        if (o.jump?.target) this.target(file, o.jump.target)
      },
    })
    cx.partIds.set(file, ids)
    const seed = ast.declarations.seed
    if (seed && file !== cx.entry) {
      cx.phase = PHASE.seed
      cx.report(
        file,
        'story/seed-placement',
        `'{seed}' only counts in the entry part (${cx.entry ?? 'none'}); move it there`,
        seed.pos,
      )
    }
    const last = ast.body.at(-1)
    const dead: DeadCandidate[] = []
    collectDeadCandidates(ast.body, dead)
    this.summaries.push({ file, targets, dead, endsInJump: last?.kind === 'jump' || last?.kind === 'gate' })
  }

  /** Checks targets, then unreachable sections and parts, once every part is scanned. */
  finish(): void {
    const cx = this.cx
    cx.phase = PHASE.targets
    for (const { file, targets } of this.summaries) {
      for (const t of targets) {
        const r = resolveTarget(file, t.target)
        // clarification 10: a flat archive has exactly one part, its entry
        const dest = cx.flat && r.part !== cx.entry ? undefined : cx.partIds.get(r.part)
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
        this.target(r.part)
        if (r.id === undefined) continue
        const kind = dest.get(r.id)
        if (kind === undefined)
          cx.report(
            file,
            'story/unknown-id',
            `'${r.part}' has no heading, anchor or group '#${r.id}'${didYouMean(
              r.id,
              [...dest].filter(([id, k]) => k !== 'option' && !/^h[0-9]+$/.test(id)).map(([id]) => id),
            )}`,
            idPos(t),
          )
        else if (kind === 'option')
          cx.report(
            file,
            'story/not-a-target',
            `'#${r.id}' in '${r.part}' names an option, not a place to enter`,
            idPos(t),
          )
        else this.target(r.part, r.id)
      }
    }
    cx.phase = PHASE.deadSections
    for (const { file, dead } of this.summaries)
      for (const c of dead) {
        if (this.targeted.get(file)?.has(c.id)) continue
        cx.report(
          file,
          'story/unreachable',
          `nothing jumps or links to '#${c.id}', and the flow above it ends at the ${c.prev.kind} on line ${c.prev.line}`,
          c.pos,
        )
      }
    cx.phase = PHASE.deadParts
    this.checkDeadParts()
  }

  /**
   * A part is reached by being the entry, by a gate or link, or by falling off the end of the
   * part before it in play order (when that part's last top-level line is not a jump or gate).
   */
  private checkDeadParts(): void {
    const cx = this.cx
    const endsInJump = new Map(this.summaries.map((s) => [s.file, s.endsInJump]))
    const playOrder = cx.order.filter((p) => cx.partPaths.has(p))
    const inOrder = new Set(playOrder)
    let fallsThrough = false
    for (const [i, file] of playOrder.entries()) {
      const reached: boolean = i === 0 || this.targeted.has(file) || fallsThrough
      fallsThrough = reached && !endsInJump.get(file)
      if (!reached)
        cx.report(
          file,
          'story/unreachable',
          `no gate or link leads to this part, and the part before it (${playOrder[i - 1]}) never ends by falling through`,
          { line: 1, column: 1 },
        )
    }
    for (const file of cx.partPaths)
      if (!inOrder.has(file) && !this.targeted.has(file))
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
}

/**
 * A heading, anchor or named group right after a jump or gate is reachable only through its
 * id; when nothing targets it, the content is unreachable. Collects those, in document order.
 */
function collectDeadCandidates(nodes: Node[], out: DeadCandidate[]): void {
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!
    if (n.kind === 'if') {
      for (const b of n.branches) collectDeadCandidates(b.body, out)
      collectDeadCandidates(n.otherwise, out)
    } else if (n.kind === 'group') for (const o of n.options) collectDeadCandidates(o.body, out)
    const prev = nodes[i - 1]
    if (!prev || (prev.kind !== 'jump' && prev.kind !== 'gate')) continue
    const id =
      n.kind === 'heading' || n.kind === 'anchor' || (n.kind === 'group' && n.explicitId) ? n.id : undefined
    if (id !== undefined) out.push({ id, pos: n.pos, prev: { kind: prev.kind, line: prev.pos.line } })
  }
}

/** Clarification 4: once-only options in a group without explicit ids (info). */
function checkImplicitIds(cx: CheckContext, file: string, n: Extract<Node, { kind: 'group' }>): void {
  const once = n.options.filter((o) => !o.sticky && !o.fallback)
  if (once.length === 0) return
  const unnamed = once.filter((o) => !o.explicitId)
  if (n.explicitId && unnamed.length === 0) return
  const what = !n.explicitId
    ? `the group '${n.id}' has no explicit id (write an anchor like [#talk] on the line above it)`
    : `options ${unnamed.map((o) => o.id).join(', ')} have no explicit id (end the line with [#id])`
  cx.phase = PHASE.implicitIds
  cx.report(
    file,
    'story/implicit-ids',
    `once-only options are saved by position: ${what}; inserting an option above would shift saved choices`,
    n.pos,
  )
}
