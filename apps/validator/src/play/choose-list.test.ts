import { describe, expect, it } from 'vitest'
import { UsageError } from '../cli-types'
import { formatAnswer, parseChooseList } from './choose-list'

describe('parseChooseList', () => {
  it.each([
    ['1,map,2', [{ option: '1' }, { option: 'map' }, { option: '2' }]],
    [' 1 , map ', [{ option: '1' }, { option: 'map' }]],
    ['>story/0003-forest.sty:edge', [{ link: 'story/0003-forest.sty:edge' }]],
    ['>story/0003-forest.sty,run', [{ link: 'story/0003-forest.sty' }, { option: 'run' }]],
    ['', []],
  ])('reads %j', (input, expected) => {
    expect(parseChooseList(input)).toEqual(expected)
  })

  it.each([
    ['1,,2', "--choose item 2 ('') is not an option id"],
    ['>forest', "--choose item 1 ('>forest') is not a link target"],
    ['>../x.sty', "--choose item 1 ('>../x.sty') is not a link target"],
    ['two words', "--choose item 1 ('two words') is not an option id"],
  ])('refuses %j with a usage error', (input, message) => {
    expect(() => parseChooseList(input)).toThrow(UsageError)
    expect(() => parseChooseList(input)).toThrow(message)
  })

  it('formats answers back into the --choose form', () => {
    const list = '1,map,>story/0003-forest.sty:edge'
    expect(parseChooseList(list).map(formatAnswer).join(',')).toBe(list)
  })
})
