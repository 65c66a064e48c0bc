import { describe, expect, it } from 'vitest'
import { mutate } from './mutate'

describe('mutate', () => {
  const b = new Uint8Array([1, 2, 3])
  it.each<[string, Parameters<typeof mutate>[1], number[]]>([
    ['flips a bit', [[1, 0, 'flip']], [1, 3, 3]],
    ['takes positions modulo the length', [[4, 9, 'set']], [1, 9, 3]],
    ['cuts', [[2, 0, 'cut']], [1, 2]],
    ['drops', [[0, 0, 'drop']], [2, 3]],
    ['inserts', [[1, 300, 'insert']], [1, 44, 2, 3]],
    [
      'applies edits in order and stops on an empty array',
      [
        [0, 0, 'cut'],
        [0, 0, 'insert'],
      ],
      [],
    ],
  ])('%s', (_, edits, expected) => {
    expect([...mutate(b, edits)]).toEqual(expected)
    expect([...b]).toEqual([1, 2, 3])
  })
})
