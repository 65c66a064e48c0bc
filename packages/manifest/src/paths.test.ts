import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { collisionKey } from './paths'

describe('collisionKey', () => {
  it('folds case, full case folding and Unicode normalisation', () => {
    expect(collisionKey('Story/Inn.sty')).toBe(collisionKey('story/INN.STY'))
    expect(collisionKey('Straße')).toBe(collisionKey('STRASSE'))
    expect(collisionKey('ﬁre')).toBe(collisionKey('FIRE'))
    expect(collisionKey('caf\u00e9')).toBe(collisionKey('cafe\u0301'))
  })

  it('keeps names apart that no file system folds together', () => {
    expect(collisionKey('strasse')).not.toBe(collisionKey('strase'))
    expect(collisionKey('a/b')).not.toBe(collisionKey('a-b'))
    expect(collisionKey('cafe')).not.toBe(collisionKey('café'))
  })

  test.prop([fc.string({ unit: 'grapheme', maxLength: 20 })])('ignores case', (s) => {
    expect(collisionKey(s.toUpperCase())).toBe(collisionKey(s))
  })
})
