// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The fast path checks the edited part against stand-ins of the other parts; it must report
 * exactly what a full check of the folder reports for that part.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkStory } from '@spkg/story'
import { describe, expect, it } from 'vitest'
import { WHOLE_FOLDER_CODES } from '../src/analysis/summarize-part.ts'
import { StoryFolder } from '../src/node/story-folder.ts'
import { FIXTURE } from './fixture.ts'
import { writeFolder } from './helpers/lsp-client.ts'

function expectSameAsFullCheck(folder: StoryFolder) {
  const full = checkStory(folder.checkInput())
  let compared = 0
  for (const part of folder.partPaths()) {
    const mine = (d: { path?: string; code: string }) => d.path === part && !WHOLE_FOLDER_CODES.has(d.code)
    const fast = checkStory(folder.checkInput(part)).filter(mine)
    expect(fast, part).toEqual(full.filter(mine))
    compared += fast.length
  }
  return compared
}

describe('checking one part against stand-ins of the others', () => {
  it('reports what the full check reports, on the example story', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-ls-inn-'))
    cpSync(fileURLToPath(new URL('../../../examples/crooked-inn', import.meta.url)), dir, { recursive: true })
    expectSameAsFullCheck(new StoryFolder(dir, true))
  })

  it('reports what the full check reports for 1.1 sets across parts', () => {
    const dir = writeFolder({
      'manifest.json': JSON.stringify({ story_lang: '1.1', parts: ['story/0001-a.sty', 'story/0002-b.sty'] }),
      'extensions/kit.xty': '{items Tools = rope, lamp}\n',
      'story/0001-a.sty': '{use kit}\n{items Moods = calm}\n{set inv = Tools(rope)}\nHi.\n',
      'story/0002-b.sty': '{use kit}\n{items Moods = wary}\n# B\n{set inv = inv - ["rope"]}\n${inv}\n',
    })
    const folder = new StoryFolder(dir, true)
    const codes = checkStory(folder.checkInput()).map((d) => `${d.path} ${d.code}`)
    expect(codes).toEqual([
      'story/0002-b.sty story/duplicate-declaration',
      'story/0002-b.sty story/type-error',
    ])
    expect(expectSameAsFullCheck(folder)).toBe(2)
  })

  it('reports what the full check reports, for cross-part errors, warnings and infos', () => {
    const dir = writeFolder({
      ...FIXTURE,
      'story/0003-far.sty': [
        '{local x = 1}',
        '# Far [#far]',
        '{local gold = 2}',
        'Reads ${hp} and ${nobody} and ${visits(#far)}. [back > 0001-inn.sty:bar] [no > 0001-inn.sty:drink]',
        '* Once',
        '* Twice [#two]',
        '[[ 0002-road.sty:fork ]]',
        '## Dead [#dead]',
        '[[ 0009-none.sty ]]',
        '',
      ].join('\n'),
      'story/0004-orphan.sty': '{seed 3}\n{set gold += 1}\n{set fresh = gold}\n[[ 0001-inn.sty:h1 ]]\n',
    })
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        parts: ['story/0001-inn.sty', 'story/0002-road.sty', 'story/0003-far.sty', 'story/0004-orphan.sty'],
      }),
    )
    const folder = new StoryFolder(dir, true)
    // Several cross-part codes are in play, so the comparison is not of empty lists.
    const codes = new Set(checkStory(folder.checkInput()).map((d) => d.code))
    expect([...codes]).toEqual(
      expect.arrayContaining([
        'story/unknown-id',
        'story/not-a-target',
        'story/undeclared',
        'story/shadowing',
        'story/unknown-part',
        'story/unreachable',
        'story/seed-placement',
      ]),
    )
    expect(expectSameAsFullCheck(folder)).toBeGreaterThan(6)
  })
})
