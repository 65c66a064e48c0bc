// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * Bad input never crashes or hangs the interpreter: random stories assembled from valid and broken
 * lines play to a pause or the end, and every saved state resumes.
 */
import { fc, test } from '@fast-check/vitest'
import { parseReadingState } from '@spkg/manifest'
import { expect } from 'vitest'
import { memorySource } from '../../test/helpers/play.ts'
import { createStoryRun } from './create-story-run.ts'
import { resumeStoryRun } from './resume-story-run.ts'
import type { StoryRun } from './types.ts'

const LINES = [
  '# Hall [#hall]',
  '## Room',
  '## [#quiet]',
  'Plain text with *em* and **strong**.',
  'Gold ${gold} and ${gold / 0} and ${[1, 2][5]} and ${nobody.x}.',
  '{set gold = 3}',
  '{set gold += d6}',
  '{set gold -= "x"}',
  '{local seen = visits()}',
  '{if gold > 2}',
  '{else}',
  '{end}',
  '* Take [#take]',
  '* {if gold > 4} Pay ${gold}',
  '+ Wait',
  '* -> #hall',
  '+ -> END',
  '  Inside the option.',
  '  -> #hall',
  '-> #hall',
  '-> #nowhere',
  '-> END',
  '[#spot]',
  '[[ b.sty ]]',
  '[[ story/missing.sty ]]',
  'Go [there > b.sty] or [here > a.sty:hall].',
  '![pic](img/a.png) #wide',
  '{insert status("x")}',
  '{call host.f(1)}',
  '{use combat}',
  '${pick([])} ${roll(0, 0)} ${random(3, 1)} ${len()}',
  '{unknown thing}',
  '{set broken = ',
  '${unclosed',
  '#tag:only',
  '',
  '// comment',
]

const story = fc.array(fc.constantFrom(...LINES), { maxLength: 30 }).map((l) => l.join('\n'))

async function drive(run: StoryRun, picks: number[]): Promise<number> {
  let n = 0
  let i = 0
  for (let e = await run.next(); e; e = await run.next()) {
    if (++n > 1500) break
    if (e.type === 'pause' && !e.replay) {
      const items = [...e.options.map((o) => ({ option: o.id })), ...e.links.map((l) => ({ link: l.target }))]
      if (i >= picks.length || items.length === 0) break
      run.choose(items[picks[i++]! % items.length]!)
    }
  }
  return n
}

test.prop([story, story, fc.array(fc.nat(9), { maxLength: 12 }), fc.nat(0xffffffff)], { numRuns: 50 })(
  'plays any mix of lines without throwing, and its state always resumes',
  async (a, b, picks, seed) => {
    const src = memorySource({ 'a.sty': a, 'b.sty': b }, { parts: ['a.sty', 'b.sty'] })
    const run = createStoryRun(src, { seed, host: { host: { f: () => 1 } } })
    await drive(run, picks)
    const state = run.saveState()
    expect(parseReadingState(state).state).toBeDefined()
    const resumed = await resumeStoryRun(src, state, { host: { host: { f: () => 1 } } })
    await drive(resumed.run, picks)
    expect(['story/resume-diverged', undefined]).toContain(resumed.diagnostics[0]?.code)
  },
)
