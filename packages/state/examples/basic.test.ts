import { expect, it } from 'vitest'
import { example } from './basic'

it('runs the README example with the output it documents', async () => {
  expect(await example()).toEqual([
    'loaded: part story/0003-forest.sty, gold 2',
    'tablet: state/conflict',
    'foreign: state/unknown-format',
  ])
})
