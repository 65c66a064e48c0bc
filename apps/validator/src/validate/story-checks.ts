/**
 * The story language's static checks on a whole package: every part and module parsed with
 * `@spkg/story` (syntax, ids, jumps, reachability), then what only the package can tell: a gate or
 * link to a part that does not exist (`story/unknown-part`) or to a missing id in an existing part
 * (`story/unknown-id`), and a media block whose file is not in the archive (`story/missing-media`).
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { type Inline, type Node, type PartAst, type Pos, parseModule, parseStory } from '@spkg/story'

/** A reference found in a story file, to be resolved against the package. */
interface Ref {
  kind: 'target' | 'media'
  value: string
  pos: Pos
}

function inlineRefs(inl: readonly Inline[], out: Ref[]): void {
  for (const i of inl) {
    if (i.k === 'link') {
      out.push({ kind: 'target', value: i.target, pos: i.pos })
      inlineRefs(i.body, out)
    } else if (i.k === 'if') {
      for (const b of i.branches) inlineRefs(b.body, out)
      inlineRefs(i.otherwise, out)
    }
  }
}

function nodeRefs(nodes: readonly Node[], out: Ref[]): void {
  for (const n of nodes) {
    switch (n.kind) {
      case 'gate':
        out.push({ kind: 'target', value: n.target, pos: n.pos })
        break
      case 'media':
        out.push({ kind: 'media', value: n.path, pos: n.pos })
        break
      case 'paragraph':
        for (const line of n.lines) inlineRefs(line, out)
        break
      case 'heading':
        inlineRefs(n.label, out)
        break
      case 'group':
        for (const o of n.options) {
          inlineRefs(o.label, out)
          nodeRefs(o.body, out)
        }
        break
      case 'if':
        for (const b of n.branches) nodeRefs(b.body, out)
        nodeRefs(n.otherwise, out)
        break
      default:
        break
    }
  }
}

/** Every id a target may name in a part: headings (explicit or `h<n>`), anchors and groups. */
function idsOf(ast: PartAst): Set<string> {
  const ids = new Set<string>()
  const walk = (nodes: readonly Node[]) => {
    for (const n of nodes) {
      if (n.kind === 'heading' || n.kind === 'anchor' || n.kind === 'group') ids.add(n.id)
      if (n.kind === 'group') for (const o of n.options) walk(o.body)
      if (n.kind === 'if') {
        for (const b of n.branches) walk(b.body)
        walk(n.otherwise)
      }
    }
  }
  walk(ast.body)
  return ids
}

/** `path[:id]` resolved from `from`: a path without `/` is relative to the current part's folder. */
function resolveTarget(target: string, from: string): { path: string; id?: string } {
  const colon = target.indexOf(':')
  const raw = colon < 0 ? target : target.slice(0, colon)
  const id = colon < 0 ? undefined : target.slice(colon + 1)
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : ''
  const path = raw.includes('/') ? raw : dir + raw
  return id ? { path, id } : { path }
}

/**
 * Runs the static checks on the package's story files.
 *
 * @param parts part path → text (`.sty`)
 * @param modules module path → text (`.xty`)
 * @param has whether the archive has a file
 * @example
 * storyChecks(new Map([['story/a.sty', '[[ b.sty ]]']]), new Map(), () => false)
 * // [{ code: 'story/unknown-part', path: 'story/a.sty', line: 1, ... }]
 */
export function storyChecks(
  parts: ReadonlyMap<string, string>,
  modules: ReadonlyMap<string, string>,
  has: (path: string) => boolean,
): Diagnostic[] {
  const out: Diagnostic[] = []
  // Only the ids of each part are kept, not its tree: trees of a 50 MB story would not fit twice.
  const partIds = new Map<string, Set<string>>()
  const refs: [string, Ref[]][] = []
  for (const [path, text] of parts) {
    const { ast, diagnostics } = parseStory(text, { path })
    out.push(...diagnostics)
    partIds.set(path, idsOf(ast))
    const found: Ref[] = []
    nodeRefs(ast.body, found)
    refs.push([path, found])
  }
  for (const [path, text] of modules) {
    const { ast, diagnostics } = parseModule(text, { path })
    out.push(...diagnostics)
    const found: Ref[] = []
    for (const p of ast.passages) nodeRefs(p.body, found)
    refs.push([path, found])
  }
  for (const [from, found] of refs) {
    for (const ref of found) {
      const at = { path: from, line: ref.pos.line, column: ref.pos.column }
      if (ref.kind === 'media') {
        if (!/^[a-z][a-z0-9+.-]*:|^\/|(^|\/)\.\.(\/|$)/i.test(ref.value) && !has(ref.value))
          out.push(createDiagnostic('story/missing-media', `media '${ref.value}' is not in the archive`, at))
        continue
      }
      if (ref.value.startsWith('#') || !/\.sty(:|$)/.test(ref.value)) continue
      const target = resolveTarget(ref.value, from)
      if (!has(target.path)) {
        out.push(
          createDiagnostic(
            'story/unknown-part',
            `'${ref.value}' leads to ${target.path}, which is not in the archive`,
            at,
          ),
        )
        continue
      }
      if (target.id === undefined) continue
      const ids = partIds.get(target.path)
      if (!ids) continue
      if (!ids.has(target.id))
        out.push(
          createDiagnostic(
            'story/unknown-id',
            `'${ref.value}': ${target.path} has no heading, anchor or group with id '${target.id}'`,
            at,
          ),
        )
    }
  }
  return out
}
