/**
 * The graph `spkg map` draws, as data (tested on its own, then rendered by `map-render.ts`):
 * parts, scenes (headings) and choice groups are nodes; the flow between them, gates, jumps,
 * links and options are edges; each `-> END` (and the end of the last part) leads to the part's
 * END node. Built from the parsed parts only, never by running the story; `--random-walk` counts
 * are added afterwards by {@link addReach}.
 */
import type { ReadingState } from '@spkg/manifest'
import {
  type Inline,
  type JumpNode,
  type Node,
  type PartAst,
  resolveTarget,
  type StoryRun,
} from '@spkg/story'

/** What a node of the map stands for. */
export type MapNodeKind = 'part' | 'scene' | 'group' | 'end' | 'missing'

/** What an edge of the map stands for. */
export type MapEdgeKind = 'flow' | 'option' | 'jump' | 'gate' | 'link' | 'tunnel' | 'thread'

/** A node: `id` is unique in the map (`P:story/0001-inn.sty`, `S:…:bar`, `G:…:bar@1`, `E:…`). */
export interface MapNode {
  id: string
  kind: MapNodeKind
  /** The part (archive path) it belongs to: the cluster it is drawn in. */
  part: string
  label: string
  /** The state key that records a visit: visit count, choice group key or part path. */
  stateKey?: string
  /** Walks that reached it (only after {@link addReach}). */
  reached?: number
}

/** An edge between two node ids. */
export interface MapEdge {
  from: string
  to: string
  kind: MapEdgeKind
  /** The option label (option edges), or the link text. */
  label?: string
  /** Option edges: the decision key and option id (`chosen` events). */
  choice?: { key: string; option: string }
  /** Walks that took it (only after {@link addReach}). */
  reached?: number
}

/** The map of a story. */
export interface StoryMap {
  /** Parts in reading order (manifest `parts`). */
  parts: string[]
  nodes: MapNode[]
  edges: MapEdge[]
  /** Number of random walks behind the `reached` counts (absent without `--random-walk`). */
  walks?: number
}

function inlineText(inlines: readonly Inline[]): string {
  let out = ''
  for (const i of inlines) {
    if (i.k === 'text') out += i.v
    else if (i.k === 'interp' || i.k === 'if') out += '…'
    else if (i.k === 'link') out += inlineText(i.body)
    else if (i.k === 'break') out += ' '
  }
  return out.replace(/\s+/g, ' ').trim()
}

const short = (s: string) => (s.length > 40 ? `${s.slice(0, 39)}…` : s)

/** A predecessor waiting for the next place the flow arrives at. */
interface Pending {
  from: string
  kind: MapEdgeKind
  label?: string
  choice?: { key: string; option: string }
}

/** Ids of one part: what `-> #id` and `part.sty:id` name, mapped to map node ids. */
function collectIds(ast: PartAst, file: string, ids: Map<string, string>): void {
  let section = `P:${file}`
  const visit = (nodes: readonly Node[]) => {
    for (const n of nodes) {
      if (n.kind === 'heading') {
        section = `S:${file}:${n.id}`
        ids.set(n.id, section)
      } else if (n.kind === 'anchor') {
        if (!ids.has(n.id)) ids.set(n.id, section)
      } else if (n.kind === 'group') {
        const g = `G:${file}:${n.id}`
        ids.set(n.id, g)
        for (const o of n.options) {
          if (o.explicitId && !ids.has(o.id)) ids.set(o.id, g)
          visit(o.body)
        }
      } else if (n.kind === 'if') {
        for (const b of n.branches) visit(b.body)
        visit(n.otherwise)
      } else if (n.kind === 'alt') for (const b of n.branches) visit(b)
    }
  }
  visit(ast.body)
}

/**
 * Builds the map of a story from its parsed parts, in reading order (`parts`, the manifest's
 * order: the end of one part enters the next).
 *
 * @example
 * const map = buildStoryMap([parseStory(text, { path: 'story/0001-inn.sty' }).ast])
 */
export function buildStoryMap(asts: readonly PartAst[]): StoryMap {
  const nodes = new Map<string, MapNode>()
  const edges = new Map<string, MapEdge>()
  const parts = asts.map((a) => a.file)
  const idsByPart = new Map<string, Map<string, string>>()
  for (const ast of asts) {
    const ids = new Map<string, string>()
    collectIds(ast, ast.file, ids)
    idsByPart.set(ast.file, ids)
    nodes.set(`P:${ast.file}`, {
      id: `P:${ast.file}`,
      kind: 'part',
      part: ast.file,
      label: ast.file.replace(/^.*\//, ''),
      stateKey: ast.file,
    })
  }
  const addNode = (n: MapNode) => {
    if (!nodes.has(n.id)) nodes.set(n.id, n)
  }
  const addEdge = (e: MapEdge) => {
    const k = `${e.from}\u0000${e.to}\u0000${e.kind}\u0000${e.choice?.option ?? e.label ?? ''}`
    if (!edges.has(k)) edges.set(k, e)
  }
  const endNode = (file: string) => {
    const id = `E:${file}`
    addNode({ id, kind: 'end', part: file, label: 'END' })
    return id
  }
  /** The node a gate or link target names (a part, or the id in it); `missing` when unknown. */
  const targetNode = (from: string, target: string): string => {
    const r = resolveTarget(from, target)
    const ids = idsByPart.get(r.part)
    const found = ids && (r.id === undefined ? `P:${r.part}` : ids.get(r.id))
    if (found) return found
    const id = `X:${target}`
    addNode({ id, kind: 'missing', part: from, label: `${target} (missing)` })
    return id
  }

  for (const [index, ast] of asts.entries()) {
    const file = ast.file
    const ids = idsByPart.get(file)!
    let section = `P:${file}`
    let groupsInSection = 0
    /** A link rendered unconditionally since the last choice group: the end of the file pauses there. */
    let liveLinks = false
    const arrive = (pending: readonly Pending[], to: string) => {
      for (const p of pending)
        addEdge({
          from: p.from,
          to,
          kind: p.kind,
          ...(p.label ? { label: p.label } : {}),
          ...(p.choice ? { choice: p.choice } : {}),
        })
    }
    /** A jump from `pending`: to its id, or to the part's END; `-> DONE` (1.1) pauses on what threads gathered, no edge. */
    const jump = (pending: readonly Pending[], j: JumpNode) => {
      if (j.done) return
      const to =
        j.target === null ? endNode(file) : (ids.get(j.target) ?? targetNode(file, `${file}:${j.target}`))
      for (const p of pending) arrive([{ ...p, kind: p.kind === 'flow' ? 'jump' : p.kind }], to)
    }
    const links = (inlines: readonly Inline[], live = false) => {
      for (const i of inlines) {
        if (i.k === 'link') {
          if (live) liveLinks = true
          const label = short(inlineText(i.body))
          addEdge({
            from: section,
            to: targetNode(file, i.target),
            kind: 'link',
            ...(label ? { label } : {}),
          })
          links(i.body)
        } else if (i.k === 'if') {
          for (const b of i.branches) links(b.body)
          links(i.otherwise)
        } else if (i.k === 'alt') for (const item of i.items) links(item)
      }
    }
    /** Walks `body` from the predecessors `pending`; returns the predecessors after it. */
    let depth = 0
    const walk = (body: readonly Node[], pending: Pending[]): Pending[] => {
      let cur = pending
      for (const n of body) {
        switch (n.kind) {
          case 'heading': {
            section = `S:${file}:${n.id}`
            groupsInSection = 0
            const label = inlineText(n.label)
            addNode({
              id: section,
              kind: 'scene',
              part: file,
              label: short(label ? `${label} #${n.id}` : `#${n.id}`),
              stateKey: `${file}:${n.id}@visits`,
            })
            links(n.label)
            arrive(cur, section)
            cur = [{ from: section, kind: 'flow' }]
            break
          }
          case 'paragraph':
            for (const line of n.lines) links(line, depth === 0)
            break
          case 'jump':
            jump(cur, n)
            cur = []
            break
          case 'gate':
            for (const p of cur)
              arrive([{ ...p, kind: p.kind === 'flow' ? 'gate' : p.kind }], targetNode(file, n.target))
            cur = []
            break
          case 'tunnel':
          case 'thread': {
            // 1.1: a call (or a thread) from the section; the flow goes on after the line
            const part = n.kind === 'tunnel' && n.part
            const to = part
              ? targetNode(file, n.target)
              : (ids.get(n.target) ?? targetNode(file, `${file}:${n.target}`))
            addEdge({ from: section, to, kind: n.kind })
            break
          }
          case 'tunnel-return': {
            // back to the caller (not drawn); `->-> #id` and `->-> part.sty:id` go on as a jump or a gate
            if (n.target !== undefined) {
              const to = n.part
                ? targetNode(file, n.target)
                : (ids.get(n.target) ?? targetNode(file, `${file}:${n.target}`))
              const kind = n.part ? 'gate' : 'jump'
              for (const p of cur) arrive([{ ...p, kind: p.kind === 'flow' ? kind : p.kind }], to)
            }
            cur = []
            break
          }
          case 'group': {
            groupsInSection++
            const g = `G:${file}:${n.id}`
            addNode({
              id: g,
              kind: 'group',
              part: file,
              label: n.explicitId ? `#${n.id}` : `choice ${groupsInSection}`,
              stateKey: `${file}:${n.id}`,
            })
            arrive(cur, g)
            liveLinks = false
            depth++
            const after: Pending[] = []
            const outer = section
            for (const o of n.options) {
              links(o.label)
              const label = short(inlineText(o.label)) || `(fallback ${o.id})`
              const start: Pending = {
                from: g,
                kind: 'option',
                label,
                choice: { key: `${file}:${n.id}`, option: o.id },
              }
              let out = walk(o.body, [start])
              section = outer
              if (o.jump) {
                jump(out, o.jump)
                out = []
              }
              after.push(...out)
            }
            depth--
            cur = after
            break
          }
          case 'if': {
            const out: Pending[] = []
            depth++
            for (const b of n.branches) out.push(...walk(b.body, cur))
            out.push(...walk(n.otherwise, cur))
            depth--
            cur = dedupe(out)
            break
          }
          case 'alt': {
            // 1.1: one branch each time; a once-only block past its last branch shows none
            const out: Pending[] = n.mode === 'once' ? [...cur] : []
            depth++
            for (const b of n.branches) out.push(...walk(b, cur))
            depth--
            cur = dedupe(out)
            break
          }
          default:
            break
        }
      }
      return cur
    }
    const left = walk(ast.body, [{ from: `P:${file}`, kind: 'flow' }])
    // The end of the file: a pause when links are live (their edges are drawn), else the next
    // part in reading order, or the end of the story.
    const next = asts[index + 1]
    if (!liveLinks) arrive(left, next ? `P:${next.file}` : endNode(file))
  }
  return { parts, nodes: [...nodes.values()], edges: [...edges.values()] }
}

function dedupe(pending: Pending[]): Pending[] {
  const seen = new Set<string>()
  return pending.filter((p) => {
    const k = `${p.from}\u0000${p.kind}\u0000${p.choice?.option ?? ''}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/**
 * Plays `walks` seeded random walks (walk `i` with story seed `seed + i`, answers picked by a
 * seeded generator) and sets `reached` on every node and edge: nodes from the reading state at
 * the end of each walk (visit counts, choice groups, parts, the END of the part it ended in);
 * option edges from the `chosen` events; other edges count walks that reached both their ends.
 */
export async function addReach(
  map: StoryMap,
  walks: number,
  seed: number,
  start: (seed: number) => StoryRun | Promise<StoryRun>,
  maxChoices = 1000,
): Promise<StoryMap> {
  const nodeCount = new Map<string, number>()
  const edgeCount = new Map<MapEdge, number>()
  const byKey = new Map<string, MapNode[]>()
  for (const n of map.nodes) if (n.stateKey) byKey.set(n.stateKey, [...(byKey.get(n.stateKey) ?? []), n])
  const optionEdges = new Map<string, MapEdge[]>()
  for (const e of map.edges)
    if (e.choice) {
      const k = `${e.choice.key}\u0000${e.choice.option}`
      optionEdges.set(k, [...(optionEdges.get(k) ?? []), e])
    }
  let x = (seed ^ 0x9e3779b9) >>> 0
  const rand = () => {
    x = (x + 0x6d2b79f5) >>> 0
    let t = x
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  for (let w = 0; w < walks; w++) {
    const run = await start((seed + w) >>> 0)
    const hit = new Set<string>()
    const took = new Set<MapEdge>()
    let part = ''
    let choices = 0
    let ended = false
    for (let events = 0; events < 100_000; events++) {
      const ev = await run.next()
      if (ev === undefined || ev.type === 'end') {
        ended = true
        break
      }
      if (ev.type === 'part-entered') part = ev.part
      else if (ev.type === 'chosen')
        for (const e of optionEdges.get(`${ev.key}\u0000${ev.option}`) ?? []) took.add(e)
      else if (ev.type === 'pause') {
        const all = [
          ...ev.options.map((o) => ({ option: o.id })),
          ...ev.links.map((l) => ({ link: l.target })),
        ]
        if (all.length === 0 || choices++ >= maxChoices) break
        run.choose(all[Math.floor(rand() * all.length)]!)
      }
    }
    const state: ReadingState = run.saveState()
    const keys = new Set<string>([...state.visitedParts, ...state.visitedChoiceGroups])
    if (state.currentPart) keys.add(state.currentPart)
    for (const [k, v] of Object.entries(state.variables))
      if (k.endsWith('@visits') && Number(v) > 0) keys.add(k)
    for (const k of keys) for (const n of byKey.get(k) ?? []) hit.add(n.id)
    if (ended && part) hit.add(`E:${part}`)
    for (const id of hit) nodeCount.set(id, (nodeCount.get(id) ?? 0) + 1)
    for (const e of map.edges)
      if (e.choice ? took.has(e) : hit.has(e.from) && hit.has(e.to))
        edgeCount.set(e, (edgeCount.get(e) ?? 0) + 1)
  }
  return {
    ...map,
    walks,
    nodes: map.nodes.map((n) => ({ ...n, reached: nodeCount.get(n.id) ?? 0 })),
    edges: map.edges.map((e) => ({ ...e, reached: edgeCount.get(e) ?? 0 })),
  }
}
