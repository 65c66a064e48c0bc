import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { collisionKey } from './entry-names'

describe('collisionKey', () => {
  it('folds case, full case folding and Unicode normalisation', () => {
    expect(collisionKey('Story/Inn.sty')).toBe(collisionKey('story/INN.STY'))
    expect(collisionKey('Straße')).toBe(collisionKey('STRASSE'))
    expect(collisionKey('ﬁre')).toBe(collisionKey('FIRE'))
    expect(collisionKey('caf\u00e9')).toBe(collisionKey('cafe\u0301'))
  })

  it('folds capital sharp s (U+1E9E) to ss, as full case folding does', () => {
    expect(collisionKey('\u1e9e')).toBe('ss')
    expect(collisionKey('STRA\u1e9eE')).toBe(collisionKey('strasse'))
    expect(collisionKey('STRA\u1e9eE')).toBe(collisionKey('Straße'))
  })

  it('is stable: the key of a key is the key, for every code point', () => {
    const unstable: string[] = []
    for (let c = 0x80; c < 0x110000; c++) {
      if (c >= 0xd800 && c < 0xe000) continue
      const key = collisionKey(String.fromCodePoint(c))
      if (collisionKey(key) !== key) unstable.push(c.toString(16))
    }
    expect(unstable).toEqual([])
  })

  it('keeps names apart that no file system folds together', () => {
    expect(collisionKey('strasse')).not.toBe(collisionKey('strase'))
    expect(collisionKey('a/b')).not.toBe(collisionKey('a-b'))
    expect(collisionKey('cafe')).not.toBe(collisionKey('café'))
  })

  test.prop([fc.string({ unit: 'grapheme', maxLength: 20 })])('ignores case', (s) => {
    expect(collisionKey(s.toUpperCase())).toBe(collisionKey(s))
    expect(collisionKey(s.toLowerCase())).toBe(collisionKey(s))
  })

  test.prop([fc.string({ unit: 'grapheme', maxLength: 20 })])('is idempotent', (s) => {
    expect(collisionKey(collisionKey(s))).toBe(collisionKey(s))
  })
})
