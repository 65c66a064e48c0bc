import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// Every name the entry points export is in the README (in backticks), and each entry lists its
// exports explicitly: what is not documented is not exported.
const src = import.meta.dirname
const entries = ['index.ts', 'node.ts']
const program = ts.createProgram(
  entries.map((e) => join(src, e)),
  { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true },
)
const checker = program.getTypeChecker()

function exportsOf(entry: string): string[] {
  const file = program.getSourceFile(join(src, entry))!
  return checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).map((s) => s.name)
}

describe('the public surface', () => {
  const readme = readFileSync(join(src, '..', 'README.md'), 'utf8')

  it.each(entries)('%s exports only names the README shows in backticks', (entry) => {
    const names = exportsOf(entry)
    expect(names.length).toBeGreaterThan(5)
    expect(names.filter((n) => !new RegExp(`\`[^\`]*\\b${n}\\b[^\`]*\``).test(readme))).toEqual([])
  })

  it.each(entries)('%s lists its exports explicitly (no export *)', (entry) => {
    expect(readFileSync(join(src, entry), 'utf8')).not.toMatch(/export \*/)
  })

  it('keeps the directory reader and its helpers internal', () => {
    const internal = ['readZipDirectory', 'checkEntryName', 'collisionKey', 'compareCodePoints', 'mimeTypeOf']
    for (const entry of entries) for (const name of internal) expect(exportsOf(entry)).not.toContain(name)
  })
})
