/**
 * The API's layout (apps/api/src), as Fastify apps are laid out: folders import each other in one
 * direction only (no folder imports a folder that imports it back, directly or through others;
 * a file at the root counts as a folder of its own, and so does each resource folder under
 * `routes/`), route folders import no other route folder (what they share lives in a file at the
 * root of `routes/` or in `plugins/`), `config.ts` is a leaf that alone reads `process.env`, and no
 * `index.ts` holds logic (a file is named after what it does).
 */
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { graphCycles, groupEdges, importEdges, importsOf, sourceFiles } from './import-graph.ts'

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

/** The folder-level edges of `sources` (every static import, types included). */
const folderEdges = (sources: ReadonlyMap<string, string>, root: string) =>
  groupEdges(importEdges(sources, { types: true }), (file) =>
    file.startsWith(root) ? nodeOf(file, root) : undefined,
  )

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
    expect(graphCycles(folderEdges(sources, src))).toEqual([])
  })

  it('finds a back-import when there is one (the check can fail)', () => {
    const a = join(src, 'a', 'x.ts')
    const b = join(src, 'b', 'y.ts')
    const fake = new Map([
      [a, "import { y } from '../b/y'\n"],
      [b, "import type { x } from '../a/x'\n"],
    ])
    expect(graphCycles(folderEdges(fake, src))).toEqual([['a/', 'b/']])
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
    expect(graphCycles(edges)).toEqual([['routes/a/', 'routes/b/']])
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
