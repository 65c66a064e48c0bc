// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
import { describe, expect, it } from 'vitest'
import { checkStory } from './check/check-story.ts'
import { parseStory } from './parse/parse-story.ts'
import { editDistance, nearestName } from './suggest.ts'

describe('did you mean', () => {
  it('counts insertions, deletions, substitutions and swaps, stopping past the bound', () => {
    expect(editDistance('muddyshoes', 'mudyshoes', 2)).toBe(1)
    expect(editDistance('kitchen', 'kichten', 2)).toBe(2)
    expect(editDistance('set', 'ste', 1)).toBe(1)
    expect(editDistance('gold', 'silver', 2)).toBe(3)
  })

  it('suggests the nearest name only when it is a slip of the keyboard', () => {
    expect(nearestName('mudyshoes', ['gold', 'muddyshoes'])).toBe('muddyshoes')
    expect(nearestName('Gold', ['gold'])).toBe('gold')
    expect(nearestName('hp', ['xp', 'hp'])).toBeUndefined()
    expect(nearestName('cat', ['dog'])).toBeUndefined()
    expect(nearestName('abcd', ['abxy'])).toBeUndefined()
  })

  it('suggests the nearest id, variable and function in the messages', () => {
    const msg = (src: string) =>
      checkStory({ parts: { 'story/a.sty': src }, order: ['story/a.sty'] })
        .filter((d) => d.severity === 'error')
        .map((d) => `${d.code}: ${d.message}`)
    expect(msg('# K [#kitchen]\n-> #kichen')).toEqual([
      "story/unknown-id: no heading, anchor or group '#kichen'; did you mean '#kitchen'?",
    ])
    expect(msg('{set gold = 1}\n${gld}')).toEqual([
      "story/undeclared: 'gld' is never given a value; did you mean 'gold'? Otherwise declare it with '{set gld = …}' in a declaration block, a module or session.json",
    ])
    expect(msg('${rol(1, 6)}')).toEqual([
      "story/unknown-function: no function 'rol': it is not a built-in and no module this file uses declares it; did you mean 'roll'?",
    ])
    expect(
      checkStory({
        parts: { 'story/a.sty': '[[ b.sty:cellr ]]', 'story/b.sty': '# C [#cellar]\n-> END' },
        order: ['story/a.sty', 'story/b.sty'],
      }).map((d) => d.message),
    ).toContain("'story/b.sty' has no heading, anchor or group '#cellr'; did you mean 'cellar'?")
    const parsed = parseStory('# H [#hall]\n${visits(#hal)}', { path: 'a.sty' }).diagnostics
    expect(parsed.map((d) => d.message)).toEqual(["no heading '#hal' in this file; did you mean '#hall'?"])
  })
})
