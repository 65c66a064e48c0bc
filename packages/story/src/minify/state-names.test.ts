import type { NamesMap, ReadingState } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { translateStateNames } from './state-names.ts'

const names: NamesMap = { version: 1, variables: { a: 'gold' }, ids: { b: 'bar', c: 'edge' } }

describe('translateStateNames', () => {
  it('maps variables, ids in keys of visits, locals and groups, and link answers; nothing else', () => {
    const original: ReadingState = {
      format: 1,
      id: 'story',
      variables: {
        gold: 2,
        wolves: 1,
        'story/a.sty:bar@visits': 1,
        'story/a.sty:bar.asked': 3,
        'story/a.sty:h2@visits': 1,
      },
      choices: {
        'story/a.sty:bar@1': ['map', '2'],
        'story/a.sty:@end': ['>story/b.sty:edge'],
        'story/b.sty:bar': ['>story/c.sty'],
      },
      visitedChoiceGroups: ['story/a.sty:bar@1', 'story/a.sty:@end', 'story/b.sty:bar'],
      rng: { algorithm: 'mulberry32', seed: 7, state: 9 },
      currentPart: 'story/b.sty',
      visitedParts: ['story/a.sty'],
      renderedParagraph: 1,
    }
    const short = translateStateNames(original, names, 'minified')
    expect(short).toEqual({
      ...original,
      variables: {
        a: 2,
        wolves: 1,
        'story/a.sty:b@visits': 1,
        'story/a.sty:b.asked': 3,
        'story/a.sty:h2@visits': 1,
      },
      choices: {
        'story/a.sty:b@1': ['map', '2'],
        'story/a.sty:@end': ['>story/b.sty:c'],
        'story/b.sty:b': ['>story/c.sty'],
      },
      visitedChoiceGroups: ['story/a.sty:b@1', 'story/a.sty:@end', 'story/b.sty:b'],
    })
    expect(translateStateNames(short, names, 'original')).toEqual(original)
    // Idempotent: short names never meet original ones.
    expect(translateStateNames(short, names, 'minified')).toEqual(short)
    expect(translateStateNames(original, names, 'original')).toEqual(original)
  })

  it('maps saved sets (1.1): the declaration and items of each, in lists and escaped maps too', () => {
    const withSets: NamesMap = { ...names, sets: { d: 'Tools', e: 'rope', f: 'lamp' } }
    const original: ReadingState = {
      format: 1,
      id: 'story',
      variables: {
        gold: { $items: 'Tools', of: ['rope', 'lamp'] },
        held: [{ $items: 'Tools', of: ['lamp'] }, 3, { $items: 'Moods', of: ['calm'] }],
        // an escaped map whose own keys look like a set's stays as it is
        notes: { $map: { $items: 'Tools', of: ['rope'] } },
        plain: { inner: { $items: 'Tools', of: [] } },
      },
      choices: {},
      visitedChoiceGroups: [],
      rng: { algorithm: 'mulberry32', seed: 7, state: 9 },
      currentPart: 'story/a.sty',
      visitedParts: [],
      renderedParagraph: 0,
    }
    const short = translateStateNames(original, withSets, 'minified')
    expect(short.variables).toEqual({
      a: { $items: 'd', of: ['e', 'f'] },
      held: [{ $items: 'd', of: ['f'] }, 3, { $items: 'Moods', of: ['calm'] }],
      notes: { $map: { $items: 'Tools', of: ['rope'] } },
      plain: { inner: { $items: 'd', of: [] } },
    })
    expect(translateStateNames(short, withSets, 'original')).toEqual(original)
    expect(translateStateNames(short, withSets, 'minified')).toEqual(short)
  })
})
