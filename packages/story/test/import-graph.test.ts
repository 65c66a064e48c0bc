/**
 * The README's promise about the source layout: no file of src/ imports another in a cycle, not
 * even through type-only imports, and the files named as leaves import nothing from the package at
 * run time.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { expect, it } from 'vitest'

const src = join(import.meta.dirname, '..', 'src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  )
}

/** Each file's relative imports: every one, and those that load code at run time. */
function graph(): Map<string, { all: string[]; runtime: string[] }> {
  const out = new Map<string, { all: string[]; runtime: string[] }>()
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8')
    const all: string[] = []
    const runtime: string[] = []
    for (const m of text.matchAll(
      /^(?:import|export)\s+(type\s+)?(\{[^}]*\}|[^'"{}]*?)\s*from\s+'(\.[^']+)'/gm,
    )) {
      const spec = m[3]!.endsWith('.ts') ? m[3]! : `${m[3]}.ts`
      const target = relative(src, resolve(dirname(file), spec))
      all.push(target)
      const names = m[2]!.startsWith('{')
        ? m[2]!
            .slice(1, -1)
            .split(',')
            .map((n) => n.trim())
            .filter(Boolean)
        : []
      const typeOnly = m[1] !== undefined || (names.length > 0 && names.every((n) => n.startsWith('type ')))
      if (!typeOnly) runtime.push(target)
    }
    out.set(relative(src, file), { all, runtime })
  }
  return out
}

/** The cycles of a graph, each as the files along it. */
function cycles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const trail: string[] = []
  const visit = (f: string) => {
    state.set(f, 'open')
    trail.push(f)
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'open') found.push([...trail.slice(trail.indexOf(t)), t])
      else if (!state.has(t)) visit(t)
    }
    trail.pop()
    state.set(f, 'done')
  }
  for (const f of edges.keys()) if (!state.has(f)) visit(f)
  return found
}

it('no file of src/ imports another in a cycle, not even for types', () => {
  const g = graph()
  expect(g.size).toBeGreaterThan(30)
  expect(g.get('run/machine.ts')?.runtime).toContain('run/decisions.ts')
  // the search itself finds a cycle when there is one
  expect(
    cycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
      ]),
    ),
  ).toEqual([['a', 'b', 'c', 'a']])
  expect(cycles(new Map([...g].map(([f, e]) => [f, e.all])))).toEqual([])
})

it('the leaf files import nothing from the package at run time', () => {
  const g = graph()
  const leaves = [
    'ast.ts',
    'check/context.ts',
    'parse/context.ts',
    'parse/line-parser.ts',
    'run/code.ts',
    'run/vm.ts',
  ]
  for (const leaf of leaves) expect({ leaf, runtime: g.get(leaf)?.runtime }).toEqual({ leaf, runtime: [] })
})
