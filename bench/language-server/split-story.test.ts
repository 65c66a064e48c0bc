import { checkStory } from '@spkg/story'
import { describe, expect, it } from 'vitest'
import { sectionTargets } from '../story/generate.ts'
import { splitBenchStory } from './split-story.ts'

describe('bench story split into parts', () => {
  it('keeps every section and turns jumps into other parts into gates the checker accepts', () => {
    const story = splitBenchStory(100, 20)
    expect(story.parts).toHaveLength(5)
    const all = story.parts.map((p) => story.files[p]!).join('\n')
    expect(all.match(/^# Room \d+ \[#s\d+\]$/gm)).toHaveLength(100)
    const crossing = sectionTargets(100)
      .flatMap((targets, i) => targets.map((t) => [i, t] as const))
      .filter(([i, t]) => Math.floor(i / 20) !== Math.floor(t / 20)).length
    expect(all.match(/^ {2}\[\[ \d{4}-rooms\.sty:s\d+ \]\]$/gm)).toHaveLength(crossing)
    const found = checkStory({
      parts: Object.fromEntries(story.parts.map((p) => [p, story.files[p]!])),
      order: story.parts,
      modules: { 'extensions/lib.xty': story.files['extensions/lib.xty']! },
    })
    expect(found.filter((d) => d.severity === 'error')).toEqual([])
    expect(new Set(found.map((d) => d.code))).toEqual(new Set(['story/implicit-ids']))
  })
})
