/**
 * The eager-compilation transform the reader's, manifest's and integrity's `dist/` are built with
 * (tools/eager-functions.ts): what it rewrites, what it must leave alone, and the reader's own
 * sources bundled with it, opening and refusing real packages.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { buildPackage } from '../packages/test-utils/src/build-package.ts'
import { eagerFunctions, eagerFunctionsPlugin, isEagerSource } from './eager-functions.ts'

const root = join(import.meta.dirname, '..')

/** Runs an ES module's source (TypeScript) and returns its exports. */
async function load(code: string): Promise<Record<string, unknown>> {
  const js = transformSync(code, { loader: 'ts', format: 'esm' }).code
  return import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)
}

describe('eagerFunctions', () => {
  it('rewrites a top-level declaration as a parenthesised expression of the same name', () => {
    const code = [
      '/** Adds one. */',
      'export function inc<T extends number>(a: T): number {',
      '  return a + 1',
      '}',
      'async function later(): Promise<number> { return 2 }',
      '',
    ].join('\n')
    const r = eagerFunctions(code, 'a.ts')
    expect(r.rewritten).toEqual(['inc', 'later'])
    expect(r.code).toBe(
      [
        '/** Adds one. */',
        'export const inc = (function<T extends number>(a: T): number {',
        '  return a + 1',
        '})',
        'const later = (async function(): Promise<number> { return 2 })',
        '',
      ].join('\n'),
    )
  })

  it('leaves what a const would change: overloads, default exports, generators, marked functions', () => {
    const code = [
      'export function o(a: string): string',
      'export function o(a: number): number',
      'export function o(a: unknown) { return a }',
      'export default function d() {}',
      'function* g() { yield 1 }',
      '/* @__NO_SIDE_EFFECTS__ */',
      'export function pure() { return {} }',
      'declare function ambient(): void',
      '',
    ].join('\n')
    const r = eagerFunctions(code, 'b.ts')
    expect(r.rewritten).toEqual([])
    expect(r.code).toBe(code)
  })

  it('leaves a function the top level uses before its declaration, and rewrites one used later', async () => {
    const code = [
      'export const early = before()',
      'export const table = { f: kept }',
      'export const lazy = () => after()',
      'class K { static m() { return after() } }',
      'function before() { return 1 }',
      'function kept() { return 2 }',
      'function after() { return 3 }',
      'export const use = [K.m(), table.f()]',
      '',
    ].join('\n')
    const r = eagerFunctions(code, 'c.ts')
    expect(r.rewritten).toEqual(['after'])
    const m = await load(r.code)
    expect(m.early).toBe(1)
    expect((m.lazy as () => number)()).toBe(3)
    expect(m.use).toEqual([3, 2])
  })

  it('keeps what a caller sees: names, recursion, `this`, `arguments`', async () => {
    const r = eagerFunctions(
      [
        'export function fact(n: number): number { return n <= 1 ? 1 : n * fact(n - 1) }',
        'export function self(this: { v: number }) { return this.v }',
        'export function count() { return arguments.length }',
        '',
      ].join('\n'),
      'd.ts',
    )
    expect(r.rewritten).toEqual(['fact', 'self', 'count'])
    const m = (await load(r.code)) as {
      fact: (n: number) => number
      self: (this: { v: number }) => number
      count: (...a: unknown[]) => number
    }
    expect(m.fact(5)).toBe(120)
    expect(m.fact.name).toBe('fact')
    expect(m.self.call({ v: 7 })).toBe(7)
    expect(m.count(1, 2, 3)).toBe(3)
  })

  it('survives a minifying bundler with its parentheses (what V8 reads as "compile now")', async () => {
    const r = await build({
      stdin: {
        contents: eagerFunctions('export function f(a: number) { return a * 2 }', 'e.ts').code,
        loader: 'ts',
      },
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
    })
    expect(r.outputFiles[0]!.text).toMatch(/=\(function\(\w\)\{return \w\*2\}\)/)
  })
})

describe('the packages built with it', () => {
  it('rewrites the open pipeline of the reader, the manifest and integrity, and every source still compiles', () => {
    let rewritten = 0
    for (const pkg of ['reader', 'manifest', 'integrity']) {
      const dir = join(root, 'packages', pkg, 'src')
      for (const name of readdirSync(dir, { recursive: true }) as string[]) {
        const path = join(dir, name)
        if (!isEagerSource(path)) continue
        const r = eagerFunctions(readFileSync(path, 'utf8'), path)
        rewritten += r.rewritten.length
        expect(() => transformSync(r.code, { loader: 'ts' }), path).not.toThrow()
      }
    }
    const open = eagerFunctions(
      readFileSync(join(root, 'packages/reader/src/open/open-archive.ts'), 'utf8'),
      'open-archive.ts',
    )
    expect(open.rewritten).toEqual(expect.arrayContaining(['prepareOpening', 'openArchive']))
    expect(rewritten).toBeGreaterThan(150)
  })

  it('bundles the reader with it, which then opens a package, and refuses a damaged one', async () => {
    const r = await build({
      entryPoints: [join(root, 'packages/reader/src/index.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['@spkg/source'],
      plugins: [eagerFunctionsPlugin()],
      write: false,
      logLevel: 'silent',
      outdir: 'out',
      splitting: false,
    })
    const text = r.outputFiles.find((f) => f.path.endsWith('index.js'))!.text
    expect(text).toMatch(/\bopenArchive = \(async function\(/)
    const dir = join(root, 'node_modules/.cache/eager-functions-test')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, `reader-${process.pid}.mjs`)
    writeFileSync(file, text)
    try {
      const reader = (await import(
        pathToFileURL(file).href
      )) as typeof import('../packages/reader/src/index.ts')
      const bytes = buildPackage(
        {
          manifest: { title: 'Eager' },
          parts: { 'story/0001-start.sty': 'Hello.\n', 'story/0002-end.sty': 'The end.\n' },
          integrity: true,
        },
        { level: 6 },
      )
      const opened = await reader.openPackage(bytes)
      expect(opened.ok).toBe(true)
      const damaged = bytes.slice()
      const mid = damaged.length >> 1
      damaged[mid] = damaged[mid]! ^ 0xff
      const refused = await reader.openPackage(damaged)
      expect(refused.ok).toBe(false)
      if (!refused.ok) expect(refused.diagnostics.length).toBeGreaterThan(0)
    } finally {
      rmSync(file, { force: true })
    }
  })
})
