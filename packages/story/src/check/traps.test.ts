// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The whole-package checks for the silent traps of a port from ink each row gives a
 * one-part story (`story/a.sty`, extra parts after it) and exactly the findings it must give.
 */
import { describe, expect, it } from 'vitest'
import { type CheckStoryInput, checkStory } from './check-story.ts'

const run = (input: CheckStoryInput, code: string) =>
  checkStory(input)
    .filter((d) => d.code === code)
    .map((d) => `${d.path}:${d.line}:${d.column}`)
const one = (src: string, code: string, parts: Record<string, string> = {}) =>
  run({ order: ['story/a.sty', ...Object.keys(parts)], parts: { 'story/a.sty': src, ...parts } }, code)

describe('story/fall-through', () => {
  const code = 'story/fall-through'
  it.each([
    [
      'a section without a jump into a jumped-to sibling',
      '## Kitchen [#kitchen]\nThe kettle sings.\n## Cellar [#cellar]\nDark.\n-> #kitchen\n## Hall [#hall]\n-> #cellar',
      ['story/a.sty:3:1'],
    ],
    [
      'a subsection into its parent’s sibling',
      '# A [#a]\n## Sub\ntext\n# B [#b]\n-> END\n# C [#c]\n* go -> #b',
      ['story/a.sty:4:1'],
    ],
    [
      'a group whose option goes on after it',
      '# A [#a]\n* Stay [#s]\n  You stay.\n* Leave [#l] -> #b\n# B [#b]\n-> END',
      ['story/a.sty:5:1'],
    ],
    ['an {if} without {else}', '# A [#a]\n{if x}\n-> #b\n{end}\n# B [#b]\n-> END', ['story/a.sty:5:1']],
  ])('%s', (_name, src, expected) => {
    expect(one(src, code)).toEqual(expected)
  })

  it.each([
    ['a plain document (nobody jumps)', '# Harbour\nGulls.\n## Pier\nEmpty.\n## Boat\nSmall.'],
    ['a section that ends with a jump', '# A [#a]\ntext\n-> #b\n# B [#b]\n-> #a'],
    ['the deliberate fall-through: its jump above the heading', '# A [#a]\ntext\n-> #b\n# B [#b]\n-> END'],
    ['`-> END` and a gate', '# A [#a]\n-> END\n# B [#b]\n[[ a.sty:b ]]\n# C [#c]\n-> #c'],
    ['a group whose options all jump', '# A [#a]\n* x -> #b\n* y\n  -> #b\n# B [#b]\n-> END'],
    ['an {if} whose branches all jump', '# A [#a]\n{if x}\n-> #b\n{else}\n-> END\n{end}\n# B [#b]\n-> END'],
    ['a parent into its own subsection', '# Bar [#bar]\nThe bar.\n## Talk [#talk]\n* Ask [#ask] -> #talk'],
    ['the opening (h0) into the first heading', 'Intro.\n# Start [#start]\n* Again [#a] -> #start'],
    ['an empty section (a heading right above another)', '# A [#a]\n# B [#b]\n-> #b'],
    ['into a silent section', '# A [#a]\ntext\n# [#loop]\n* Again [#g] -> #loop'],
  ])('silent: %s', (_name, src) => {
    expect(one(src, code)).toEqual([])
  })

  it('counts gates and links from other parts as targets, and names both sections', () => {
    const parts = { 'story/b.sty': 'Go [back > a.sty:cellar].' }
    const ds = checkStory({
      order: ['story/a.sty', 'story/b.sty'],
      parts: {
        'story/a.sty':
          '## Kitchen [#kitchen]\nThe kettle sings.\n## [#x]\nA draught.\n## Cellar [#cellar]\nDark.\n-> END',
        ...parts,
      },
    }).filter((d) => d.code === code)
    expect(ds.map((d) => [d.line, d.severity, d.message])).toEqual([
      [
        5,
        'warning',
        "the section #x (line 3) ends without a jump, so play falls through into 'Cellar', which a link in story/b.sty also enters; end #x with a jump or '-> END', or write '-> #cellar' right above this heading if falling through is meant",
      ],
    ])
  })
})

describe('story/unused-variable', () => {
  const code = 'story/unused-variable'
  it('reports a variable nothing reads once, at its first assignment, with the name meant', () => {
    const src =
      '{set muddyshoes = false}\nYou cross the yard.\n{set mudyshoes = true}\n{set mudyshoes = false}\n{if muddyshoes}The maid frowns.{end}'
    const ds = checkStory({ parts: { 'story/a.sty': src }, order: ['story/a.sty'] })
    expect(ds.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`)).toEqual([
      "3:6 warning story/unused-variable: 'mudyshoes' is assigned but nothing in the story reads it; did you mean 'muddyshoes'?",
    ])
  })

  it.each([
    ['read in another part', '{set gold = 1}\n[[ b.sty ]]', { 'story/b.sty': '${gold}' }, []],
    ['read by a module function', '{use m}\n{set gold = 1}\n${double()}', {}, []],
    ['`+=` is no read', '{set score = 0}\n{set score += 1}', {}, ['story/a.sty:1:6']],
    ['a local is no story variable', '# A\n{local x = 1}', {}, []],
  ])('%s', (_name, src, parts, expected) => {
    const input = {
      order: ['story/a.sty', ...Object.keys(parts)],
      parts: { 'story/a.sty': src, ...parts },
      modules: { 'extensions/m.xty': '{fn double() = gold * 2}' },
    }
    expect(run(input, code)).toEqual(expected)
  })

  it('leaves session keys and the tab bar’s variables to the host', () => {
    const input = { order: ['story/a.sty'], parts: { 'story/a.sty': '{set hint = "x"}\n{set seen = 1}' } }
    expect(run(input, code)).toEqual(['story/a.sty:1:6', 'story/a.sty:2:6'])
    expect(run({ ...input, session: { seen: 0 }, hostVariables: ['hint'] }, code)).toEqual([])
  })
})

describe('story/endless-loop, statically', () => {
  const code = 'story/endless-loop'
  it.each([
    [
      'two sections jumping to each other',
      '## [#a]\nText.\n-> #b\n## [#b]\nMore.\n-> #a',
      ['story/a.sty:6:4'],
    ],
    ['a jump to itself', '[#a]\n-> #a', ['story/a.sty:2:4']],
    [
      'a group on the way, its option going on after it',
      '# A [#a]\n* Go [#g]\n  x\n-> #b\n[#b]\nText.\n-> #a',
      [],
    ],
    ['an {if} with no jump inside', '[#a]\n{if x}\nHi.\n{end}\n-> #a', ['story/a.sty:5:4']],
  ])('%s', (_name, src, expected) => {
    expect(one(src, code)).toEqual(expected)
  })

  it.each([
    ['a group on the way', '[#a]\nText.\n* Again [#g] -> #a'],
    ['an {if} that can leave', '[#a]\nText.\n{if x}\n-> END\n{end}\n-> #a'],
    ['a link on the way', '[#a]\nGo [on > b.sty].\n-> #a'],
    ['a gate or -> END', '[#a]\n-> #b\n[#b]\n[[ a.sty ]]'],
  ])('silent: %s', (_name, src) => {
    expect(one(src, code, { 'story/b.sty': 'B.' })).toEqual([])
  })
})
