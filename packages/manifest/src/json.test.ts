import { describe, expect, it } from 'vitest'
import { parseJsonText } from './json'

describe('parseJsonText', () => {
  it('parses JSON and ignores a leading byte-order mark', () => {
    expect(parseJsonText('{"id":"x"}')).toEqual({ ok: true, value: { id: 'x' } })
    expect(parseJsonText('\uFEFF[1,2]')).toEqual({ ok: true, value: [1, 2] })
  })

  it('returns the parser message instead of throwing', () => {
    const r = parseJsonText('{')
    expect(r.ok).toBe(false)
    expect(!r.ok && r.message.length).toBeGreaterThan(0)
    expect(parseJsonText('\uFEFF').ok).toBe(false)
    expect(parseJsonText('\uFEFF\uFEFF{}').ok).toBe(false)
  })
})
