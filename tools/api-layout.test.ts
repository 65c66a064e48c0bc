/**
 * The API's layout (apps/api/src), as Fastify apps are laid out: folders import each other in one
 * direction only (no folder imports a folder that imports it back, directly or through others;
 * a file at the root counts as a folder of its own, and so does each resource folder under
 * `routes/`), route folders import no other route folder (what they share lives in a file at the
 * root of `routes/` or in `plugins/`), `config.ts` is a leaf that alone reads `process.env`, and no
 * `index.ts` holds logic (a file is named after what it does).
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { importsOf, resolveRelative, sourceFiles } from './import-graph.ts'

const src = join(import.meta.dirname, '..', 'apps', 'api', 'src')
const files = sourceFiles(src).filter((f) => /\.(ts|mts)$/.test(f) && !f.endsWith('.d.ts'))

/**
 * The node a file belongs to: its top folder under src/, or the file itself at the root; under `routes/`, the
 * resource folder (`routes/files/`), or `routes/` for a file at its root.
 */
function nodeOf(file: string, root: string): string {
  const parts = relative(root, file).split('/')
  if (parts.length === 1) return parts[0] as string
  if (parts[0] === 'routes' && parts.length > 2) return `routes/${parts[1]}/`
  return `${parts[0]}/`
}

/** The edges from one resource folder of `routes/` to another. */
const crossRouteEdges = (edges: ReadonlyMap<string, Set<string>>): string[] =>
  [...edges].flatMap(([from, tos]) =>
    from.startsWith('routes/') && from !== 'routes/'
      ? [...tos].filter((to) => to.startsWith('routes/') && to !== 'routes/').map((to) => `${from} -> ${to}`)
      : [],
  )

/** The folder-level edges of `files` (every static import, types included). */
function folderEdges(sources: ReadonlyMap<string, string>, root: string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>()
  for (const [file, code] of sources) {
    const from = nodeOf(file, root)
    for (const { specifier, dynamic } of importsOf(code, file)) {
      if (dynamic || !specifier.startsWith('.')) continue
      const target = resolveRelative(file, specifier, (p) => sources.has(p) || existsSync(p))
      if (!target?.startsWith(root)) continue
      const to = nodeOf(target, root)
      if (to === from) continue
      if (!edges.has(from)) edges.set(from, new Set())
      edges.get(from)!.add(to)
    }
  }
  return edges
}

/** Every cycle between nodes, each once, as the path that closes it. */
function folderCycles(edges: ReadonlyMap<string, Set<string>>): string[][] {
  const cycles: string[][] = []
  const seen = new Set<string>()
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])])].sort()
  const walk = (start: string, at: string, path: string[]) => {
    for (const next of [...(edges.get(at) ?? [])].sort()) {
      if (next === start) {
        const key = [...path].sort().join(' ')
        if (!seen.has(key)) {
          seen.add(key)
          cycles.push([...path, start])
        }
      } else if (!path.includes(next) && next > start) walk(start, next, [...path, next])
    }
  }
  for (const n of nodes) walk(n, n, [n])
  return cycles
}

/** True when the code (not a comment) names `process.env`. */
function readsProcessEnv(code: string, fileName = 'file.ts'): boolean {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  let found = false
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'process' &&
      node.name.text === 'env'
    )
      found = true
    if (!found) ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('apps/api/src', () => {
  const sources = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]))

  it('has folders that never import a folder that imports them back', () => {
    expect(folderCycles(folderEdges(sources, src))).toEqual([])
  })

  it('finds a back-import when there is one (the check can fail)', () => {
    const a = join(src, 'a', 'x.ts')
    const b = join(src, 'b', 'y.ts')
    const fake = new Map([
      [a, "import { y } from '../b/y'\n"],
      [b, "import type { x } from '../a/x'\n"],
    ])
    expect(folderCycles(folderEdges(fake, src))).toEqual([['a/', 'b/', 'a/']])
  })

  it('has route folders that import no other route folder', () => {
    const edges = folderEdges(sources, src)
    expect(crossRouteEdges(edges)).toEqual([])
    // The resource folders are nodes of their own (the rule above is not vacuous).
    expect(edges.get('routes/versions/')?.has('publishing/')).toBe(true)
  })

  it('counts each routes/ folder as a node, and finds a route folder importing another', () => {
    const fake = new Map([
      [
        join(src, 'routes', 'a', 'a-routes.ts'),
        "import { b } from '../b/b-routes'\nimport { s } from '../shared'\n",
      ],
      [join(src, 'routes', 'b', 'b-routes.ts'), "import { a } from '../a/a-routes'\n"],
      [join(src, 'routes', 'shared.ts'), 'export const s = 1\n'],
    ])
    const edges = folderEdges(fake, src)
    expect(crossRouteEdges(edges)).toEqual(['routes/a/ -> routes/b/', 'routes/b/ -> routes/a/'])
    expect(folderCycles(edges)).toEqual([['routes/a/', 'routes/b/', 'routes/a/']])
  })

  it('reads process.env only in config.ts, which imports nothing of the app', () => {
    const readers = files.filter((f) => readsProcessEnv(readFileSync(f, 'utf8'), f))
    expect(readers.map((f) => relative(src, f))).toEqual(['config.ts'])
    const config = join(src, 'config.ts')
    const local = importsOf(readFileSync(config, 'utf8'), config).filter(
      (i) => i.specifier.startsWith('.') && !i.typeOnly,
    )
    expect(local.map((i) => i.specifier)).toEqual([])
  })

  it('sees process.env in code and not in comments', () => {
    expect(readsProcessEnv(`const a = \`$\{x}\`; loadConfig(process.env)`)).toBe(true)
    expect(readsProcessEnv('// process.env\n/** process.env */ const a = 1')).toBe(false)
  })

  it('names files after what they do: no index.ts', () => {
    expect(files.filter((f) => f.endsWith('/index.ts')).map((f) => relative(dirname(src), f))).toEqual([])
  })
})
