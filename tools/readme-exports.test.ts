/**
 * Every export of a library is documented: for each published package with an `exports` map, and
 * the private @spkg/test-utils, the names each JavaScript entry exports (values and types, read with
 * the TypeScript compiler from the entry's source file) must each appear in an inline code span of the
 * package's README.md (`` `openPackage` ``, `` `openPackage(input, options)` ``; fenced examples do
 * not count). A name that is not worth a word in the README should not be exported.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { exportEntries, type PackageManifest, publishablePackages } from './check-packaging.ts'

const root = join(import.meta.dirname, '..')

/** Identifiers in the README's inline code spans (fenced code blocks removed first). */
function documentedNames(markdown: string): Set<string> {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
  const names = new Set<string>()
  for (const span of prose.matchAll(/(`+)([^`][\s\S]*?)\1/g))
    for (const word of (span[2] as string).matchAll(/[A-Za-z_$][\w$]*/g)) names.add(word[0])
  return names
}

/** Published libraries, and the private @spkg/test-utils (its exports map names its source files). */
const testUtils = join(root, 'packages', 'test-utils')
const libraries = [
  ...publishablePackages(),
  {
    dir: testUtils,
    manifest: JSON.parse(readFileSync(join(testUtils, 'package.json'), 'utf8')) as PackageManifest,
  },
]
  .filter((p) => p.manifest.exports !== undefined)
  .map((p) => ({
    ...p,
    entries: exportEntries(p.manifest).flatMap(([subpath, target]) => {
      const source = typeof target === 'string' ? target : (target as Record<string, unknown>)['@spkg/source']
      return typeof source === 'string' && source.endsWith('.ts')
        ? [{ subpath, file: join(p.dir, source) }]
        : []
    }),
  }))

const program = ts.createProgram(
  libraries.flatMap((l) => l.entries.map((e) => e.file)),
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    customConditions: ['@spkg/source'],
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
)
const checker = program.getTypeChecker()

function exportedNames(file: string): string[] {
  const source = program.getSourceFile(file)
  const symbol = source && checker.getSymbolAtLocation(source)
  if (!symbol) throw new Error(`cannot read the exports of ${relative(root, file)}`)
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.getName())
    .filter((n) => n !== 'default')
}

describe('every export of a published library is in its README', () => {
  it('finds the libraries and their entries', () => {
    expect(libraries.map((l) => l.manifest.name)).toContain('@spkg/reader')
    expect(libraries.find((l) => l.manifest.name === '@spkg/state')?.entries.length).toBeGreaterThan(1)
    expect(libraries.find((l) => l.manifest.name === '@spkg/test-utils')?.entries.length).toBe(3)
  })

  it('reads names from inline code spans only', () => {
    const md = 'Call `openPackage(input, { limits })` or ``peek`Package``.\n\n```ts\nhiddenName()\n```\n'
    const names = documentedNames(md)
    expect(names.has('openPackage')).toBe(true)
    expect(names.has('limits')).toBe(true)
    expect(names.has('hiddenName')).toBe(false)
  })

  it.each(libraries.map((l) => [l.manifest.name, l] as const))('%s', (_name, lib) => {
    const readme = join(lib.dir, 'README.md')
    const documented = existsSync(readme) ? documentedNames(readFileSync(readme, 'utf8')) : new Set<string>()
    const missing = lib.entries.flatMap(({ subpath, file }) =>
      exportedNames(file)
        .filter((n) => !documented.has(n))
        .map((n) => `${subpath}: ${n}`),
    )
    expect(missing, `exports not named in ${relative(root, readme)}`).toEqual([])
  })
})
