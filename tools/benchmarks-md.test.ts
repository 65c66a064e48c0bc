import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  benchNames,
  buildBenchmarksMd,
  parseCurrent,
  readSummary,
  renderBenchmarksMd,
} from './benchmarks-md.ts'

const root = join(import.meta.dirname, '..')

const results = `# bench/x: results

Method text.

## Current

Method: best of 9 cold opens in fresh processes
Machine: EPYC, 2 cores; load 0.4
Date: 2026-11-26
Commit: abc1234

| Measure | Target | Current | Ratio | Commit |
|---|---|---|---|---|
| open, best cold | within 1.5× the floor | 40.7 ms (floor 34.0) | 1.20× | |
| peek \\| 50 MB | under 10 ms | 4.2 ms | 0.42× | def5678 |

## Notes

The floor is Node's zlib.

## An earlier run (2026-11-20)

| old | table |
|---|---|
`

describe('BENCHMARKS.md', () => {
  it('is what `pnpm benchmarks:md` builds from the bench results files', () => {
    expect(readFileSync(join(root, 'BENCHMARKS.md'), 'utf8')).toBe(buildBenchmarksMd(root))
  })

  it('has a valid "## Current" section for every benchmark under bench/', () => {
    const names = benchNames(root)
    expect(names).toContain('reader')
    const problems = names.map((name) => readSummary(root, name).problem).filter((p) => p !== undefined)
    expect(problems).toEqual([])
  })

  it('stays a reference page, not the run-by-run history (it was 170 KB for 9 benchmarks)', () => {
    // A budget per benchmark, so the page may grow with new benchmarks but not with history.
    const budget = 2_000 * benchNames(root).length
    expect(readFileSync(join(root, 'BENCHMARKS.md'), 'utf8').length).toBeLessThan(budget)
  })

  it('gives each benchmark its table and one line of prose, no narrative', () => {
    const page = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8')
    const sections = page.split(/^## /m).slice(1)
    expect(sections.map((s) => s.split('\n')[0])).toEqual(benchNames(root))
    for (const section of sections) {
      const prose = section
        .split('\n')
        .slice(1)
        .filter((l) => l.trim() !== '' && !l.startsWith('|'))
      expect(prose, section.split('\n')[0]).toHaveLength(1)
      expect((prose[0] as string).length, section.split('\n')[0]).toBeLessThan(300)
    }
  })
})

describe('the "## Current" section', () => {
  it('gives every row its target, figure, ratio, machine, date and commit', () => {
    const { rows, method } = parseCurrent(results, 'bench/x/RESULTS.md')
    expect(rows).toEqual([
      {
        measure: 'open, best cold',
        target: 'within 1.5× the floor',
        current: '40.7 ms (floor 34.0)',
        ratio: '1.20×',
        machine: 'EPYC, 2 cores; load 0.4',
        date: '2026-11-26',
        commit: 'abc1234',
      },
      {
        measure: 'peek \\| 50 MB',
        target: 'under 10 ms',
        current: '4.2 ms',
        ratio: '0.42×',
        machine: 'EPYC, 2 cores; load 0.4',
        date: '2026-11-26',
        commit: 'def5678',
      },
    ])
    expect(method).toBe('best of 9 cold opens in fresh processes')
  })

  it('names the file and what is missing', () => {
    expect(() => parseCurrent('# x\n\nno section', 'bench/x/RESULTS.md')).toThrow(
      'bench/x/RESULTS.md: no "## Current" section',
    )
    expect(() => parseCurrent(results.replace('Date: 2026-11-26\n', ''), 'f.md')).toThrow(
      'f.md: row 1 of "## Current" has no date',
    )
    expect(() => parseCurrent(results.replace('| Ratio ', '| Factor '), 'f.md')).toThrow(
      'f.md: the "## Current" table has no "ratio" column',
    )
  })

  it('refuses prose besides its fields and table, before or after the table', () => {
    const after = results.replace('\n## Notes\n', '')
    expect(() => parseCurrent(after, 'f.md')).toThrow(
      'f.md: "## Current" holds prose ("The floor is Node\'s zlib....")',
    )
    const before = results.replace('Date: 2026-11-26\n', 'Date: 2026-11-26\nBefore the fix it took 80 ms.\n')
    expect(() => parseCurrent(before, 'f.md')).toThrow('f.md: "## Current" holds prose ("Before the fix')
  })

  it('renders one table per benchmark with the command that re-measures it', () => {
    const { rows } = parseCurrent(results, 'bench/x/RESULTS.md')
    const page = renderBenchmarksMd([
      {
        name: 'x',
        title: 'results',
        file: 'bench/x/RESULTS.md',
        history: 'bench/x/HISTORY.md',
        rows,
        method: 'best of 9 cold opens in fresh processes.',
      },
    ])
    expect(page).toContain('Best of 9 cold opens in fresh processes. Re-measure: `pnpm bench x`')
    expect(page).toContain('| [x](#x) | `pnpm bench x` | [bench/x/RESULTS.md](bench/x/RESULTS.md) |')
    expect(page).toContain(
      '| open, best cold | within 1.5× the floor | 40.7 ms (floor 34.0) | 1.20× | EPYC, 2 cores; load 0.4 | 2026-11-26 | abc1234 |',
    )
    expect(page).toContain('[history](bench/x/HISTORY.md)')
    expect(page).not.toContain('An earlier run')
    expect(page).not.toContain("Node's zlib")
  })
})
