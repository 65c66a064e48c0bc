/**
 * The known differences (README.md, "Known differences"): each pair of differences/ compiles and
 * checks cleanly and still differs in exactly the way the README records, so that a fix in either
 * engine (or in inkjs) shows up here and the pair can move to pairs/.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runPair, summarize } from './compare.ts'
import { listPairs, readPair } from './pair.ts'

const dir = join(import.meta.dirname, 'differences')
const names = listPairs(dir)
const readme = readFileSync(join(import.meta.dirname, 'README.md'), 'utf8')
const recorded = new Map(
  [...readme.matchAll(/```parity-diff (\S+)\n([\s\S]*?)\n```/g)].map((m) => [m[1]!, m[2]!] as const),
)

describe('known differences', () => {
  it('the README records every pair of differences/, and nothing else', () => {
    expect([...recorded.keys()].sort()).toEqual(names)
  })

  it.each(names)('%s still differs as recorded', async (name) => {
    const report = await runPair(readPair(dir, name))
    expect({ errors: report.inkErrors, warnings: report.inkWarnings }).toEqual({ errors: [], warnings: [] })
    expect(report.styDiagnostics).toEqual([])
    expect(summarize(report.comparison)).toBe(recorded.get(name))
  })
})
