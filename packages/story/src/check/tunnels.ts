/**
 * `story/tunnel-end` (1.1): which places of a part can run off the end of the part without `->->`.
 * A flow graph over the part's top-level lines: a line goes on to the next unless it jumps, gates,
 * returns or ends; jumps (also inside `{if}` branches and option bodies) lead to the top-level line
 * their id names. Linear in the size of the part. Internal.
 */
import type { Node, Pos } from '../ast.ts'

/** What one line (with what it nests) does to the flow: whether it goes on, and where it jumps. */
interface Effect {
  falls: boolean
  jumps: string[]
}

function effect(n: Node, jumps: string[]): boolean {
  switch (n.kind) {
    case 'jump':
      if (n.target !== null) jumps.push(n.target)
      return false
    case 'gate':
    case 'tunnel-return':
      return false
    case 'if': {
      let falls = n.otherwise.length === 0 || seq(n.otherwise, jumps)
      for (const b of n.branches) if (seq(b.body, jumps)) falls = true
      return falls
    }
    case 'group': {
      // every option may be unavailable (once-only taken, guards false): flow goes on after the group
      let falls = !n.options.some((o) => (o.sticky || o.fallback) && !o.guard)
      for (const o of n.options) {
        const body = seq(o.body, jumps)
        if (o.jump) {
          if (body && o.jump.target !== null) jumps.push(o.jump.target)
        } else if (body) falls = true
      }
      return falls
    }
    default:
      return true
  }
}

/** Whether flow can run through `list` to its end; collects the jumps on the way. */
function seq(list: readonly Node[], jumps: string[]): boolean {
  for (const n of list) if (!effect(n, jumps)) return false
  return true
}

/**
 * The ids of top-level headings, anchors and named groups from which flow can reach the end of the
 * part without `->->`, with their positions; `''` stands for the part's first line.
 */
export function placesReachingEnd(body: readonly Node[]): Map<string, Pos> {
  const n = body.length
  const at = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    const b = body[i]!
    if (b.kind === 'heading' || b.kind === 'anchor' || (b.kind === 'group' && b.explicitId)) at.set(b.id, i)
  }
  // reverse edges: who leads to line j (n: the end of the part)
  const into: number[][] = Array.from({ length: n + 1 }, () => [])
  const effects: Effect[] = body.map((b) => {
    const jumps: string[] = []
    return { falls: effect(b, jumps), jumps }
  })
  effects.forEach((e, i) => {
    if (e.falls) into[i + 1]!.push(i)
    for (const id of e.jumps) {
      const j = at.get(id)
      if (j !== undefined) into[j]!.push(i)
    }
  })
  const reaches = new Uint8Array(n + 1)
  reaches[n] = 1
  const todo = [n]
  while (todo.length) {
    const j = todo.pop()!
    for (const i of into[j]!)
      if (!reaches[i]) {
        reaches[i] = 1
        todo.push(i)
      }
  }
  const out = new Map<string, Pos>()
  if (reaches[0]) out.set('', { line: 1, column: 1 })
  for (const [id, i] of at) if (reaches[i]) out.set(id, body[i]!.pos)
  return out
}
