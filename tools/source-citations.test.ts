/**
 * Comments say why, not when (CONTRIBUTING.md): the source of packages/, apps/, tools/ and bench/
 * cites no issue number and no session ("issue 31", "(issue 31 item 5)", "Issue 13's target",
 * "session 12", "the issue-31 attacks"). The reason a line exists stays in the comment; which ticket
 * asked for it is in git. The pattern wants the word, then a number: "the client issues 3 requests",
 * "Issue #4 is fixed" (a story's text) or `session.json` are not citations.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')

const CITATION = /\b(?:issue|session)[- ]\d+/i

const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/
const SKIPPED = new Set(['node_modules', 'dist', 'build', 'coverage'])

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (SOURCE.test(entry.name)) yield path
  }
}

/** `file:line: text` of every line of the tree's source that cites an issue or a session. */
function citations(): string[] {
  const found: string[] = []
  for (const top of ['packages', 'apps', 'tools', 'bench'])
    for (const file of sources(join(root, top))) {
      if (file === import.meta.filename) continue // its examples below
      const lines = readFileSync(file, 'utf8').split('\n')
      lines.forEach((line, i) => {
        if (CITATION.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`)
      })
    }
  return found
}

describe('source comments', () => {
  it('cite no issue number or session', () => {
    expect(citations()).toEqual([])
  })

  it('are checked with a pattern that finds citations and nothing else', () => {
    const cited = [
      'The bounds of manifest.json (issue 31): its size',
      '(issue 31 item 5: a retry must not find a version committed for nobody)',
      "Issue 13's target is Vite's",
      'as before session 12',
      'the Session 9 variant',
      'during each issue-31 attack',
    ]
    const legitimate = [
      'the client issues 3 requests before it gives up',
      "['story/tag-text: text after tags', 'Issue #4 is fixed']",
      'the session.json of a package',
      'a reading session keeps 300 choices',
      'issues of the repository: https://github.com/spkg/spkg/issues',
      '40 alternating rounds',
    ]
    expect(cited.filter((line) => !CITATION.test(line))).toEqual([])
    expect(legitimate.filter((line) => CITATION.test(line))).toEqual([])
  })
})
