/**
 * The import reader and the cycle finder behind `tools/dependency-graph.test.ts` and
 * `tools/api-layout.test.ts`, on tiny in-memory packages and graphs.
 */
import { describe, expect, it } from 'vitest'
import {
  graphCycles,
  groupEdges,
  importCycles,
  importEdges,
  importsOf,
  isTestFile,
  packageOf,
  runtimeCycles,
} from './import-graph.ts'

const pkg = (files: Record<string, string>) =>
  new Map(Object.entries(files).map(([name, code]) => [`/p/src/${name}`, code]))
const names = (cycles: string[][]) => cycles.map((c) => c.map((f) => f.replace('/p/src/', '')).join(' -> '))

describe('importsOf', () => {
  it('reads every kind of import and marks the type-only and dynamic ones', () => {
    const code = `
      import a from './a.ts'
      import type { B } from './b.ts'
      import { type C, type D } from './c.ts'
      import { e, type E } from './e.ts'
      import './side-effect.ts'
      export { f } from './f.ts'
      export type { G } from './g.ts'
      export * from './h.ts'
      export { type I } from './i.ts'
      import * as zod from 'zod/mini'
      import x = require('./x.cjs')
      const later = () => import('./lazy.ts')
      let t: import('./j.ts').J
      // import { commented } from './commented.ts'
      const s = "import { inString } from './in-string.ts'"
    `
    expect(
      importsOf(code).map((i) => `${i.specifier}${i.typeOnly ? ' type' : ''}${i.dynamic ? ' dynamic' : ''}`),
    ).toEqual([
      './a.ts',
      './b.ts type',
      './c.ts type',
      './e.ts',
      './side-effect.ts',
      './f.ts',
      './g.ts type',
      './h.ts',
      './i.ts type',
      'zod/mini',
      './x.cjs',
      './lazy.ts dynamic',
      './j.ts type',
    ])
  })

  it('names the package of a bare specifier', () => {
    expect(packageOf('@spkg/state/drivers/fs')).toBe('@spkg/state')
    expect(packageOf('zod/mini')).toBe('zod')
    expect(packageOf('./x.ts')).toBeUndefined()
    expect(packageOf('node:fs')).toBeUndefined()
  })

  it('knows test files: *.test.ts and anything under test/', () => {
    expect(isTestFile('/r/packages/a/src/x.test.ts', '/r/packages/a')).toBe(true)
    expect(isTestFile('/r/packages/a/test/helpers/build.ts', '/r/packages/a')).toBe(true)
    expect(isTestFile('/r/packages/a/src/testing.ts', '/r/packages/a')).toBe(false)
    expect(isTestFile('/r/packages/a/src/contract/driver-cases.ts', '/r/packages/a')).toBe(false)
  })
})

describe('runtimeCycles', () => {
  it('finds a cycle through value imports, re-exports and side-effect imports', () => {
    const files = pkg({
      'check.ts': "import { names } from './names.ts'\nexport const PHASE = 1",
      'names.ts': "import { PHASE } from './check'\nexport const names = PHASE",
      'a.ts': "export * from './b.js'",
      'b.ts': "import './c/index.ts'",
      'c/index.ts': "import { a } from '../a.ts'",
      'leaf.ts': 'export const leaf = 1',
    })
    expect(names(runtimeCycles(files))).toEqual(['a.ts -> b.ts -> c/index.ts', 'check.ts -> names.ts'])
  })

  it('ignores type-only imports and exports, type-only specifiers and dynamic imports', () => {
    const files = pkg({
      'check.ts': "import { names } from './names.ts'\nexport type Phase = 1",
      'names.ts': "import type { Phase } from './check.ts'\nexport const names = 1",
      'a.ts': "import { b } from './b.ts'\nexport const a = 1",
      'b.ts':
        "import { type A } from './a.ts'\nexport type { A2 } from './a.ts'\nexport const b = () => import('./a.ts')",
    })
    expect(runtimeCycles(files)).toEqual([])
  })

  it('counts an import that mixes a value with types', () => {
    const files = pkg({
      'a.ts': "import { b } from './b.ts'\nexport const a = 1",
      'b.ts': "import { a, type A } from './a.ts'\nexport const b = a",
    })
    expect(names(runtimeCycles(files))).toEqual(['a.ts -> b.ts'])
  })
})

describe('importCycles with types', () => {
  it('counts type-only imports and exports too, but not dynamic imports', () => {
    const files = pkg({
      'check.ts': "import { names } from './names.ts'\nexport type Phase = 1",
      'names.ts': "import type { Phase } from './check.ts'\nexport const names = 1",
      'a.ts': "export type { B } from './b.ts'\nexport const a = 1",
      'b.ts': "import { type A } from './a.ts'\nexport type B = 1",
      'lazy.ts': "import { d } from './d.ts'\nexport const lazy = 1",
      'd.ts': "export const d = () => import('./lazy.ts')",
    })
    expect(names(importCycles(files, { types: true }))).toEqual(['a.ts -> b.ts', 'check.ts -> names.ts'])
    expect(importCycles(files)).toEqual([])
  })

  it('lists the edges a file has at run time and with types', () => {
    const files = pkg({
      'leaf.ts': "import type { A } from './a.ts'\nexport const leaf = 1",
      'a.ts': "import { leaf } from './leaf.ts'\nimport { type B } from './b'\nexport type A = 1",
      'b.ts': 'export type B = 1',
    })
    expect(importEdges(files).get('/p/src/leaf.ts')).toEqual([])
    expect(importEdges(files, { types: true }).get('/p/src/leaf.ts')).toEqual(['/p/src/a.ts'])
    expect(importEdges(files).get('/p/src/a.ts')).toEqual(['/p/src/leaf.ts'])
    expect(importEdges(files, { types: true }).get('/p/src/a.ts')).toEqual(['/p/src/b.ts', '/p/src/leaf.ts'])
  })
})

describe('graphCycles and groupEdges', () => {
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges))

  it('finds each cycle once, from its smallest node, and none in a graph without one', () => {
    expect(graphCycles(graph({ c: ['a'], a: ['b'], b: ['c'], d: ['a'] }))).toEqual([['a', 'b', 'c']])
    expect(graphCycles(graph({ a: ['a'] }))).toEqual([['a']])
    expect(graphCycles(graph({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([])
  })

  it('groups file edges, dropping edges inside a group and files of no group', () => {
    const files = new Map([
      ['/s/x/1.ts', ['/s/x/2.ts', '/s/y/1.ts', '/elsewhere.ts']],
      ['/s/x/2.ts', []],
      ['/s/y/1.ts', ['/s/x/2.ts']],
    ])
    const folder = (f: string) => (f.startsWith('/s/') ? f.split('/')[2] : undefined)
    const edges = groupEdges(files, folder)
    expect(Object.fromEntries([...edges].map(([k, v]) => [k, [...v]]))).toEqual({ x: ['y'], y: ['x'] })
    expect(graphCycles(edges)).toEqual([['x', 'y']])
  })
})
