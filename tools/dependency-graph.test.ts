/**
 * Dependencies point inward (STYLE.md section 1): this test reads every workspace package's
 * package.json and sources and fails on an edge the table does not allow, or on an import of
 * one of our packages that package.json does not declare.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')

/** Which of our packages each package may import (test-utils is allowed in tests everywhere). */
const ALLOWED: Record<string, string[]> = {
  '@spkg/manifest': [],
  '@spkg/integrity': ['@spkg/manifest'],
  '@spkg/story': ['@spkg/manifest'],
  '@spkg/state': ['@spkg/manifest'],
  '@spkg/reader': ['@spkg/manifest', '@spkg/integrity', '@spkg/story', '@spkg/state'],
  '@spkg/repo-import': ['@spkg/reader', '@spkg/manifest'],
  '@spkg/client': ['@spkg/manifest', '@spkg/state'],
  '@spkg/test-utils': ['@spkg/manifest'],
}
const APPS = new Set(['@spkg/validator', '@spkg/api', '@spkg/player', '@spkg/bench'])

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (/\.(ts|tsx|mts)$/.test(name)) out.push(p)
  }
  return out
}

const workspaces = ['packages', 'apps']
  .flatMap((d) => readdirSync(join(root, d)).map((n) => join(root, d, n)))
  .filter((d) => {
    try {
      return statSync(join(d, 'package.json')).isFile()
    } catch {
      return false
    }
  })
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))

const ours = (spec: string) => /^@spkg\/[a-z-]+/.exec(spec)?.[0]

describe('dependency direction', () => {
  it('knows every workspace package', () => {
    for (const { pkg } of workspaces) expect(pkg.name in ALLOWED || APPS.has(pkg.name), pkg.name).toBe(true)
  })
  it.each(workspaces.map((w) => [w.pkg.name as string, w]))(
    '%s imports only what it may',
    (name, { dir, pkg }) => {
      const declared = new Set(
        Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies }),
      )
      const problems: string[] = []
      for (const dep of declared) {
        const target = ours(dep)
        if (!target || target === '@spkg/test-utils') continue
        if (APPS.has(target)) problems.push(`package.json depends on the app ${target}`)
        else if (!APPS.has(name) && !ALLOWED[name]?.includes(target))
          problems.push(`package.json depends on ${target}`)
      }
      for (const file of walk(dir)) {
        const text = readFileSync(file, 'utf8')
        const isTest = /\.test\.ts$|\/test\/|_test-/.test(file)
        for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](@spkg\/[a-z-]+)(?:\/[^'"]*)?['"]/g)) {
          const target = m[1]!
          const where = relative(root, file)
          if (target === name) continue
          if (target === '@spkg/test-utils' && isTest) continue
          if (APPS.has(target)) problems.push(`${where} imports the app ${target}`)
          else if (!APPS.has(name) && !ALLOWED[name]?.includes(target))
            problems.push(`${where} imports ${target}`)
          if (!declared.has(target))
            problems.push(`${where} imports ${target}, which package.json does not declare`)
        }
      }
      expect(problems).toEqual([])
    },
  )
})
