/**
 * Engine-shaped trick, fenced here. Target: the cold open of 500 small entries in Chromium no
 * slower than `unzip` + `sha256sum -c` (issue 14). Measured gain: that open took 0.87-0.91 times as
 * long with it (three passes of 40 alternating rounds, 2-core EPYC, Chromium 156), for 1-7 ms more
 * at the script's load; details in bench/reader-browser/RESULTS.md, session 14.
 *
 * V8 compiles a function lazily, on the main thread, at its first call, unless the function is a
 * "PIFE" (a function expression in parentheses, `(function f() {...})`), which it compiles with the
 * script, on the thread that streams it. A cold open runs about 120 functions of the reader, the
 * manifest and integrity packages for the first time, and their lazy compilation was about 3 ms of
 * the main thread. This transform rewrites top-level function declarations as parenthesised
 * function expressions bound to a `const` of the same name:
 *
 *   export function f(a: A): B { ... }  ->  export const f = (function (a: A): B { ... })
 *
 * Bundlers keep those parentheses (esbuild and Rolldown do, for this very reason). Only what a
 * declaration and the `const` disagree on is refused: a function with overloads, a default export,
 * a generator, a function that the file's top-level code uses before its declaration (a `const`
 * is not hoisted; a use inside a function body runs later and is fine), and a function marked
 * `@__NO_SIDE_EFFECTS__` (bundlers read that mark on declarations; such a function is called as
 * the script loads anyway).
 */
import { readFile } from 'node:fs/promises'
import ts from 'typescript'

/** What {@link eagerFunctions} did to one file. */
export interface EagerResult {
  code: string
  /** The names rewritten. */
  rewritten: string[]
}

/** Whether `node` is a function whose body runs later than the code around it. */
function deferred(node: ts.Node): boolean {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node)
  )
}

/** The identifiers `node` reads while it runs (not inside the functions it defines). */
function eagerNames(node: ts.Node, out: Set<string>): void {
  if (ts.isIdentifier(node)) out.add(node.text)
  ts.forEachChild(node, (child) => {
    if (!deferred(child)) eagerNames(child, out)
  })
}

/**
 * Rewrites the top-level function declarations of one TypeScript or JavaScript source file as
 * parenthesised function expressions (see the module comment). Returns the file unchanged when
 * nothing can be rewritten.
 */
export function eagerFunctions(code: string, fileName: string): EagerResult {
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true)
  const counts = new Map<string, number>()
  for (const s of file.statements)
    if (ts.isFunctionDeclaration(s) && s.name) counts.set(s.name.text, (counts.get(s.name.text) ?? 0) + 1)
  const usedSoFar = new Set<string>()
  const rewritten: string[] = []
  let out = ''
  let at = 0
  for (const s of file.statements) {
    if (!(ts.isFunctionDeclaration(s) && s.name && s.body)) {
      eagerNames(s, usedSoFar)
      continue
    }
    const name = s.name.text
    const mods = s.modifiers?.map((m) => m.kind) ?? []
    const start = s.getStart(file)
    if (
      counts.get(name) !== 1 ||
      s.asteriskToken ||
      mods.includes(ts.SyntaxKind.DefaultKeyword) ||
      usedSoFar.has(name) ||
      /__NO_SIDE_EFFECTS__/.test(code.slice(s.pos, start))
    )
      continue
    rewritten.push(name)
    const exported = mods.includes(ts.SyntaxKind.ExportKeyword) ? 'export ' : ''
    const isAsync = mods.includes(ts.SyntaxKind.AsyncKeyword) ? 'async ' : ''
    // `function` and what follows but the name: an anonymous function takes the binding's name,
    // and a bundler then has no second `f` in scope to rename (`f2` in stack traces).
    out += `${code.slice(at, start)}${exported}const ${name} = (${isAsync}function${code.slice(s.name.end, s.end)})`
    at = s.end
  }
  return { code: rewritten.length === 0 ? code : out + code.slice(at), rewritten }
}

/** The sources the reader's cold open runs: the reader's, the manifest's and integrity's. */
export const EAGER_SOURCES = /[\\/]packages[\\/](reader|manifest|integrity)[\\/]src[\\/].*\.ts$/

/** Whether the packages' builds rewrite `path`: one of {@link EAGER_SOURCES}, not a test. */
export function isEagerSource(path: string): boolean {
  return EAGER_SOURCES.test(path) && !path.endsWith('.test.ts')
}

/** An esbuild plugin (tsup takes it too) that applies {@link eagerFunctions} to {@link isEagerSource}'s files. */
export function eagerFunctionsPlugin() {
  return {
    name: 'eager-functions',
    setup(build: {
      onLoad(
        o: { filter: RegExp },
        cb: (a: { path: string }) => Promise<{ contents: string; loader: 'ts' } | undefined>,
      ): void
    }) {
      build.onLoad({ filter: EAGER_SOURCES }, async ({ path }) =>
        isEagerSource(path)
          ? { contents: eagerFunctions(await readFile(path, 'utf8'), path).code, loader: 'ts' }
          : undefined,
      )
    },
  }
}
