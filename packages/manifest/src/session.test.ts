import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  isVariableName,
  MAX_READING_STATE_DEPTH,
  parseReadingState,
  parseSession,
  parseSessionText,
} from './index'
import { MAX_SESSION_DEPTH } from './session'

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
        message:
          '"deep" nests deeper than 63 levels (session.json is level 1), so no saved reading state could hold it.',
      },
    ])
  })
})

describe('nesting bound', () => {
  // `levels` arrays nested in the file's object: the deepest array is level levels + 1.
  const nested = (levels: number) => `{"v": ${'['.repeat(levels)}${']'.repeat(levels)}}`
  it('reads a value as deep as a saved reading state can hold it, and refuses one level more', () => {
    expect(MAX_SESSION_DEPTH).toBe(MAX_READING_STATE_DEPTH - 1)
    expect(parseSessionText(nested(MAX_SESSION_DEPTH - 1)).diagnostics).toEqual([])
    const over = parseSessionText(nested(MAX_SESSION_DEPTH))
    expect(over.diagnostics).toMatchObject([{ code: 'session/invalid-value', field: '/v' }])
    expect(over.session).toEqual({})
  })
  it('the deepest value it reads is a variable a reading state accepts', () => {
    const v = JSON.parse(nested(MAX_SESSION_DEPTH - 1)).v
    const state = {
      format: 1,
      id: 's',
      variables: { v },
      choices: {},
      visitedChoiceGroups: [],
      rng: { algorithm: 'mulberry32', seed: 1, state: 1 },
      visitedParts: [],
      renderedParagraph: -1,
    }
    const r = parseReadingState(state)
    expect(r.diagnostics).toEqual([])
    expect(r.state?.variables).toEqual({ v })
    const deeper = parseReadingState({ ...state, variables: { v: [v] } })
    expect(deeper.state).toBeUndefined()
  })
  it('is checked without recursion at 100,000 levels', () => {
    const r = parseSessionText(nested(100_000))
    expect(r.diagnostics).toMatchObject([{ code: 'session/invalid-value', field: '/v' }])
  })
})
