import { expect, it } from 'vitest'
import { example } from './basic'

it('runs the README example with the output it documents', async () => {
  expect(await example()).toEqual([
    'loaded: part story/0003-forest.sty, gold 2',
    'tablet: state/conflict',
    'by slug: state/other-story',
    'stored: 6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14',
    'foreign: state/unknown-format',
  ])
})
