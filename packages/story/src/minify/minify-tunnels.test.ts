// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The minifier and 1.1 tunnels and threads: the ids in tunnel, return and thread targets are
 * renamed with every other reference, the minified build plays the original's transcripts, and a
 * state saved inside a tunnel or after a thread's choice (`tunnels`, `<group` answers) resumes
 * across builds.
 */
import { fc, test } from '@fast-check/vitest'
import type { NamesMap, StorySourceLike } from '@spkg/manifest'
import { expect } from 'vitest'
import { createStoryRun } from '../run/create-story-run.ts'
import { resumeStoryRun } from '../run/resume-story-run.ts'
import type { StoryEvent, StoryRun } from '../run/types.ts'
import { translateEventNames } from './event-names.ts'
import { minifyStory, type StoryFile } from './minify-story.ts'

const FILES: StoryFile[] = [
  {
    path: 'story/0001-a.sty',
    text: `{set coins = 1}
# Market square [#market-square]
// the shop is a tunnel
-> #shopkeeper ->
<- #gossiping
-> 0002-b.sty:wander ->
[#square-choice]
* Rest a while [#rest]
  -> 0002-b.sty:dream-hall ->
  Rested with \${coins}.
+ {if visits(#market-square) > 2} Leave -> END
+ Again -> #market-square
# Shopkeeper [#shopkeeper]
[#counter]
* Buy bread [#bread]
  {set coins -= 1}
+ Haggle
  -> #haggling ->
->->
# Haggling [#haggling]
You haggle.
->-> #market-square
# Gossip [#gossiping]
[#rumours]
* Ask about the road [#road]
  "North."
+ Small talk
  -> #market-square
`,
  },
  {
    path: 'story/0002-b.sty',
    text: `Side.
## Dream hall [#dream-hall]
[#dreams]
* Dream
  A dream \${coins}.
+ Wake
->->
[#wander]
->->
`,
  },
]

const sourceOf = (files: StoryFile[], names?: NamesMap): StorySourceLike => ({
  parts: files.map((f) => f.path),
  readPart: (p) => files.find((f) => f.path === p)?.text,
  lang: '1.1',
  id: 'tunnels',
  ...(names ? { names } : {}),
})

const line = (e: StoryEvent) =>
  e.type === 'diagnostic' ? `diagnostic ${e.diagnostic.code}` : JSON.stringify(e)

async function walk(run: StoryRun, picks: readonly number[], names?: NamesMap): Promise<string[]> {
  const lines: string[] = []
  let k = 0
  for (let i = 0; i < 3000; i++) {
    const e = await run.next()
    if (e === undefined) break
    if (!('replay' in e && e.replay)) lines.push(line(names ? translateEventNames(e, names, 'original') : e))
    if (e.type === 'pause') {
      if (e.replay) continue
      if (k >= picks.length) break
      run.choose({ option: e.options[picks[k++]! % e.options.length]!.id })
    }
  }
  return lines
}

const { files: MIN, names: NAMES } = minifyStory(FILES, { renameAll: true, lang: '1.1' })

test('every id of a tunnel, return and thread target is renamed', () => {
  for (const id of ['market-square', 'shopkeeper', 'haggling', 'gossiping', 'dream-hall', 'wander'])
    expect(Object.values(NAMES.ids ?? {})).toContain(id)
  for (const f of MIN)
    expect(f.text).not.toMatch(/shopkeeper|haggling|gossiping|dream-hall|wander|market-square/)
})

test.prop([fc.nat({ max: 1000 }), fc.array(fc.nat({ max: 7 }), { maxLength: 14 })], { numRuns: 60 })(
  'minified and original play the same transcripts; states resume across builds',
  async (seed, picks) => {
    const a = createStoryRun(sourceOf(FILES), { seed })
    const b = createStoryRun(sourceOf(MIN, NAMES), { seed })
    expect(await walk(b, picks, NAMES)).toEqual(await walk(a, picks))
    if (a.ended) return
    expect(b.saveState()).toEqual(a.saveState())
    const onMin = await resumeStoryRun(sourceOf(MIN, NAMES), a.saveState())
    const onOrig = await resumeStoryRun(sourceOf(FILES), b.saveState())
    expect(onMin.diagnostics).toEqual([])
    expect(onOrig.diagnostics).toEqual([])
    expect(await walk(onMin.run, [1, 2, 0], NAMES)).toEqual(await walk(onOrig.run, [1, 2, 0]))
  },
)
