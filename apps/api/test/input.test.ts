/**
 * The input rules (src/input.ts): every JSON body is scanned (depth, values) before JSON.parse and every
 * incoming string (body, query, params) refuses U+0000 and lone surrogates with a 400, on every route.
 */
import { describe, expect, it } from 'vitest'
import { findBadString, MAX_BODY_DEPTH, scanJson } from '../src/input'
import { bearer, useTestApp } from './helpers/app'

const t = useTestApp()

const creator = bearer('creator-1', 'creator')
const moderator = bearer('mod-1', 'moderator')
const reader = bearer('reader-1', 'reader')

const deep = (levels: number, key = 'a') => {
  let s = '1'
  for (let i = 0; i < levels; i++) s = i % 2 ? `{"${key}":${s}}` : `[${s}]`
  return s
}

/** Every route with a body, with a valid-looking body around the nested value. */
const bodyRoutes = (nested: string) =>
  [
    {
      method: 'PUT',
      url: '/api/progress/deep',
      headers: reader,
      payload: `{"format":1,"id":"x","variables":{"v":${nested}},"choices":{},"visitedChoiceGroups":[],"rng":{"algorithm":"mulberry32","seed":1,"state":2},"visitedParts":[],"renderedParagraph":0}`,
    },
    {
      method: 'POST',
      url: '/api/stories',
      headers: creator,
      payload: `{"slug":"deep-story","title":${nested}}`,
    },
    { method: 'PUT', url: '/api/stories/deep-story', headers: creator, payload: `{"title":${nested}}` },
    { method: 'PUT', url: '/api/auth/profiles/reader', headers: reader, payload: `{"bio":${nested}}` },
    { method: 'POST', url: '/me/reports', headers: reader, payload: `{"reason":"spam","details":${nested}}` },
    {
      method: 'PUT',
      url: '/catalog/stories/deep-story',
      headers: moderator,
      payload: `{"published":${nested}}`,
    },
    {
      method: 'POST',
      url: '/catalog/series',
      headers: moderator,
      payload: `{"slug":"s-deep","title":${nested}}`,
    },
    {
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: `{"csp-report":{"document-uri":${nested}}}`,
    },
    {
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/reports+json' },
      payload: `[{"type":"csp-violation","body":${nested}}]`,
    },
  ] as const

describe('scanJson', () => {
  it('counts every value once and measures depth without recursion', () => {
    expect(scanJson('{"a":[1,2,{"b":null}],"c":"x,y:[{"}', { depth: 64, values: 7 })).toBeUndefined()
    expect(scanJson('{"a":[1,2,{"b":null}],"c":"x,y:[{"}', { depth: 64, values: 6 })).toEqual({
      kind: 'values',
    })
    expect(scanJson('[[],[],[]]', { depth: 64, values: 4 })).toBeUndefined()
    expect(scanJson('[[],[],[]]', { depth: 64, values: 3 })).toEqual({ kind: 'values' })
    expect(scanJson('"a\\"[[[[["', { depth: 2, values: 10 })).toBeUndefined()
    expect(scanJson('{"a":{"b":1,"c":[2]}}', { depth: 64, values: 100, members: 2 })).toEqual({
      kind: 'members',
    })
    expect(scanJson(deep(64), { depth: 64, values: 1000 })).toBeUndefined()
    expect(scanJson(deep(65), { depth: 64, values: 1000 })).toEqual({ kind: 'depth' })
    expect(scanJson('['.repeat(1_000_000), { depth: 64, values: 1000 })).toEqual({ kind: 'depth' })
  })

  it('finds a bad string at any depth, keys included', () => {
    let v: unknown = 'ok'
    for (let i = 0; i < 100_000; i++) v = [v]
    expect(findBadString(v)).toBeUndefined()
    expect(findBadString({ a: ['x', 'y\u0000'] })).toEqual({
      path: '.a[1]',
      problem: 'must not contain U+0000',
    })
    expect(findBadString({ 'k\ud800': 1 })?.problem).toBe('key must not contain a lone surrogate')
    expect(findBadString({ a: '\ud83d\ude00' })).toBeUndefined()
  })
})

describe('deep nesting', () => {
  it('a 5,000-level body is a 400 with the error body on every route, never a 500', async () => {
    for (const r of bodyRoutes(deep(5000))) {
      const res = await t.app.inject({
        method: r.method,
        url: r.url,
        headers: { 'content-type': 'application/json', ...r.headers },
        payload: r.payload,
      })
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(400)
      expect(res.json(), `${r.method} ${r.url}`).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: `body: nests deeper than ${MAX_BODY_DEPTH} levels`,
      })
    }
  })

  it('refuses a body with more values than the route allows (413) before parsing it', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profiles/reader',
      headers: { ...reader, 'content-type': 'application/json' },
      payload: `{"bio":[${'[],'.repeat(20_000)}[]]}`,
    })
    expect(res.statusCode).toBe(413)
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE')
  })
})

describe('U+0000 and lone surrogates', () => {
  const stateWith = (extra: string) =>
    `{"format":1,"id":"x","variables":{${extra}},"choices":{},"visitedChoiceGroups":[],"rng":{"algorithm":"mulberry32","seed":1,"state":2},"visitedParts":[],"renderedParagraph":0}`

  it('refuses them in every body with a 400 naming the field', async () => {
    for (const bad of ['\\u0000', '\\ud800', '\\udc00x']) {
      const cases = [
        {
          method: 'POST',
          url: '/api/stories',
          headers: creator,
          payload: `{"slug":"nul-story","title":"a${bad}","author":"b","genre":"c","content":"d"}`,
          field: 'body.title',
        },
        {
          method: 'POST',
          url: '/api/stories',
          headers: creator,
          payload: `{"slug":"nul-story","title":"a","author":"b","genre":"c","content":"d${bad}"}`,
          field: 'body.content',
        },
        {
          method: 'PUT',
          url: '/api/auth/profiles/reader',
          headers: reader,
          payload: `{"displayName":"x${bad}"}`,
          field: 'body.displayName',
        },
        {
          method: 'POST',
          url: '/me/reports',
          headers: reader,
          payload: `{"reason":"spam","details":"x${bad}"}`,
          field: 'body.details',
        },
        {
          method: 'PUT',
          url: '/api/progress/nul',
          headers: reader,
          payload: stateWith(`"k${bad}":1`),
          field: 'body.variables',
        },
        {
          method: 'PUT',
          url: '/api/progress/nul',
          headers: reader,
          payload: stateWith(`"k":"v${bad}"`),
          field: 'body.variables.k',
        },
        {
          method: 'POST',
          url: '/api/csp-report',
          headers: { 'content-type': 'application/csp-report' },
          payload: `{"csp-report":{"document-uri":"https://a.example/${bad}"}}`,
          field: 'body.csp-report.document-uri',
        },
      ] as const
      for (const c of cases) {
        const res = await t.app.inject({
          method: c.method,
          url: c.url,
          headers: { 'content-type': 'application/json', ...c.headers },
          payload: c.payload,
        })
        expect(res.statusCode, `${c.url} ${bad}`).toBe(400)
        expect(res.json().code).toBe('VALIDATION_FAILED')
        expect(res.json().message).toContain(c.field)
      }
    }
  })

  it('refuses them in query strings and path parameters', async () => {
    const genre = await t.app.inject({ url: '/catalog/stories?genre=%00' })
    expect(genre.statusCode).toBe(400)
    expect(genre.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'querystring.genre: must not contain U+0000',
    })
    const key = await t.app.inject({ url: '/api/progress/a%00b', headers: reader })
    expect(key.statusCode).toBe(400)
    expect(key.json().code).toBe('VALIDATION_FAILED')
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/progress/a%00b',
      headers: { ...reader, 'content-type': 'application/json' },
      payload: stateWith(''),
    })
    expect(put.statusCode).toBe(400)
  })

  it('keeps well-formed text, astral characters included', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profiles/reader',
      headers: { ...reader, 'content-type': 'application/json' },
      payload: '{"displayName":"Ada \\ud83d\\ude00 \\u00e9"}',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().displayName).toBe('Ada \u{1F600} é')
  })
})
