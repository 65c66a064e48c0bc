/**
 * Dependencies point inward (STYLE.md section 1). This test reads the package.json and the
 * TypeScript of every workspace package (packages/*, apps/*, bench/) and of the repository's own
 * tools (tools/ and the root configs, declared by the root package.json), and fails on:
 * - an import of one of our packages that the table below does not allow, or that package.json
 *   does not declare;
 * - a declared dependency that no file of the package imports. For our `@spkg/*` packages this is
 *   strict (an import, type-only or not, is the only use); a `dependencies` entry imported only by
 *   tests belongs in devDependencies. A third-party dependency counts as used when a file imports
 *   it or one of the package's scripts runs it (`tsup`, `drizzle-kit`, `node --import tsx`);
 *   `@types/*` packages are used by the compiler and not checked. The root package.json is
 *   the workspace's shared toolchain (Biome, Vitest, tsup, TypeScript, ...), used by every
 *   package's scripts and configs, so only its `@spkg/*` entries are checked;
 * - `@spkg/test-utils` imported by anything but a test file (`*.test.ts`, or a file in a `test/`
 *   folder) or the benchmarks (bench/ is private and builds its inputs with the fixture builders);
 * - an import cycle between the files of one package (relative imports), at run time or through
 *   types alone (`import type`, `export type`, type-only specifiers count; dynamic `import()` does
 *   not): shared types live in leaf files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCycles, importsOf, isTestFile, packageOf, readAll, sourceFiles } from './import-graph.ts'

const root = join(import.meta.dirname, '..')

/** Which of our packages each package may import (test files may also import `@spkg/test-utils`). */
const ALLOWED: Record<string, string[]> = {
  '@spkg/zip': [],
  '@spkg/manifest': [],
  '@spkg/integrity': ['@spkg/manifest'],
  '@spkg/story': ['@spkg/manifest'],
  '@spkg/state': ['@spkg/manifest'],
  '@spkg/reader': ['@spkg/zip', '@spkg/manifest', '@spkg/integrity', '@spkg/story', '@spkg/state'],
  '@spkg/repo-import': ['@spkg/zip', '@spkg/reader', '@spkg/manifest'],
  '@spkg/api-contract': ['@spkg/manifest'],
  '@spkg/client': ['@spkg/manifest', '@spkg/state', '@spkg/api-contract'],
  '@spkg/language-server': ['@spkg/manifest', '@spkg/story'],
  '@spkg/test-utils': ['@spkg/zip', '@spkg/manifest'],
  'spkg-monorepo': [],
}
/** Apps and harnesses: they may import any package, and nothing may import them. */
const APPS = new Set(['@spkg/validator', '@spkg/api', '@spkg/player', '@spkg/bench'])
/**
 * The one app-to-app edge: the API validates uploads with exactly what `spkg validate` runs, through the
 * validator's library entry (`@spkg/validator/validate`), and seeds its catalog with `packFolder`.
 */
const APP_EDGES: Record<string, string[]> = { '@spkg/api': ['@spkg/validator'] }

interface Workspace {
  readonly dir: string
  readonly pkg: {
    name: string
    scripts?: Record<string, string>
    dependencies?: Record<string, string>
    devDependencies?: Record<string, string>
    peerDependencies?: Record<string, string>
  }
  readonly files: string[]
}

const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
const workspaces: Workspace[] = [
  ...['packages', 'apps']
    .flatMap((d) => readdirSync(join(root, d)).map((n) => join(root, d, n)))
    .filter((dir) => existsSync(join(dir, 'package.json'))),
  join(root, 'bench'),
].map((dir) => ({ dir, pkg: read(dir), files: sourceFiles(dir) }))
workspaces.push({
  dir: root,
  pkg: read(root),
  files: [...sourceFiles(join(root, 'tools'), ['fixtures']), join(root, 'vitest.config.ts')],
})

const rel = (file: string) => relative(root, file)

const ours = (name: string) => name.startsWith('@spkg/')

describe('dependency direction', () => {
  it('scans bench/ and tools/ too', () => {
    const names = workspaces.map((w) => w.pkg.name)
    expect(names).toContain('@spkg/bench')
    expect(names).toContain('spkg-monorepo')
    expect(workspaces.find((w) => w.pkg.name === 'spkg-monorepo')?.files.map(rel)).toContain(
      'tools/dependency-graph.test.ts',
    )
  })

  it('knows every workspace package', () => {
    for (const { pkg } of workspaces) expect(pkg.name in ALLOWED || APPS.has(pkg.name), pkg.name).toBe(true)
  })

  it.each(workspaces.map((w) => [w.pkg.name, w] as const))('%s imports only what it may', (name, w) => {
    const { pkg, dir } = w
    const declared = new Set(
      Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies }),
    )
    const problems: string[] = []
    for (const dep of declared) {
      if (!ours(dep) || dep === '@spkg/test-utils') continue
      if (APPS.has(dep) && !APP_EDGES[name]?.includes(dep))
        problems.push(`package.json depends on the app ${dep}`)
      else if (!APPS.has(name) && !ALLOWED[name]?.includes(dep))
        problems.push(`package.json depends on ${dep}`)
    }
    for (const file of w.files) {
      const isTest = isTestFile(file, dir)
      for (const { specifier } of importsOf(readFileSync(file, 'utf8'), file)) {
        const target = packageOf(specifier)
        if (!target || !ours(target) || target === name) continue
        const where = rel(file)
        if (target === '@spkg/test-utils') {
          if (!isTest && name !== '@spkg/bench')
            problems.push(`${where} imports @spkg/test-utils; only tests (*.test.ts, test/) may`)
        } else if (APPS.has(target)) {
          if (!APP_EDGES[name]?.includes(target)) problems.push(`${where} imports the app ${target}`)
        } else if (!APPS.has(name) && !ALLOWED[name]?.includes(target))
          problems.push(`${where} imports ${target}`)
        if (!declared.has(target))
          problems.push(`${where} imports ${target}, which package.json does not declare`)
      }
    }
    expect(problems).toEqual([])
  })
})

describe('declared dependencies are used', () => {
  it.each(workspaces.map((w) => [w.pkg.name, w] as const))(
    '%s imports or runs every dependency it declares',
    (name, w) => {
      const { pkg, dir } = w
      const importedBy = new Map<string, { test: boolean; code: boolean }>()
      for (const file of w.files) {
        const test = isTestFile(file, dir)
        for (const { specifier } of importsOf(readFileSync(file, 'utf8'), file)) {
          const target = packageOf(specifier)
          if (!target) continue
          const seen = importedBy.get(target) ?? { test: false, code: false }
          importedBy.set(target, { test: seen.test || test, code: seen.code || !test })
        }
      }
      const scripts = Object.values(pkg.scripts ?? {}).join('\n')
      const runByScript = (dep: string) =>
        new RegExp(`(^|[\\s=/])${dep.replace(/[/.]/g, '\\$&')}(\\s|$)`, 'm').test(scripts)
      const problems: string[] = []
      const sections = {
        dependencies: pkg.dependencies,
        devDependencies: pkg.devDependencies,
        peerDependencies: pkg.peerDependencies,
      }
      for (const [section, deps] of Object.entries(sections)) {
        for (const dep of Object.keys(deps ?? {})) {
          const use = importedBy.get(dep)
          if (ours(dep)) {
            if (!use) problems.push(`${section} names ${dep}, which no file imports`)
            else if (section === 'dependencies' && !use.code && !APPS.has(name))
              problems.push(`dependencies names ${dep}, which only tests import: move it to devDependencies`)
          } else if (name !== 'spkg-monorepo' && !use && !runByScript(dep) && !dep.startsWith('@types/'))
            problems.push(`${section} names ${dep}, which no file imports and no script runs`)
        }
      }
      expect(problems).toEqual([])
    },
  )
})

describe('no import cycle inside a package, type-only imports included', () => {
  it.each(workspaces.map((w) => [w.pkg.name, w] as const))('%s', (_name, w) => {
    const cycles = importCycles(readAll(w.files), { types: true }).map((c) =>
      [...c, c[0]].map((f) => rel(f as string)).join(' -> '),
    )
    expect(cycles).toEqual([])
  })
})
