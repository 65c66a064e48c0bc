/**
 * The README's promise about the source layout: no file of src/ imports another in a cycle, not
 * even through type-only imports, and the files named as leaves import nothing from the package at
 * run time. The imports are read by the repository's one import walker, tools/import-graph.ts
 * (its own tests, on tiny packages, show that it finds cycles and tells type-only imports apart).
 */
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'
import { importCycles, importEdges, readAll, sourceFiles } from '../../../tools/import-graph.ts'

const src = join(import.meta.dirname, '..', 'src')
const files = readAll(sourceFiles(src).filter((f) => !f.endsWith('.test.ts')))
const rel = (f: string) => relative(src, f)

it('no file of src/ imports another in a cycle, not even for types', () => {
  expect(files.size).toBeGreaterThan(30)
  // the walker sees this package's imports: the machine loads the decisions at run time
  expect(importEdges(files).get(join(src, 'run/machine.ts'))?.map(rel)).toContain('run/decisions.ts')
  expect(importCycles(files, { types: true }).map((c) => c.map(rel))).toEqual([])
})

it('the leaf files import nothing from the package at run time', () => {
  const edges = importEdges(files)
  const leaves = [
    'ast.ts',
    'check/context.ts',
    'parse/context.ts',
    'parse/line-parser.ts',
    'run/code.ts',
    'run/vm.ts',
  ]
  for (const leaf of leaves) {
    const runtime = edges.get(join(src, leaf))?.map(rel)
    expect({ leaf, runtime }).toEqual({ leaf, runtime: [] })
  }
})
