/**
 * ink parity (README.md): every pair of pairs/ compiles with inkjs without errors or warnings,
 * checks without errors or warnings, and plays the same normal form through inkjs and
 * `@spkg/story` on every path explored.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { differs, formatComparison, runPair } from './compare.ts'
import { listPairs, readPair } from './pair.ts'

const dir = join(import.meta.dirname, 'pairs')
const names = listPairs(dir)

describe('ink parity', () => {
  it('has the pairs the README promises, each in its table of translations', () => {
    expect(names.length).toBeGreaterThanOrEqual(60)
    const readme = readFileSync(join(import.meta.dirname, 'README.md'), 'utf8')
    const table = readme.slice(readme.indexOf('## Translations'), readme.indexOf('## Story language 1.1'))
    expect(names.filter((n) => !table.includes(`\`${n}\``))).toEqual([])
  })

  it.each(names)('%s', async (name) => {
    const pair = readPair(dir, name)
    const report = await runPair(pair)
    expect({ errors: report.inkErrors, warnings: report.inkWarnings }).toEqual({ errors: [], warnings: [] })
    expect(report.styDiagnostics).toEqual([])
    const { comparison } = report
    if (differs(comparison)) expect.fail(`\n${formatComparison(comparison)}`)
    expect(comparison.paths).toBeGreaterThan(0)
    expect(comparison.truncated).toBe(false)
  })
})
