/**
 * The pure parts of `tools/check-packaging.ts` (the whole check packs, installs and builds, so it
 * runs as `pnpm check:packaging` in CI, not here): what it finds wrong in a packed package.json,
 * which built files import Node built-ins without their `node:` prefix, and what a player bundles
 * over its budget or without asking for it.
 */

import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  BUDGETS,
  BUNDLE_BUDGET,
  barePrefixImports,
  bundleBudgetProblems,
  checkPackedManifest,
  moduleSubpaths,
  optInProblems,
  overTarget,
  type PackageManifest,
  publishablePackages,
  specifierOf,
  weighBundle,
} from './check-packaging.ts'

const good: PackageManifest = {
  name: '@spkg/x',
  version: '1.0.0',
  license: 'MIT',
  type: 'module',
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './schema.json': './schema.json',
    './package.json': './package.json',
  },
  dependencies: { '@spkg/manifest': '^1.0.0' },
}
const files = ['package.json', 'LICENSE', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'schema.json']

describe('checkPackedManifest', () => {
  it('accepts a package with types then default, a LICENSE and every target packed', () => {
    expect(checkPackedManifest(good, files)).toEqual([])
  })

  it('refuses the source condition, devDependencies and workspace ranges', () => {
    const bad: PackageManifest = {
      ...good,
      exports: {
        '.': { '@spkg/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
      },
      devDependencies: { '@spkg/test-utils': '0.0.0' },
      dependencies: { '@spkg/manifest': 'workspace:^' },
    }
    expect(checkPackedManifest(bad, files)).toEqual([
      'exports name the @spkg/source condition (it points into src/, which is not packed)',
      'has devDependencies',
      'depends on @spkg/manifest@workspace:^',
      'exports "." -> ./src/index.ts, not in the tarball',
      'exports ".": types is not the first condition',
    ])
  })

  it('refuses an import-only export map (require() fails) and types after the code', () => {
    const importOnly = {
      ...good,
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    }
    expect(checkPackedManifest(importOnly, files)).toEqual([
      'exports "." has no default condition (require() fails)',
      'exports ".": default is not the last condition',
    ])
    const typesLast = {
      ...good,
      exports: { '.': { default: './dist/index.js', types: './dist/index.d.ts' } },
    }
    expect(checkPackedManifest(typesLast, files)).toEqual([
      'exports ".": types is not the first condition',
      'exports ".": default is not the last condition',
    ])
  })

  it('refuses a missing LICENSE, packed sources, a missing target or bin', () => {
    const withBin = { ...good, bin: { spkg: './dist/bin.js' } }
    expect(
      checkPackedManifest(withBin, ['package.json', 'src/index.ts', 'dist/index.d.ts', 'schema.json']),
    ).toEqual([
      'has no LICENSE file',
      'packs src/',
      'exports "." -> ./dist/index.js, not in the tarball',
      'bin ./dist/bin.js is not in the tarball',
    ])
  })
})

describe('barePrefixImports', () => {
  it('finds built-ins imported without node:, in every form tsup or esbuild writes', () => {
    const code = [
      'import { readFile } from "fs/promises";',
      "import*as z from 'zlib'",
      'const c = await import("crypto")',
      'const p = require("path")',
      'import "stream";',
      'import { x } from "node:fs"; import y from "fsevents"; import "./fs"',
    ].join('\n')
    expect(barePrefixImports(code)).toEqual(['fs/promises', 'zlib', 'crypto', 'path', 'stream'])
  })
})

describe('export subpaths', () => {
  it('names every JavaScript subpath as a consumer writes it, JSON files apart', () => {
    expect(moduleSubpaths(good)).toEqual(['.'])
    expect(specifierOf('@spkg/state', '.')).toBe('@spkg/state')
    expect(specifierOf('@spkg/state', './drivers/fs')).toBe('@spkg/state/drivers/fs')
  })

  it('finds the published packages of this repository, and no private one', () => {
    const names = publishablePackages().map((p) => p.manifest.name)
    expect(names).toContain('@spkg/reader')
    expect(names).toContain('@spkg/validator')
    expect(names).not.toContain('@spkg/test-utils')
    expect(names).not.toContain('@spkg/api')
  })
})

describe('the browser bundle budget', () => {
  // Incompressible code of a given size (hex of random bytes gzips to about half).
  const code = (kib: number) => `export const x = "${randomBytes(kib * 512).toString('hex')}"\n`
  const chunk = (fileName: string, kib: number, isEntry: boolean, imports: string[] = []) => ({
    fileName,
    code: code(kib),
    isEntry,
    imports,
  })

  it('counts the entry and its static imports as the initial load, and every file apart', () => {
    const w = weighBundle([
      chunk('index.js', 8, true, ['shared.js']),
      chunk('shared.js', 4, false),
      chunk('lazy.js', 4, false, ['shared.js']),
    ])
    expect([...w.initial]).toEqual(['index.js', 'shared.js'])
    expect(w.files).toBe(3)
    expect(w.initialMinified).toBeGreaterThan(12 * 1024)
    expect(w.minified).toBeGreaterThan(w.initialMinified + 4 * 1024)
    expect(w.gzip).toBeGreaterThan(w.initialGzip + 1.5 * 1024)
  })

  it('fails a build whose lazy chunks take every file over the budget, not only the initial load', () => {
    const budget = { initial: 10 * 1024, all: 10 * 1024 }
    const under = weighBundle([chunk('index.js', 16, true), chunk('lazy.js', 1, false)])
    expect(bundleBudgetProblems(under, budget)).toEqual([])
    const lazyOver = weighBundle([chunk('index.js', 16, true), chunk('lazy.js', 8, false)])
    expect(lazyOver.initialGzip).toBeLessThan(budget.initial)
    expect(bundleBudgetProblems(lazyOver, budget)).toEqual([
      expect.stringMatching(
        /^reader \+ story is 1\d\.\d KB gzip counting every emitted file, over the 10\.0 KB budget/,
      ),
    ])
    const bothOver = weighBundle([chunk('index.js', 24, true)])
    expect(bundleBudgetProblems(bothOver, budget)).toHaveLength(2)
  })

  it('fails a player that bundles @noble/ed25519 without asking for it, even in a lazy chunk', () => {
    const noble = 'node_modules/.pnpm/@noble+ed25519@3.2.0/node_modules/@noble/ed25519/index.js'
    const reader = 'node_modules/@spkg/reader/dist/index.js'
    expect(optInProblems([{ ...chunk('index.js', 1, true), modules: [reader] }])).toEqual([])
    expect(
      optInProblems([
        { ...chunk('index.js', 1, true), modules: [reader] },
        { ...chunk('index-x1.js', 1, false), modules: [`/abs/${noble}`] },
        chunk('ed25519-noble-AB12.js', 1, false),
      ]),
    ).toEqual([
      'index-x1.js bundles @noble/ed25519 (opt-in: @spkg/reader/ed25519-noble), which the player did not ask for',
      'ed25519-noble-AB12.js bundles @noble/ed25519 (opt-in: @spkg/reader/ed25519-noble), which the player did not ask for',
    ])
  })

  it('holds Vite under the 72 KB ceiling for both figures, esbuild to the same order, and says how far over the 60 KB target', () => {
    expect(BUNDLE_BUDGET).toBe(60 * 1024)
    expect(BUDGETS.Vite).toEqual({ initial: 72 * 1024, all: 72 * 1024 })
    expect(BUDGETS.esbuild.initial).toBeLessThanOrEqual(76 * 1024)
    expect(BUDGETS.esbuild.all).toBeLessThanOrEqual(80 * 1024)
    const w = {
      files: 2,
      minified: 0,
      gzip: 71_000,
      initial: new Set<string>(),
      initialMinified: 0,
      initialGzip: 61_440,
    }
    expect(overTarget(w, 'Vite')).toEqual(['every file 1.16× the 60.0 KB target'])
    expect(overTarget({ ...w, gzip: 1 }, 'Vite')).toEqual([])
  })
})
