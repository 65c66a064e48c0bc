import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { ReadingState } from '@spkg/manifest'
import { translateStateNames } from '@spkg/state'
import { createStoryRun, minifyStory, resumeStoryRun, type StoryFile, type StoryRun } from '@spkg/story'
import { describe, expect, it } from 'vitest'

const INN = resolve(__dirname, '../../../../examples/crooked-inn/story')
const original: StoryFile[] = readdirSync(INN)
  .sort()
  .map((f) => ({ path: `story/${f}`, text: readFileSync(join(INN, f), 'utf8') }))
const source = (files: readonly StoryFile[]) => ({
  id: 'inn',
  version: '1.0.0',
  parts: files.map((f) => f.path),
  readPart: (p: string) => files.find((f) => f.path === p)?.text,
})

/** Events up to the next pause or the end, replays left out. */
async function until(run: StoryRun): Promise<string[]> {
  const out: string[] = []
  for (;;) {
    const e = await run.next()
    if (!e || e.type === 'end') return out
    if (!('replay' in e && e.replay)) out.push(JSON.stringify(e))
    if (e.type === 'pause') return out
  }
}

describe('translateStateNames (@spkg/state) on a minified build', () => {
  it('a state saved on the original resumes on the minified build and back, playing on the same', async () => {
    const { files: minified, names } = minifyStory(original)
    const run = createStoryRun(source(original), { seed: 3 })
    await until(run)
    run.choose({ link: 'story/0003-forest.sty:edge' })
    await until(run)
    const saved: ReadingState = run.saveState()
    expect(saved.variables.gold).toBe(2)
    // Saved values beat replayed ones: a value the replay would not recompute shows the translation.
    saved.variables.gold = 7
    const forMin = translateStateNames(saved, names, 'minified')
    const short = Object.keys(names.variables).find((s) => names.variables[s] === 'gold')!
    expect(forMin.variables[short]).toBe(7)
    expect(forMin.variables.gold).toBeUndefined()
    expect(forMin.choices).toEqual(saved.choices)
    const onMin = await resumeStoryRun(source(minified), forMin)
    const onOrig = await resumeStoryRun(source(original), saved)
    expect(onMin.diagnostics).toEqual([])
    expect(onOrig.diagnostics).toEqual([])
    expect(await until(onMin.run)).toEqual(await until(onOrig.run))
    expect(onMin.run.saveState().variables[short]).toBe(7)
    expect(onMin.run.saveState().variables.gold).toBeUndefined()
    onMin.run.choose({ option: '1' })
    onOrig.run.choose({ option: '1' })
    expect(await until(onMin.run)).toEqual(await until(onOrig.run))
    // Back: the minified build's state resumes on the original sources.
    const back = translateStateNames(onMin.run.saveState(), names, 'original')
    expect(back.variables.gold).toBe(7)
    const again = await resumeStoryRun(source(original), back)
    expect(again.diagnostics ?? []).toEqual([])
  })
})
