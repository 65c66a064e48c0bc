/**
 * Import graph of the repository's TypeScript, the one walker for every import check
 * (`tools/dependency-graph.test.ts`, `tools/api-layout.test.ts`, `packages/story/test/import-graph.test.ts`): which
 * modules each file imports, whether an import is only for types, the import cycles between the files of one
 * package, and the cycles between groups of files (the API's folders).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

export interface ImportRef {
  /** The specifier as written: `@spkg/manifest`, `./check-story.ts`, `node:fs`. */
  readonly specifier: string
  /** `import type`, `export type`, or every named specifier marked `type`: erased at run time. */
  readonly typeOnly: boolean
  /** `import('...')`: loaded when called, so never part of a load-time cycle. */
  readonly dynamic: boolean
}

/** Every import of a TypeScript source text, read with the TypeScript parser. */
export function importsOf(code: string, fileName = 'file.ts'): ImportRef[] {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const out: ImportRef[] = []
  const add = (node: ts.Expression | undefined, typeOnly: boolean, dynamic: boolean) => {
    if (node && ts.isStringLiteralLike(node)) out.push({ specifier: node.text, typeOnly, dynamic })
  }
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause
      // `import type X`, `import type { A }`, and `import { type A, type B }` (every name a type)
      // count as type-only: bundlers (esbuild, tsup, Vite) drop the last one. tsc under
      // verbatimModuleSyntax would keep it as `import {} from`; write `import type` to be sure.
      const named = clause?.namedBindings
      const allNamedTypes =
        clause !== undefined &&
        clause.name === undefined &&
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly)
      add(node.moduleSpecifier, clause?.isTypeOnly === true || allNamedTypes, false)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause
      const allNamedTypes =
        clause !== undefined &&
        ts.isNamedExports(clause) &&
        clause.elements.length > 0 &&
        clause.elements.every((e) => e.isTypeOnly)
      add(node.moduleSpecifier, node.isTypeOnly || allNamedTypes, false)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly, false)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false, true)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal as ts.Expression, true, false)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

/** The package name a bare specifier names: `@spkg/state/drivers/fs` -> `@spkg/state`, `zod/mini` -> `zod`. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
    return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** The file a relative specifier names, as TypeScript with `allowImportingTsExtensions` resolves it. */
export function resolveRelative(
  from: string,
  specifier: string,
  exists: (p: string) => boolean,
): string | undefined {
  const base = resolve(dirname(from), specifier)
  const stem = base.replace(/\.(js|mjs|cjs)$/, '')
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts')]
  return candidates.find((c) => /\.(ts|tsx|mts)$/.test(c) && exists(c))
}

/**
 * The relative imports of each of `files` (path -> source text), as the files they name, sorted.
 * Only those that load code at run time, unless `types` is set: then type-only imports count too.
 * Dynamic `import()` never counts.
 */
export function importEdges(
  files: ReadonlyMap<string, string>,
  { types = false }: { readonly types?: boolean } = {},
): Map<string, string[]> {
  const edges = new Map<string, string[]>()
  for (const [file, code] of files) {
    const targets = importsOf(code)
      .filter((i) => (types || !i.typeOnly) && !i.dynamic && i.specifier.startsWith('.'))
      .map((i) => resolveRelative(file, i.specifier, (p) => files.has(p)))
      .filter((t): t is string => t !== undefined)
    edges.set(file, [...new Set(targets)].sort())
  }
  return edges
}

/**
 * The cycles of a directed graph (node -> the nodes it points at), the one cycle finder of the import checks. Each
 * cycle is listed once, as its nodes in edge order, starting from its smallest node; a graph with a cycle gives at
 * least one (every strongly connected part with a cycle shows one), so an empty list means none.
 */
export function graphCycles(edges: ReadonlyMap<string, Iterable<string>>): string[][] {
  const cycles = new Map<string, string[]>()
  const state = new Map<string, 'active' | 'done'>()
  const stack: string[] = []
  const visit = (node: string) => {
    state.set(node, 'active')
    stack.push(node)
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (state.get(next) === 'active') {
        const cycle = stack.slice(stack.indexOf(next))
        const start = cycle.indexOf([...cycle].sort()[0] as string)
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)]
        cycles.set(rotated.join(' -> '), rotated)
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node)
  return [...cycles.values()]
}

/**
 * The import cycles among `files`: runtime imports only, or with `types` type-only imports too (see
 * {@link importEdges}). Each cycle is listed once, as the files in import order, starting from its
 * smallest path.
 */
export function importCycles(
  files: ReadonlyMap<string, string>,
  options: { readonly types?: boolean } = {},
): string[][] {
  return graphCycles(importEdges(files, options))
}

/**
 * The edges between groups of files (a folder, say), from file edges such as {@link importEdges} gives: `groupOf`
 * names the group of a file, or `undefined` to leave the file out. Edges inside one group are dropped.
 */
export function groupEdges(
  fileEdges: ReadonlyMap<string, readonly string[]>,
  groupOf: (file: string) => string | undefined,
): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>()
  for (const [file, targets] of fileEdges) {
    const from = groupOf(file)
    if (from === undefined) continue
    for (const target of targets) {
      const to = groupOf(target)
      if (to === undefined || to === from) continue
      if (!edges.has(from)) edges.set(from, new Set())
      edges.get(from)?.add(to)
    }
  }
  return edges
}

/** Runtime import cycles among `files` (type-only and dynamic imports do not count). */
export const runtimeCycles = (files: ReadonlyMap<string, string>): string[][] => importCycles(files)

/** Every .ts/.tsx/.mts file under `dir`, skipping node_modules, dist and the folders in `skip`. */
export function sourceFiles(dir: string, skip: readonly string[] = [], out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || skip.includes(name)) continue
    const p = join(dir, name)
    if (statSync(p).isDirectory()) sourceFiles(p, skip, out)
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

export const readAll = (files: readonly string[]) => new Map(files.map((f) => [f, readFileSync(f, 'utf8')]))

/** Tests and test-only code: `*.test.ts` files, and anything in a `test/` folder of the package. */
export const isTestFile = (file: string, packageDir: string) =>
  /\.test\.tsx?$/.test(file) || relative(packageDir, file).split('/').includes('test')
