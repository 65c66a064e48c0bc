/**
 * The harness can fail: a deliberately mismatched pair is reported with its path, first differing
 * line and both transcripts; the depth and path caps stop where they say; the set comparison of
 * `seeds=N` pairs finds an outcome only one engine produces; the header is read or refused; and
 * inkjs stays out of the package's own code.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importsOf, packageOf, sourceFiles } from '../../../../tools/import-graph.ts'
import { comparePaths, differs, formatComparison, runPair, summarize } from './compare.ts'
import { checkPair, compileInk, inkPlayer, type Player, pairSource, spkgPlayer } from './engines.ts'
import { readOptions, readPair } from './pair.ts'

const dir = join(import.meta.dirname, 'self-test')

describe('the harness reports a difference', () => {
  it('finds both differences of the mismatched pair, path by path', async () => {
    const { comparison } = await runPair(readPair(dir, 'mismatched'))
    expect(differs(comparison)).toBe(true)
    // the first path agrees; the second differs at its 5th line, and only there
    expect(comparison.paths).toBe(2)
    expect(summarize(comparison)).toBe('[1] line 5: ink | Nobody answers. / spkg | Somebody answers.')
  })

  it('prints the pair, the path, the first differing line and both transcripts', async () => {
    const { comparison } = await runPair(readPair(dir, 'mismatched'))
    expect(formatComparison(comparison)).toBe(
      [
        "pair 'mismatched' differs on path [1] (menu indices from 0) at line 5:",
        '  ink:  | Nobody answers.',
        '  spkg: | Somebody answers.',
        '--- ink',
        '    1  | The door is red.',
        '    2  ? Open it',
        '    3  ? Knock',
        '    4  > Knock',
        '>>  5  | Nobody answers.',
        '    6  -- end',
        '--- spkg',
        '    1  | The door is red.',
        '    2  ? Open it',
        '    3  ? Knock',
        '    4  > Knock',
        '>>  5  | Somebody answers.',
        '    6  -- end',
        '',
      ].join('\n'),
    )
  })

  it('reports a transcript cut short, and a pause one engine has and the other not', async () => {
    const fake = (engine: 'ink' | 'spkg', lines: string[], menu?: number): Player => ({
      engine,
      walk: async () => ({ lines, ...(menu === undefined ? {} : { menu }) }),
    })
    const ends = await comparePaths('x', fake('ink', ['| a', '-- end']), fake('spkg', ['| a']), {
      depth: 6,
      paths: 500,
    })
    expect(summarize(ends)).toBe('[] line 2: ink -- end / spkg (nothing: the walk stops here)')
    const pause = await comparePaths('x', fake('ink', ['? a'], 1), fake('spkg', ['-- end']), {
      depth: 6,
      paths: 500,
    })
    expect(summarize(pause)).toBe('[] line 1: ink ? a / spkg -- end')
  })

  it('finds an outcome only one engine can produce when comparing sets over seeds', async () => {
    const { comparison } = await runPair(readPair(dir, 'random-mismatched'))
    expect(comparison.onlyInk).toEqual([['| You roll 3.', '-- end']])
    expect(comparison.onlySpkg).toEqual([])
    expect(formatComparison(comparison)).toContain(
      "pair 'random-mismatched': a transcript only ink produces:",
    )
  })
})

describe('the caps', () => {
  it('stops every path at the depth cap and counts it', async () => {
    const pair = readPair(dir, 'branching')
    const { comparison } = await runPair(pair)
    expect(pair.options).toMatchObject({ depth: 3, paths: 500 })
    expect(comparison).toMatchObject({ paths: 27, capped: 27, truncated: false, mismatches: [] })
  })

  it('stops the exploration at the path cap, in menu order', async () => {
    const pair = readPair(dir, 'branching')
    const ink = compileInk(pair.ink).story!
    const paths: string[] = []
    const spkg = spkgPlayer(pair)
    const recording: Player = {
      engine: 'spkg',
      walk: async (path, seed) => {
        paths.push(path.join(''))
        return spkg.walk(path, seed)
      },
    }
    const comparison = await comparePaths(pair.name, inkPlayer(ink), recording, { depth: 3, paths: 5 })
    expect(comparison).toMatchObject({ paths: 5, capped: 5, truncated: true })
    expect(paths).toEqual(['', '0', '00', '000', '001', '002', '01', '010', '011'])
  })
})

describe('pair files', () => {
  it('reads the header options, and refuses what it cannot read', () => {
    expect(readOptions('// parity: depth=3 paths=7\n// parity: lang=1.1 seeds=4\nText.')).toEqual({
      depth: 3,
      paths: 7,
      lang: '1.1',
      seeds: 4,
    })
    expect(readOptions('Text.\n// parity: depth=3')).toEqual({ depth: 6, paths: 500 })
    expect(() => readOptions('// parity: depth=0')).toThrow(/cannot read 'depth=0'/)
    expect(() => readOptions('// parity: colour=red')).toThrow(/cannot read 'colour=red'/)
  })

  it('passes the story language of the header on to the engine, in the story source', async () => {
    const pair = readPair(dir, 'lang')
    expect(pairSource(pair).lang).toBe('2.0')
    // a version the engine cannot read: a run plays nothing but that diagnostic and the end
    const { lines } = await spkgPlayer(pair).walk([], 1)
    expect(lines.map((l) => l.replace(/: .*/, ''))).toEqual(['! story/lang-version', '-- end'])
    const unset = { ...pair, options: { depth: 2, paths: 500 } }
    expect(pairSource(unset)).not.toHaveProperty('lang')
    expect((await spkgPlayer(unset).walk([], 1)).lines).toEqual(['| Hello.', '-- end'])
  })

  it('passes the story language of the header on to the checker', () => {
    const pair = readPair(dir, 'lang')
    expect(pair.options.lang).toBe('2.0')
    expect(checkPair(pair).map((d) => d.replace(/: .*/, ''))).toEqual([
      'manifest.json error story/lang-version',
    ])
    expect(checkPair({ ...pair, options: { ...pair.options, lang: '1.1' } })).toEqual([])
  })

  it('reports ink that does not compile, and its warnings', () => {
    expect(compileInk('-> nowhere').errors.join('\n')).toMatch(/nowhere/)
    expect(compileInk('-> k\n== k ==\nText.').warnings.join('\n')).toMatch(/loose end/)
    expect(compileInk('Hello.\n-> END')).toMatchObject({ errors: [], warnings: [] })
  })
})

it('inkjs is a dev dependency only: no file of src/ imports it', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'))
  expect(pkg.devDependencies.inkjs).toBe('2.4.0')
  expect(pkg.dependencies.inkjs).toBeUndefined()
  const src = join(import.meta.dirname, '../../src')
  const importers = sourceFiles(src).filter((f) =>
    importsOf(readFileSync(f, 'utf8'), f).some((i) => packageOf(i.specifier) === 'inkjs'),
  )
  expect(importers).toEqual([])
})
