import { createStoryRun, parseStory } from '@spkg/story'
import { Compiler, Story } from 'inkjs/full'
import { describe, expect, it } from 'vitest'
import { mulberry32, spkgBenchSource } from './generate'
import { altsTargets, generateAltsInkStory, generateAltsSpkgStory } from './generate-alts'

/** `count` choices of the same seeded walker on both engines: their texts, pause by pause. */
async function walkBoth(sections: number, count: number) {
  const compiler = new Compiler(generateAltsInkStory(sections).source)
  const json = compiler.Compile().ToJson()
  expect(compiler.errors).toEqual([])
  const ink = new Story(json as string)
  const run = createStoryRun(spkgBenchSource(generateAltsSpkgStory(sections)), {})
  const pick = mulberry32(5)
  const inkOut: string[] = []
  const spkgOut: string[] = []
  for (let k = 0; k < count; k++) {
    const p = pick()
    while (ink.canContinue) inkOut.push((ink.Continue() ?? '').trim())
    inkOut.push(`? ${ink.currentChoices.map((c) => c.text).join(' | ')}`)
    ink.ChooseChoiceIndex(Math.floor((p * ink.currentChoices.length) / 2 ** 32))
    for (;;) {
      const ev = await run.next()
      if (ev === undefined) throw new Error('the spkg story ended')
      if (ev.type === 'diagnostic') throw new Error(ev.diagnostic.message)
      if (ev.type === 'block') spkgOut.push(ev.block.text)
      if (ev.type === 'pause') {
        spkgOut.push(`? ${ev.options.map((o) => o.text).join(' | ')}`)
        run.choose({ option: ev.options[Math.floor((p * ev.options.length) / 2 ** 32)]!.id })
        break
      }
    }
  }
  return { inkOut, spkgOut }
}

describe('bench 1.1 story generator', () => {
  it('never makes a section its own target', () => {
    altsTargets(200).forEach((row, i) => {
      expect(row).not.toContain(i)
    })
  })

  it('produces a 1.1 story that parses cleanly, using its constructs in every section', () => {
    const story = generateAltsSpkgStory(5)
    expect(parseStory(story.part, { path: 'story/0001-rooms.sty', lang: '1.1' }).diagnostics).toEqual([])
    // five per section, and the aside's cycle
    expect(story.part.match(/\{(seq|cycle|once|shuffle)[ }]/g)).toHaveLength(26)
    expect(story.part.match(/(visits|turns)\(#/g)).toHaveLength(25)
    expect(story.part.match(/^-> #aside ->$/gm)).toHaveLength(5)
    expect(story.part.match(/\{set bag [+-]= \w+\}/g)).toHaveLength(10)
    expect(story.part.match(/\{if contains\(bag, \w+\)\}/g)).toHaveLength(5)
  })

  it('plays the same text as its ink twin, shuffled words aside, over 600 choices', async () => {
    const { inkOut, spkgOut } = await walkBoth(40, 600)
    // the walk goes through the tunnel, fills the bag and takes the set-guarded options
    expect(spkgOut.filter((l) => l.startsWith('A gull ')).length).toBeGreaterThan(500)
    expect(spkgOut.some((l) => l.includes('You carry rope, lamp, key.'))).toBe(true)
    expect(spkgOut.some((l) => l.includes('Your bag is empty.'))).toBe(true)
    expect(spkgOut.some((l) => /\| Use the \w+/.test(l))).toBe(true)
    const unshuffled = (lines: string[]) => lines.map((l) => l.replace(/smells of \w+/, 'smells of ?'))
    expect(unshuffled(spkgOut)).toEqual(unshuffled(inkOut))
    // both show every smell once in each round of three visits of a room
    for (const out of [inkOut, spkgOut]) {
      const rooms = new Map<string, string[]>()
      let room = ''
      for (const l of out) {
        const m = /^You are in room (\d+)\./.exec(l)
        if (m) room = m[1]!
        const s = /smells of (\w+)/.exec(l)
        if (s) rooms.set(room, [...(rooms.get(room) ?? []), s[1]!])
      }
      for (const smells of rooms.values())
        for (let r = 0; r + 3 <= smells.length; r += 3)
          expect(smells.slice(r, r + 3).sort()).toEqual(['dust', 'rain', 'smoke'])
    }
  })
})
