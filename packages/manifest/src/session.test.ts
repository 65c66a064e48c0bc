import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { isVariableName, parseSession, parseSessionText } from './index'

describe('session.json', () => {
  it('accepts an object of JSON values', () => {
    const v = { name: 'mira', hard: true, players: 3, names: ['a', 'b'], opts: { x: null } }
    expect(parseSession(v)).toEqual({ session: v, diagnostics: [] })
  })
  it('refuses what is not an object', () => {
    expect(parseSession([1]).diagnostics).toMatchObject([
      { code: 'session/not-object', severity: 'fatal', path: 'session.json' },
    ])
    expect(parseSessionText('nope').diagnostics).toMatchObject([
      { code: 'session/not-json', severity: 'fatal' },
    ])
  })
  it('warns about keys a story cannot read, and keeps them', () => {
    const r = parseSession({ '2players': 2, set: 1, d6: 3, ok_name: 1 })
    expect(r.diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['session/invalid-name', '/2players'],
      ['session/invalid-name', '/set'],
      ['session/invalid-name', '/d6'],
    ])
    expect(Object.keys(r.session!)).toEqual(['2players', 'set', 'd6', 'ok_name'])
  })
  it('refuses values that are not JSON data', () => {
    const r = parseSession({ a: Number.NaN, b: () => 1, c: 1 })
    expect(r.session).toEqual({ c: 1 })
    expect(r.diagnostics.map((d) => d.code)).toEqual(['session/invalid-value', 'session/invalid-value'])
  })
  it('names variables as the story language does', () => {
    expect(isVariableName('gold')).toBe(true)
    expect(isVariableName('Gold_2')).toBe(true)
    expect(isVariableName('_x')).toBe(false)
    expect(isVariableName('and')).toBe(false)
  })
  test.prop([fc.jsonValue()])('never throws', (v) => {
    expect(() => parseSession(v)).not.toThrow()
  })
})

describe('values nested past the stack', () => {
  it('are an error of their key, not a crash', () => {
    const deep = `${'['.repeat(20000)}${']'.repeat(20000)}`
    const r = parseSessionText(`{"gold": 3, "deep": ${deep}}`)
    expect(r.session).toEqual({ gold: 3 })
    expect(r.diagnostics).toMatchObject([
      {
        code: 'session/invalid-value',
        field: '/deep',
        message: '"deep" nests too deeply to be read as JSON data.',
      },
    ])
  })
})
