// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The minifier on the 1.1 constructs of glue, mid-line jumps, choice text, part constants and
 * options under a block `{if}`: their ids and names are renamed through the names map, the
 * minified story plays the original's transcripts (told with the original names) on many walks,
 * and a state saved on one build resumes on the other.
 */
import type { NamesMap } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import type { StoryLang } from '../lang.ts'
import { createStoryRun } from '../run/create-story-run.ts'
import { resumeStoryRun } from '../run/resume-story-run.ts'
import type { StoryEvent } from '../run/types.ts'
import { translateEventNames } from './event-names.ts'
import { minifyStory, type StoryFile, unminifyStory } from './minify-story.ts'

const lang: StoryLang = '1.1'

const FILES: StoryFile[] = [
  {
    path: 'story/a.sty',
    text: `{use lib}
{const MAX_ROUNDS = LIMIT + 1}
{set wallet = 3}
// the market
# The Market [#market]
You arrive <>
{set rounds_taken = 0}
at the stalls -> #stalls
## [#stalls]
{set rounds_taken += 1}
and look around (round \${rounds_taken} of \${MAX_ROUNDS}).
[#offers]
* Haggle[.] hard for bread [#haggle]
  {set wallet -= 1}
  <> and win.
{if wallet > 1}
+ Buy[ a lamp] the lamp -> #stalls [#lamp]
{elif wallet > 0}
* Beg -> #stalls
{else}
* -> #broke
{end}
+ {if rounds_taken < MAX_ROUNDS} Wander on -> #stalls
+ Leave -> #broke
## [#broke]
You leave with \${wallet} coins<>
{insert farewell(wallet)}
`,
  },
  {
    path: 'extensions/lib.xty',
    text: '{const LIMIT = 2}\n{passage farewell(n)}\n<>, and ${n} memories.\n{end}\n',
  },
]

function source(files: readonly StoryFile[], names?: NamesMap) {
  return {
    parts: ['story/a.sty'],
    readPart: (p: string) => files.find((f) => f.path === p)?.text,
    modules: files.filter((f) => f.path.endsWith('.xty')).map((f) => ({ path: f.path, source: f.text })),
    lang,
    ...(names ? { names } : {}),
  }
}

async function walk(files: readonly StoryFile[], picks: number[], names?: NamesMap) {
  const run = createStoryRun(source(files, names), { seed: 3 })
  const lines: string[] = []
  let k = 0
  for (let i = 0; i < 500; i++) {
    const e: StoryEvent | undefined = await run.next()
    if (!e) break
    const told = names ? translateEventNames(e, names, 'original') : e
    lines.push(e.type === 'diagnostic' ? `diagnostic ${e.diagnostic.code}` : JSON.stringify(told))
    if (e.type === 'pause') {
      if (k >= picks.length) break
      run.choose({ option: e.options[picks[k++]! % e.options.length]!.id })
    }
  }
  return { lines, run }
}

describe('minifying the 1.1 constructs', () => {
  it('renames their ids and names, plays the same transcripts and crosses states between builds', async () => {
    const { files: min, names } = minifyStory(FILES, { renameAll: true, lang })
    const text = min.find((f) => f.path === 'story/a.sty')!.text
    expect(text).not.toMatch(/#stalls|#broke|rounds_taken|MAX_ROUNDS|wallet|LIMIT|farewell|\/\//)
    expect(text).toMatch(/<>/)
    expect(Object.values(names.ids ?? {}).sort()).toEqual(['broke', 'market', 'offers', 'stalls'])
    expect(Object.values(names.functions ?? {}).sort()).toEqual(['LIMIT', 'MAX_ROUNDS', 'farewell'])
    for (let s = 0; s < 24; s++) {
      const picks = [s, s >> 1, s >> 2, 1, s % 3, 0]
      const a = await walk(FILES, picks)
      const b = await walk(min, picks, names)
      expect(b.lines).toEqual(a.lines)
      if (a.run.ended) continue
      const fromOriginal = await resumeStoryRun(source(min, names), a.run.saveState())
      const fromMinified = await resumeStoryRun(source(FILES), b.run.saveState())
      expect(fromOriginal.diagnostics).toEqual([])
      expect(fromMinified.diagnostics).toEqual([])
      expect(fromOriginal.scrollBack.map((e) => e.block.text)).toEqual(
        fromMinified.scrollBack.map((e) => e.block.text),
      )
    }
    const back = unminifyStory(min, names, { lang })
    expect((await walk(back, [0, 1, 2])).lines).toEqual((await walk(FILES, [0, 1, 2])).lines)
  })
})
