import { describe, expect, it } from 'vitest'
import { fieldKind, readField, readSession, sessionFields } from './session-model'

const session = {
  crew_name: 'the Gulls',
  crew: ['Ada', 'Bram', 'Cleo'],
  difficulty: 2,
  ratio: 0.5,
  night_watch: true,
  odds: [1, 2.5],
  table: { seats: 4 },
  ignored: null,
  'not a name': 1,
}

describe('session fields', () => {
  it('gives each readable value a field of its type', () => {
    const fields = sessionFields(session)
    expect(fields.map((f) => [f.key, f.kind, f.label])).toEqual([
      ['crew_name', 'string', 'Crew name'],
      ['crew', 'names', 'Crew'],
      ['difficulty', 'integer', 'Difficulty'],
      ['ratio', 'number', 'Ratio'],
      ['night_watch', 'boolean', 'Night watch'],
      ['odds', 'numbers', 'Odds'],
      ['table', 'json', 'Table'],
    ])
    expect(fields.find((f) => f.key === 'crew')!.initialText).toBe('Ada\nBram\nCleo')
    expect(fieldKind([1, 'a'])).toBe('json')
    expect(fieldKind([])).toBe('names')
  })
})

describe('reading what the moderator typed', () => {
  const f = Object.fromEntries(sessionFields(session).map((x) => [x.key, x]))

  it('keeps numbers numbers, whole numbers whole', () => {
    expect(readField(f.difficulty!, ' 3 ')).toEqual({ ok: true, value: 3 })
    expect(readField(f.difficulty!, '2.5')).toMatchObject({
      ok: false,
      error: { code: 'session-form/not-integer' },
    })
    expect(readField(f.difficulty!, 'three')).toMatchObject({
      ok: false,
      error: { code: 'session-form/not-a-number' },
    })
    expect(readField(f.difficulty!, '')).toMatchObject({
      ok: false,
      error: { code: 'session-form/required' },
    })
    expect(readField(f.difficulty!, '0x10')).toMatchObject({ ok: false })
    expect(readField(f.difficulty!, '1e999')).toMatchObject({ ok: false })
    expect(readField(f.ratio!, '0.75')).toEqual({ ok: true, value: 0.75 })
    expect(readField(f.ratio!, '−1')).toEqual({ ok: true, value: -1 })
  })

  it('reads lists of names one a line', () => {
    expect(readField(f.crew!, ' Ada \n\nZed\n')).toEqual({ ok: true, value: ['Ada', 'Zed'] })
    expect(readField(f.crew!, '\n \n')).toMatchObject({ ok: false, error: { code: 'session-form/required' } })
    expect(readField(f.crew!, 'x'.repeat(501))).toMatchObject({
      ok: false,
      error: { code: 'session-form/too-long' },
    })
    expect(readField(f.odds!, '1, 2 3;4')).toEqual({ ok: true, value: [1, 2, 3, 4] })
    expect(readField(f.odds!, '1, two')).toMatchObject({
      ok: false,
      error: { code: 'session-form/not-a-number' },
    })
  })

  it('keeps strings, booleans and JSON in their type', () => {
    expect(readField(f.crew_name!, 'the Crows')).toEqual({ ok: true, value: 'the Crows' })
    expect(readField(f.crew_name!, '  ')).toMatchObject({
      ok: false,
      error: { code: 'session-form/required' },
    })
    expect(readField(f.night_watch!, false)).toEqual({ ok: true, value: false })
    expect(readField(f.night_watch!, 'maybe')).toMatchObject({ ok: false })
    expect(readField(f.table!, '{"seats": 6}')).toEqual({ ok: true, value: { seats: 6 } })
    expect(readField(f.table!, '[6]')).toMatchObject({
      ok: false,
      error: { code: 'session-form/wrong-type' },
    })
    expect(readField(f.table!, '{')).toMatchObject({
      ok: false,
      error: { code: 'session-form/invalid-json' },
    })
  })

  it('reads the whole form: changed values, untouched values, errors by key', () => {
    const fields = sessionFields(session)
    const ok = readSession(session, fields, { difficulty: '4', crew: 'Ada\nBram', night_watch: false })
    expect(ok).toEqual({
      ok: true,
      values: { ...session, difficulty: 4, crew: ['Ada', 'Bram'], night_watch: false },
    })
    const bad = readSession(session, fields, { difficulty: 'x', crew_name: '' })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(Object.keys(bad.errors).sort()).toEqual(['crew_name', 'difficulty'])
  })
})
