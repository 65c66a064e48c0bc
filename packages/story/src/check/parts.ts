/**
 * Checks across parts: gate and link targets, scene ids, media files, `{seed}` placement,
 * sections that nothing reaches, and once-only groups without explicit ids. Internal.
 */

import type { Expr, IdKind, JumpNode, Node, PartAst, Pos } from '../ast.ts'
import { nodeExprs, optionExprs, visitInline, visitNodes, walkExpr } from '../parse/walk.ts'
import { resolveTarget } from '../paths.ts'
import { didYouMean } from '../suggest.ts'
import { type CheckContext, PHASE } from './context.ts'
import { placesReachingEnd } from './tunnels.ts'

interface Target {
  target: string
  /** The first character of the target. */
  pos: Pos
  /** `read`: 1.1, the part target of `visits()` or `turns()`, which reads a count and goes nowhere. */
  kind: 'gate' | 'link' | 'read' | 'tunnel' | 'return'
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

/** A heading that the section above it falls into (no jump ends that section): reported when the heading is also a target. */
interface FallCandidate {
  /** The section that falls through: its name for the message, and its heading's line. */
  from: { name: string; line: number }
  /** The heading it falls into. */
  into: { id: string; name: string; pos: Pos }
}

/** What the cross-part checks keep of a part once its syntax tree is dropped. */
interface PartSummary {
  file: string
  targets: Target[]
  dead: DeadCandidate[]
  falls: FallCandidate[]
  /** The last top-level node is a jump, a gate or `->->`: play does not fall through to the next part. */
  endsInJump: boolean
  /** 1.1: top-level places (`''`: the first line) that can run off the part's end without `->->`. */
  reachEnd: Map<string, Pos> | undefined
  /** 1.1: the tunnel calls of the part, by target part and id (`undefined`: the part's first line). */
  tunnels: Array<{ part: string; id: string | undefined; line: number }>
}

/**
 * The cross-part checks, one part at a time: {@link PartChecks.scan} runs what one part can
 * tell (media, `{seed}`, implicit ids) and keeps a summary; {@link PartChecks.finish} checks
 * targets against every part's ids, then unreachable sections and parts.
 */
export class PartChecks {
  /** Parts reached by a jump, gate or link, each with the ids targeted in it. */
  private readonly targeted = new Map<string, Set<string>>()
  /** The first jump, gate or link to `<part>\0<id>`, as a message names it (`line 7`, `a gate in story/b.sty`). */
  private readonly firstEntry = new Map<string, string>()
  private readonly summaries: PartSummary[] = []

  constructor(private readonly cx: CheckContext) {}

  private target(part: string, id?: string, from?: string): void {
    const ids = this.targeted.get(part) ?? new Set<string>()
    this.targeted.set(part, ids)
    if (id === undefined) return
    ids.add(id)
    const key = `${part}\0${id}`
    if (from !== undefined && !this.firstEntry.has(key)) this.firstEntry.set(key, from)
  }

  /** Runs the checks of one part and keeps what {@link PartChecks.finish} needs. */
  scan(file: string, ast: PartAst): void {
    const cx = this.cx
    // The ids a part defines (explicit and implicit headings, anchors, named groups, explicit options).
    const ids = new Map<string, IdKind>()
    const targets: Target[] = []
    const reads = (exprs: Expr[]) => {
      for (const root of exprs)
        walkExpr(root, (e) => {
          if (e.k === 'target') targets.push({ target: e.target, pos: e.pos, kind: 'read' })
        })
    }
    const tunnels: PartSummary['tunnels'] = []
    visitNodes(ast.body, {
      node: (n) => {
        reads(nodeExprs(n))
        if (n.kind === 'heading') ids.set(n.id, 'heading')
        else if (n.kind === 'anchor') ids.set(n.id, 'anchor')
        else if (n.kind === 'group') {
          if (n.explicitId) ids.set(n.id, 'group')
          checkImplicitIds(cx, file, n)
        } else if (n.kind === 'jump') {
          if (n.target !== null) this.target(file, n.target, `line ${n.pos.line}`)
        } else if (n.kind === 'media') {
          if (cx.assets && !cx.assets.has(n.path)) {
            cx.phase = PHASE.media
            cx.report(file, 'story/missing-media', `media file '${n.path}' is not in the package`, n.pathPos)
          }
        } else if (n.kind === 'tunnel') {
          if (n.part) {
            targets.push({ target: n.target, pos: n.targetPos, kind: 'tunnel' })
            const r = resolveTarget(file, n.target)
            tunnels.push({ part: r.part, id: r.id, line: n.pos.line })
          } else {
            this.target(file, n.target)
            tunnels.push({ part: file, id: n.target, line: n.pos.line })
          }
        } else if (n.kind === 'tunnel-return' || n.kind === 'thread') {
          if (n.target === undefined) return
          if ('part' in n && n.part) targets.push({ target: n.target, pos: n.targetPos!, kind: 'return' })
          else this.target(file, n.target)
        } else if (n.kind === 'gate') targets.push({ target: n.target, pos: n.targetPos, kind: 'gate' })
        else if (n.kind === 'paragraph')
          for (const line of n.lines)
            visitInline(line, (i) => {
              if (i.k === 'link') targets.push({ target: i.target, pos: i.targetPos, kind: 'link' })
            })
      },
      option: (o) => {
        reads(optionExprs(o))
        if (o.explicitId) ids.set(o.id, 'option')
        if (o.jump?.target) this.target(file, o.jump.target, `line ${o.jump.pos.line}`)
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
    cx.phase = PHASE.loops
    checkEndlessLoops(cx, file, ast.body)
    this.summaries.push({
      file,
      targets,
      dead,
      falls: collectFalls(ast.body),
      endsInJump: last?.kind === 'jump' || last?.kind === 'gate' || last?.kind === 'tunnel-return',
      // only a 1.1 part has tunnels; any part may be tunnelled into from one
      reachEnd: cx.v11 ? placesReachingEnd(ast.body) : undefined,
      tunnels,
    })
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
        const what = t.kind === 'read' ? 'count' : t.kind
        if (!dest) {
          cx.report(
            file,
            'story/unknown-part',
            cx.flat
              ? `a flat archive has one part, its entry; the ${what} '${t.target}' names another file`
              : `no part '${r.part}' in this package (${what} '${t.target}')`,
            t.pos,
          )
          continue
        }
        if (t.kind === 'read') {
          // a count reads any id, an option's too, and reaches nothing
          if (r.id !== undefined && !dest.has(r.id))
            cx.report(
              file,
              'story/unknown-id',
              `'${r.part}' has no heading, anchor, group or option '#${r.id}' to count`,
              idPos(t),
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
        else this.target(r.part, r.id, `a ${t.kind} in ${file}`)
      }
    }
    cx.phase = PHASE.fallThrough
    for (const { file, falls } of this.summaries)
      for (const f of falls) {
        const entry = this.firstEntry.get(`${file}\0${f.into.id}`)
        if (entry === undefined) continue
        cx.report(
          file,
          'story/fall-through',
          `the section ${f.from.name} (line ${f.from.line}) ends without a jump, so play falls through into ${f.into.name}, which ${entry} also enters; end ${f.from.name} with a jump or '-> END', or write '-> #${f.into.id}' right above this heading if falling through is meant`,
          f.into.pos,
        )
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
    cx.phase = PHASE.tunnelEnds
    this.checkTunnelEnds()
  }

  /** `story/tunnel-end`: once per tunnelled place that can run off its part without `->->`. */
  private checkTunnelEnds(): void {
    const byFile = new Map(this.summaries.map((s) => [s.file, s]))
    const warned = new Set<string>()
    for (const { file, tunnels } of this.summaries)
      for (const t of tunnels) {
        const pos = byFile.get(t.part)?.reachEnd?.get(t.id ?? '')
        const key = `${t.part}:${t.id ?? ''}`
        if (!pos || warned.has(key)) continue
        warned.add(key)
        const what = t.id === undefined ? 'this part, entered by a tunnel' : `'#${t.id}', entered by a tunnel`
        this.cx.report(
          t.part,
          'story/tunnel-end',
          `${what} (${file}:${t.line}), can reach the end of the part without '->->' (play then returns there); end each way out with '->->'`,
          pos,
        )
      }
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
    if (!prev || (prev.kind !== 'jump' && prev.kind !== 'gate' && prev.kind !== 'tunnel-return')) continue
    const id =
      n.kind === 'heading' || n.kind === 'anchor' || (n.kind === 'group' && n.explicitId) ? n.id : undefined
    const kind = prev.kind === 'tunnel-return' ? "'->->'" : prev.kind
    if (id !== undefined) out.push({ id, pos: n.pos, prev: { kind, line: prev.pos.line } })
  }
}

/**
 * Headings of the part's top level that the section above falls into (STORY-LANGUAGE.md §12.3):
 * the heading is a sibling of that section or higher (not its own subsection) and not silent, the
 * section is not `h0` and not empty, and its last line does not end the flow (see {@link endsFlow}). Whether the heading is
 * also a target is only known once every part is scanned.
 */
function collectFalls(body: Node[]): FallCandidate[] {
  const out: FallCandidate[] = []
  const open: Array<{ level: number; name: string; line: number }> = []
  for (let i = 0; i < body.length; i++) {
    const n = body[i]!
    if (n.kind !== 'heading') continue
    const section = open[open.length - 1]
    // a silent heading (`## [#loop]`) prints nothing: like an anchor, a place to come back to
    // (an empty section, a heading right above another, has no content that could end with a jump)
    const prev = body[i - 1]
    if (section && n.level <= section.level && !n.silent && prev?.kind !== 'heading' && !endsFlow(prev))
      out.push({ from: section, into: { id: n.id, name: headingName(n), pos: n.pos } })
    while (open.length && open[open.length - 1]!.level >= n.level) open.pop()
    open.push({ level: n.level, name: headingName(n), line: n.pos.line })
  }
  return out
}

/** `'Kitchen'` for a heading with text, `#id` for a silent one. */
function headingName(h: Extract<Node, { kind: 'heading' }>): string {
  const text = h.label
    .map((i) => (i.k === 'text' ? i.v : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
  return text ? `'${text.length > 40 ? `${text.slice(0, 39)}…` : text}'` : `#${h.id}`
}

/**
 * True when flow cannot go on past `n`: a jump or gate, a group each of whose options ends in one
 * (its line's jump or its body's last line), or an `{if}` with an `{else}` whose every branch does.
 */
function endsFlow(n: Node | undefined): boolean {
  if (!n) return false
  if (n.kind === 'jump' || n.kind === 'gate') return true
  const list = (nodes: Node[]) => endsFlow(nodes.filter((x) => x.kind !== 'tags').at(-1))
  if (n.kind === 'group') return n.options.every((o) => o.jump !== undefined || list(o.body))
  if (n.kind === 'if')
    return n.otherwise.length > 0 && list(n.otherwise) && n.branches.every((b) => list(b.body))
  return false
}

/** A place in a body: the node `i` of `list`, and where the flow goes when `list` ends. */
interface Place {
  list: Node[]
  i: number
  /** After the group or `{if}` holding `list`; undefined at the top level (the end of the part). */
  cont: Place | undefined
}

/** The places of the headings and anchors of `list` and everything nested in it. */
function indexPlaces(list: Node[], cont: Place | undefined, out: Map<string, Place>): void {
  for (let i = 0; i < list.length; i++) {
    const n = list[i]!
    if (n.kind === 'heading' || n.kind === 'anchor') out.set(n.id, { list, i, cont })
    else if (n.kind === 'group') for (const o of n.options) indexPlaces(o.body, { list, i: i + 1, cont }, out)
    else if (n.kind === 'if') {
      for (const b of n.branches) indexPlaces(b.body, { list, i: i + 1, cont }, out)
      indexPlaces(n.otherwise, { list, i: i + 1, cont }, out)
    }
  }
}

/** True when `n` can pause, leave or turn the flow: a jump, gate or group, or a link to tap. */
function turnsFlow(n: Node): boolean {
  if (n.kind === 'jump' || n.kind === 'gate' || n.kind === 'group') return true
  if (n.kind === 'paragraph') {
    let link = false
    for (const line of n.lines)
      visitInline(line, (i) => {
        if (i.k === 'link') link = true
      })
    return link
  }
  if (n.kind === 'if') return [...n.branches.map((b) => b.body), n.otherwise].some((l) => l.some(turnsFlow))
  return false
}

/**
 * Where the flow from `from` certainly jumps next, or undefined when it may pause, end, leave
 * the part or turn (a group, a link, a gate, `-> END`, the end of the part, an `{if}` that holds a
 * jump, gate, group or link).
 */
function nextJump(from: Place): JumpNode | undefined {
  let at: Place | undefined = from
  while (at) {
    const n: Node | undefined = at.list[at.i]
    if (n === undefined) {
      at = at.cont
      continue
    }
    if (n.kind === 'jump') return n.target === null ? undefined : n
    if (turnsFlow(n)) return undefined
    at = { list: at.list, i: at.i + 1, cont: at.cont }
  }
  return undefined
}

/**
 * `story/endless-loop`, statically: a cycle of jumps of one part that no pause, link, gate,
 * `-> END` or condition can leave (STORY-LANGUAGE.md has no loop limit; play stops one at run
 * time). Reported at the jump back to the cycle's first place in the file, naming the cycle.
 */
function checkEndlessLoops(cx: CheckContext, file: string, body: Node[]): void {
  const places = new Map<string, Place>()
  indexPlaces(body, undefined, places)
  const next = new Map<string, JumpNode | undefined>()
  const step = (id: string) => {
    if (!next.has(id)) {
      const place = places.get(id)
      next.set(id, place && nextJump(place))
    }
    return next.get(id)
  }
  const done = new Set<string>()
  const order = [...places.keys()]
  for (const start of order) {
    const path: string[] = []
    let id: string | undefined = start
    while (id !== undefined && !done.has(id) && !path.includes(id)) {
      path.push(id)
      id = step(id)?.target ?? undefined
    }
    if (id !== undefined && path.includes(id)) {
      const cycle = path.slice(path.indexOf(id))
      const first = [...cycle].sort((a, b) => order.indexOf(a) - order.indexOf(b))[0]!
      const k = cycle.indexOf(first)
      const named = [...cycle.slice(k), ...cycle.slice(0, k), first].map((c) => `#${c}`).join(' → ')
      const closing = step(cycle[(k + cycle.length - 1) % cycle.length]!)!
      cx.report(
        file,
        'story/endless-loop',
        `this jump closes a loop that never pauses: ${named} runs again and again with no choice, link or '-> END' on the way, and play stops it; add an option group or '-> END' to the loop, or put a jump inside an {if} that can leave it`,
        closing.pos,
      )
    }
    for (const p of path) done.add(p)
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
