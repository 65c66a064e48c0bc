import { createStoryRun, parseModule, parseStory } from '@spkg/story'
import { Compiler, Story } from 'inkjs/full'
import { describe, expect, it } from 'vitest'
import { generateInkStory, generateSpkgStory, mulberry32, sectionTargets } from './generate'

describe('bench story generator', () => {
  it('draws the mulberry32 test vectors of STORY-LANGUAGE.md §7', () => {
    const next = mulberry32(42)
    expect([next(), next(), next()]).toEqual([2581720956, 1925393290, 3661312704])
  })

  it('gives both languages the same sections and jump targets', () => {
    const spkg = generateSpkgStory(20)
    const ink = generateInkStory(20)
    const targets = sectionTargets(20)
    expect(spkg.part.match(/^# Room \d+ \[#s\d+\]$/gm)).toHaveLength(20)
    expect(ink.source.match(/^=== s\d+ ===$/gm)).toHaveLength(20)
    const spkgJumps = [...spkg.part.matchAll(/-> #s(\d+)$/gm)].map((m) => Number(m[1]))
    const inkJumps = [...ink.source.matchAll(/-> s(\d+)$/gm)].map((m) => Number(m[1])).slice(1)
    expect(spkgJumps).toEqual(targets.flat())
    expect(inkJumps).toEqual(targets.flat())
  })

  it('produces an ink story that inkjs compiles and plays with the expected text', () => {
    const compiler = new Compiler(generateInkStory(5).source)
    const json = compiler.Compile().ToJson()
    expect(compiler.errors).toEqual([])
    const story = new Story(json as string)
    expect(story.Continue()).toBe('Room 0\n')
    expect(story.Continue()).toBe('You are in room 0 with 1 coins. You feel poor.\n')
    expect(story.currentTags).toEqual(['room'])
    expect(story.Continue()).toMatch(/^The air weighs 1 and smells of (dust|rain|smoke)\. Visit 1\.\n$/)
    expect(story.Continue()).toMatch(/^A die shows [1-6]\.( Lucky!)?\n$/)
    expect(story.canContinue).toBe(false)
    expect(story.currentChoices.length).toBeGreaterThanOrEqual(3)
  })

  it('produces an spkg story that parses cleanly and plays the same text as the ink one', async () => {
    const story = generateSpkgStory(5)
    expect(parseStory(story.part, { path: 'story/0001-rooms.sty' }).diagnostics).toEqual([])
    expect(parseModule(story.module, { path: 'extensions/lib.xty' }).diagnostics).toEqual([])
    const run = createStoryRun(
      {
        parts: ['story/0001-rooms.sty'],
        readPart: () => story.part,
        modules: [{ path: 'extensions/lib.xty', source: story.module }],
      },
      {},
    )
    const texts: string[] = []
    for (;;) {
      const ev = await run.next()
      if (ev?.type === 'diagnostic') throw new Error(ev.diagnostic.message)
      if (ev?.type === 'block') texts.push(ev.block.text)
      if (!ev || ev.type === 'pause') {
        expect(ev?.options.length).toBeGreaterThanOrEqual(3)
        break
      }
    }
    expect(texts).toHaveLength(4) // as many blocks as ink's Continue() lines per section
    expect(texts[0]).toBe('Room 0')
    expect(texts[1]).toBe('You are in room 0 with 1 coins. You feel poor.')
    expect(texts[2]).toMatch(/^The air weighs 1 and smells of (dust|rain|smoke)\. Visit 1\.$/)
    expect(texts[3]).toMatch(/^A die shows [1-6]\.( Lucky!)?$/)
  })
})
