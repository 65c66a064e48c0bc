/**
 * docs/diagnostic-codes.md explains every diagnostic code the code base can emit, with how to fix
 * it, and every code has an anchor that `spkg validate --format json` links to (`docs`). The codes
 * come from the catalogue (`CODES` of @spkg/manifest) and from the sources themselves: any quoted
 * `area/name` string in a package's or app's sources that looks like a code must be in both.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CODES } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { docsUrlOf } from './validate/docs-link'

const ROOT = join(__dirname, '../../..')
const DOC = readFileSync(join(ROOT, 'docs/diagnostic-codes.md'), 'utf8')
const AREAS = ['manifest', 'session', 'pkg', 'story', 'state', 'repo', 'integrity']

/** Each documented code → its "How to fix" cell. */
function documented(): Map<string, { anchor: string; fix: string }> {
  const rows = new Map<string, { anchor: string; fix: string }>()
  for (const line of DOC.split('\n')) {
    const m =
      /^\| <a id="([^"]+)"><\/a>`([a-z]+\/[a-z0-9-]+)` \| \w+ \| (?:[^|\\]|\\.)* \| ((?:[^|\\]|\\.)*) \|$/.exec(
        line,
      )
    if (m) rows.set(m[2] as string, { anchor: m[1] as string, fix: (m[3] as string).trim() })
  }
  return rows
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name === 'test') continue
    const p = join(dir, e.name)
    if (e.isDirectory()) sourceFiles(p, out)
    else if (/\.(ts|tsx|vue)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p)
  }
  return out
}

/** Quoted code-like strings outside comments, in every package's and app's sources. */
function codesInSources(): Map<string, string> {
  const found = new Map<string, string>()
  const pattern = new RegExp(`['"]((?:${AREAS.join('|')})/[a-z][a-z0-9-]*)['"]`, 'g')
  for (const group of ['packages', 'apps'])
    for (const pkg of readdirSync(join(ROOT, group))) {
      let files: string[]
      try {
        files = sourceFiles(join(ROOT, group, pkg, 'src'))
      } catch {
        continue
      }
      for (const file of files)
        for (const line of readFileSync(file, 'utf8').split('\n')) {
          if (/^\s*(\/\/|\/\*|\*)/.test(line)) continue
          for (const m of line.matchAll(pattern))
            if (!found.has(m[1] as string)) found.set(m[1] as string, file)
        }
    }
  return found
}

describe('docs/diagnostic-codes.md', () => {
  const rows = documented()

  it('has an entry with an anchor and a fix for every code of the catalogue', () => {
    const missing = Object.keys(CODES).filter((c) => !rows.has(c))
    expect(missing, 'codes without a row (run pnpm --filter @spkg/manifest generate)').toEqual([])
    const noFix = [...rows].filter(([, r]) => r.fix === '').map(([c]) => c)
    expect(noFix, 'codes without a fix: add one to packages/manifest/src/codes/fixes.ts').toEqual([])
    for (const [code, r] of rows) expect(r.anchor).toBe(code.replace('/', '-'))
    expect(rows.size).toBe(Object.keys(CODES).length)
  })

  it('documents every code the sources emit', () => {
    const found = codesInSources()
    expect(found.size).toBeGreaterThan(100)
    const undocumented = [...found].filter(([code]) => !rows.has(code)).map(([c, f]) => `${c} (${f})`)
    expect(undocumented).toEqual([])
  })

  it('links a code to its entry', () => {
    expect(docsUrlOf('story/unreachable')).toBe('docs/diagnostic-codes.md#story-unreachable')
  })
})
