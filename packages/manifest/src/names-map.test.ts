import { describe, expect, it } from 'vitest'
import { parseNamesMapText } from './names-map'

const PATH = 'META-PKG/names.json'

describe('parseNamesMapText', () => {
  it('reads a names map, dropping fields the format does not have', () => {
    const text = '{"version":1,"variables":{"a":"gold"},"ids":{"b":"bar"},"extra":true}'
    expect(parseNamesMapText(text, PATH)).toEqual({
      names: { version: 1, variables: { a: 'gold' }, ids: { b: 'bar' } },
      diagnostics: [],
    })
  })

  it.each([
    ['not JSON', '{"version": 1,'],
    ['not an object', '[1]'],
    ['another version', '{"version":2,"variables":{}}'],
    ['no variables', '{"version":1}'],
    ['a name that is not a string', '{"version":1,"variables":{"a":3}}'],
    ['ids that are not an object', '{"version":1,"variables":{},"ids":["a"]}'],
  ])('refuses %s with one pkg/invalid-names-map naming the file', (_, text) => {
    expect(parseNamesMapText(text, 'META-PKG/n.json')).toEqual({
      diagnostics: [
        {
          code: 'pkg/invalid-names-map',
          severity: 'error',
          message: 'META-PKG/n.json is not a names map.',
          path: 'META-PKG/n.json',
        },
      ],
    })
  })
})
