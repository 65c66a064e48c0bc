// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/** Hover names a 1.1 set variable's type: the declaration it is a set of. */
import { describe, expect, it } from 'vitest'
import { hover } from '../src/analysis/features.ts'
import { StoryFolder } from '../src/node/story-folder.ts'
import { writeFolder } from './helpers/lsp-client.ts'

describe('hover on a 1.1 set', () => {
  it('says which declaration a variable is a set of, from a part or a module', () => {
    const dir = writeFolder({
      'manifest.json': JSON.stringify({ story_lang: '1.1', parts: ['story/a.sty'] }),
      'story/a.sty':
        '{use kit}\n{items Moods = calm, wary}\n{set mood = Moods.calm}\nYou carry ${bag}, ${mood}.\n{set seen = Moods(wary)}\n${seen}\n',
      'extensions/kit.xty': '{items Kit = rope, lamp}\n{set bag = Kit(rope)}\n',
    })
    const folder = new StoryFolder(dir, true)
    expect(hover(folder, 'story/a.sty', { line: 3, character: 13 })).toBe(
      '`bag`: story variable (set of Kit)\n\n- module default in extensions/kit.xty:2',
    )
    expect(hover(folder, 'story/a.sty', { line: 3, character: 21 })).toBe(
      '`mood`: story variable (set of Moods)\n\n- default in story/a.sty:3',
    )
    // a plain {set} in the body, not only a default
    expect(hover(folder, 'story/a.sty', { line: 5, character: 3 })).toBe(
      '`seen`: story variable (set of Moods)\n\n- assigned in story/a.sty:5',
    )
  })
})
