/**
 * `run.progress`: how far the reader is through the current part, for a progressive loader's
 * 80% rule.
 */
import { describe, expect, it } from 'vitest'
import { memorySource } from '../../test/helpers/play.ts'
import { createStoryRun } from './create-story-run.ts'

describe('run.progress', () => {
  it('rises through a part, counts a skipped branch as passed, restarts in the next part and ends at 1', async () => {
    const a = [
      'One.',
      'Two.',
      '* Stay',
      '  Stayed.',
      '* Go',
      '  [[ b.sty ]]',
      '{if false}',
      ...Array.from({ length: 20 }, (_, i) => `Never ${i}.`),
      '{end}',
      'Three.',
      '[[ b.sty ]]',
    ].join('\n')
    const run = createStoryRun(memorySource({ 'a.sty': a, 'b.sty': 'B one.\nB two.\nB three.' }), { seed: 1 })
    expect(run.progress).toBeUndefined()
    const seen: Array<{ part: string; fraction: number }> = []
    for (let e = await run.next(); e; e = await run.next()) {
      if (e.type === 'block') seen.push(run.progress!)
      if (e.type === 'pause') run.choose({ option: e.options[0]!.id })
    }
    const inA = seen.filter((p) => p.part === 'a.sty').map((p) => p.fraction)
    const inB = seen.filter((p) => p.part === 'b.sty').map((p) => p.fraction)
    // Never falls within a part; the pause comes well before the end of a.sty.
    for (const list of [inA, inB]) expect([...list].sort((x, y) => x - y)).toEqual(list)
    expect(inA[0]!).toBeLessThan(0.5)
    // Past the skipped block of twenty paragraphs, a.sty is nearly done.
    expect(inA[inA.length - 1]!).toBeGreaterThan(0.8)
    expect(inB[0]!).toBeLessThan(0.8)
    expect(run.ended).toBe(true)
    expect(run.progress).toEqual({ part: 'b.sty', fraction: 1 })
  })
})
