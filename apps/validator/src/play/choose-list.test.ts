import type { PauseEvent } from '@spkg/story'
import { describe, expect, it } from 'vitest'
import { UsageError } from '../cli-types'
import { describeChoices, formatAnswer, formatItem, parseChooseList, resolveChoice } from './choose-list'

/** A pause whose implicit option 1 is hidden: the menu shows 1) [2], 2) [map], 3) → a link. */
const pause: PauseEvent = {
  type: 'pause',
  key: 'bar.sty:talk',
  options: [
    { id: '2', text: 'Buy a drink', tags: [] },
    { id: 'map', text: 'Ask about the map', tags: [] },
  ],
  links: [{ target: 'story/0003-forest.sty:edge', text: 'forest path' }],
}

describe('parseChooseList', () => {
  it.each([
    ['1,map,2', [{ menu: 1 }, { option: 'map' }, { menu: 2 }]],
    [' 1 , map ', [{ menu: 1 }, { option: 'map' }]],
    ['>story/0003-forest.sty:edge', [{ link: 'story/0003-forest.sty:edge' }]],
    ['>story/0003-forest.sty,run', [{ link: 'story/0003-forest.sty' }, { option: 'run' }]],
    // '=' names an option by its id, also an id of digits that would otherwise be a menu number.
    ['=2,= map,2', [{ option: '2' }, { option: 'map' }, { menu: 2 }]],
    ['', []],
    // a thread's option (1.1): '<group>.<option>', the group implicit ('gossip@1') or named
    ['rumours.road,gossip@1.2', [{ option: 'rumours.road' }, { option: 'gossip@1.2' }]],
  ])('reads %j', (input, expected) => {
    expect(parseChooseList(input)).toEqual(expected)
  })

  it.each([
    ['1,,2', "--choose item 2 ('') is not a menu number"],
    ['>forest', "--choose item 1 ('>forest') is not a link target"],
    ['>../x.sty', "--choose item 1 ('>../x.sty') is not a link target"],
    ['two words', "--choose item 1 ('two words') is not a menu number"],
    ['=', "--choose item 1 ('=') is not '=' and an option id such as '=2'"],
    ['1,=a b', "--choose item 2 ('=a b') is not '=' and an option id"],
    ['a..b', "--choose item 1 ('a..b') is not a menu number"],
  ])('refuses %j with a usage error', (input, message) => {
    expect(() => parseChooseList(input)).toThrow(UsageError)
    expect(() => parseChooseList(input)).toThrow(message)
  })

  it('formats items back into the --choose form', () => {
    const list = '1,map,=2,>story/0003-forest.sty:edge'
    expect(parseChooseList(list).map(formatItem).join(',')).toBe(list)
  })
})

describe('resolveChoice: numbers are the menu numbers, as at the prompt', () => {
  it('picks options by menu position, then links, whatever the option ids', () => {
    expect(parseChooseList('1,2,3,4').map((i) => resolveChoice(i, pause))).toEqual([
      { option: '2' },
      { option: 'map' },
      { link: 'story/0003-forest.sty:edge' },
      undefined,
    ])
  })

  it('takes an offered id or link target, and nothing else', () => {
    expect(resolveChoice({ option: 'map' }, pause)).toEqual({ option: 'map' })
    // The option whose id is 2 (menu number 1), not menu number 2.
    expect(resolveChoice(parseChooseList('=2')[0]!, pause)).toEqual({ option: '2' })
    expect(resolveChoice(parseChooseList('=1')[0]!, pause)).toBeUndefined()
    expect(resolveChoice({ option: 'nope' }, pause)).toBeUndefined()
    expect(resolveChoice({ link: 'story/0003-forest.sty' }, pause)).toBeUndefined()
  })

  it('formats an answer so that it replays: positional ids as menu numbers, names as ids', () => {
    const answers = [{ option: '2' }, { option: 'map' }, { link: 'story/0003-forest.sty:edge' }]
    const written = answers.map((a) => formatAnswer(a, pause))
    expect(written).toEqual(['1', 'map', '>story/0003-forest.sty:edge'])
    expect(parseChooseList(written.join(',')).map((i) => resolveChoice(i, pause))).toEqual(answers)
  })

  it('says what a pause accepts', () => {
    expect(describeChoices(pause)).toBe(
      '1-3 (the menu numbers), an option id (=2, map), a link target (>story/0003-forest.sty:edge)',
    )
  })
})
