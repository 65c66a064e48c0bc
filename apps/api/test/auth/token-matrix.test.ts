/**
 * The token matrix against a real oidc-provider on loopback: what is accepted, what is refused and with which code,
 * and how many requests reach the identity provider while refusing.
 */
import { createHmac, createPublicKey, createSign, generateKeyPairSync, randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { AUDIENCE, attackerKey, bearer, claims, signJwt } from '../helpers/auth.ts'
import { authSuite } from '../helpers/auth-suite.ts'

// Limits raised: this suite sends dozens of refused tokens from one address on purpose, and refused requests
// count against the IP's tiers (test/security/rate-limit.test.ts); here the refusals themselves are under test.
const suite = authSuite(
  { alice: ['creator'], bob: [], carol: ['administrator'], dave: [] },
  { app: { limits: { maxFactor: 100 } } },
)

const get = (url: string, headers: Record<string, string> = {}) =>
  suite.app.inject({ method: 'GET', url, headers })
const real = (extra: Record<string, unknown> = {}) =>
  signJwt({ alg: 'RS256', typ: 'JWT', kid: 'test-key-1' }, claims(suite.idp, extra), suite.idp.signingKey)

describe('accepted tokens', () => {
  it('accepts a token minted by the provider and exposes sub, roles and the session id', async () => {
    const token = await suite.idp.mintToken('alice')
    const res = await get('/private', bearer(token))
    expect(res.statusCode).toBe(200)
    const { user } = res.json()
    expect(user.sub).toBe('alice')
    expect(user.roles).toEqual(['creator'])
    expect(user.sid).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('fetched discovery once and the key set once for many requests', async () => {
    const token = await suite.idp.mintToken('alice')
    for (let i = 0; i < 5; i++) expect((await get('/private', bearer(token))).statusCode).toBe(200)
    expect(suite.idp.counts.discovery).toBe(1)
    expect(suite.idp.counts.jwks).toBe(1)
  })
})

describe('refused tokens', () => {
  const cases: [string, () => Record<string, string>, string][] = [
    ['no Authorization header', () => ({}), 'AUTH_MISSING_TOKEN'],
    [
      'a Basic Authorization header',
      () => ({ authorization: 'Basic YWxpY2U6c2VjcmV0' }),
      'AUTH_MISSING_TOKEN',
    ],
    ['a token in a cookie only', () => ({ cookie: `token=${real()}` }), 'AUTH_MISSING_TOKEN'],
    ['a malformed token', () => bearer('not.a.jwt'), 'AUTH_INVALID_TOKEN'],
    ['a malformed header', () => ({ authorization: 'Bearer a b' }), 'AUTH_MALFORMED_HEADER'],
    [
      'an expired token',
      () => bearer(real({ exp: Math.floor(Date.now() / 1000) - 60 })),
      'AUTH_TOKEN_EXPIRED',
    ],
    ['a foreign issuer', () => bearer(real({ iss: 'https://evil.example' })), 'AUTH_INVALID_TOKEN'],
    ['a wrong audience', () => bearer(real({ aud: 'other-api' })), 'AUTH_INVALID_TOKEN'],
    ['no sub', () => bearer(real({ sub: undefined })), 'AUTH_INVALID_TOKEN'],
    // The API's string rule (src/input.ts): a NUL in sub reached PostgreSQL as SQLSTATE 22021, a 500 on every route.
    ['a sub with U+0000', () => bearer(real({ sub: 'ali\u0000ce' })), 'AUTH_INVALID_TOKEN'],
    ['a sub with a lone surrogate', () => bearer(real({ sub: 'ali\ud800ce' })), 'AUTH_INVALID_TOKEN'],
    ['no exp', () => bearer(real({ exp: undefined })), 'AUTH_INVALID_TOKEN'],
    ['no iss', () => bearer(real({ iss: undefined })), 'AUTH_INVALID_TOKEN'],
    ['no aud', () => bearer(real({ aud: undefined })), 'AUTH_INVALID_TOKEN'],
    [
      'alg none',
      () => bearer(signJwt({ alg: 'none', typ: 'JWT', kid: 'test-key-1' }, claims(suite.idp))),
      'AUTH_ALG_NOT_ALLOWED',
    ],
    [
      'HS256 signed with the provider public key',
      () => {
        const pem = createPublicKey({ key: suite.idp.signingKey as never, format: 'jwk' })
          .export({ type: 'spki', format: 'pem' })
          .toString()
        const input = `${Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'test-key-1' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims(suite.idp))).toString('base64url')}`
        return bearer(`${input}.${createHmac('sha256', pem).update(input).digest('base64url')}`)
      },
      'AUTH_ALG_NOT_ALLOWED',
    ],
    [
      'ES256',
      () => {
        const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
        const input = `${Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: 'test-key-1' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims(suite.idp))).toString('base64url')}`
        const sig = createSign('SHA256').update(input).sign({ key: privateKey, dsaEncoding: 'ieee-p1363' })
        return bearer(`${input}.${sig.toString('base64url')}`)
      },
      'AUTH_ALG_NOT_ALLOWED',
    ],
    [
      'RS256 signed by another key under the real kid',
      () => bearer(signJwt({ alg: 'RS256', kid: 'test-key-1' }, claims(suite.idp), attackerKey())),
      'AUTH_INVALID_TOKEN',
    ],
    [
      'no kid',
      () => bearer(signJwt({ alg: 'RS256' }, claims(suite.idp), suite.idp.signingKey)),
      'AUTH_NO_KID',
    ],
  ]
  for (const [name, headers, code] of cases) {
    it(`refuses ${name} with 401 ${code}`, async () => {
      const res = await get('/private', headers())
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject({ statusCode: 401, code })
      expect(res.headers['access-control-allow-origin']).toBeUndefined() // no Origin sent
    })
  }

  it('a real signature with valid claims passes (the forged cases above differ by one thing only)', async () => {
    expect((await get('/private', bearer(real()))).statusCode).toBe(200)
  })

  it('never fetches from jku or x5u, and never looks keys up at the token issuer', async () => {
    let hits = 0
    const evil = createServer((_req, res) => {
      hits++
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}')
    })
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r))
    const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`
    try {
      const key = attackerKey()
      const tokens = [
        signJwt({ alg: 'RS256', kid: 'evil-1', jku: `${evilUrl}/jwks` }, claims(suite.idp), key),
        signJwt({ alg: 'RS256', kid: 'evil-2', x5u: `${evilUrl}/cert.pem` }, claims(suite.idp), key),
        signJwt({ alg: 'RS256', kid: 'evil-3' }, claims(suite.idp, { iss: evilUrl }), key),
        signJwt({ alg: 'RS256', kid: 'test-key-1', jku: `${evilUrl}/jwks` }, claims(suite.idp), key),
      ]
      for (const t of tokens) expect((await get('/private', bearer(t))).statusCode).toBe(401)
      expect(hits).toBe(0)
    } finally {
      evil.closeAllConnections()
      await new Promise<void>((r) => evil.close(() => r()))
    }
  })
})

describe('roles', () => {
  it('answers 401 without a token, 403 without the role, 200 with it', async () => {
    expect((await get('/creator')).statusCode).toBe(401)
    const reader = await get('/creator', bearer(await suite.idp.mintToken('bob')))
    expect(reader.statusCode).toBe(403)
    expect(reader.json()).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' })
    expect((await get('/creator', bearer(await suite.idp.mintToken('alice')))).statusCode).toBe(200)
    expect((await get('/creator', bearer(await suite.idp.mintToken('carol')))).statusCode).toBe(200)
  })
})

describe('sessions', () => {
  it('lists the caller sessions, revokes one, and refuses later tokens of that session', async () => {
    const token = await suite.idp.mintToken('bob')
    const list = await get('/api/auth/sessions', bearer(token))
    expect(list.statusCode).toBe(200)
    const [session] = list.json().sessions
    expect(session).toMatchObject({ current: true, revokedAt: null })

    const other = await suite.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${session.id}`,
      headers: bearer(await suite.idp.mintToken('alice')),
    })
    expect(other.statusCode).toBe(404) // not alice's session

    const del = await suite.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${session.id}`,
      headers: bearer(token),
    })
    expect(del.statusCode).toBe(204)

    const again = await get('/private', bearer(token))
    expect(again.statusCode).toBe(401)
    expect(again.json().code).toBe('AUTH_SESSION_REVOKED')
    // alice is unaffected
    expect((await get('/private', bearer(await suite.idp.mintToken('alice')))).statusCode).toBe(200)
  })

  it('refuses the tokens issued up to a revocation, never a later login (tokens without sid or auth_time)', async () => {
    // The provider's tokens carry neither sid nor auth_time: every login of dave maps to one session.
    const before1 = await suite.idp.mintToken('dave')
    const before2 = await suite.idp.mintToken('dave')
    for (const t of [before1, before2]) expect((await get('/private', bearer(t))).statusCode).toBe(200)
    const [session] = (await get('/api/auth/sessions', bearer(before2))).json().sessions
    const del = await suite.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${session.id}`,
      headers: bearer(before1),
    })
    expect(del.statusCode).toBe(204)
    for (const t of [before1, before2]) {
      const res = await get('/private', bearer(t))
      expect(res.statusCode).toBe(401)
      expect(res.json().code).toBe('AUTH_SESSION_REVOKED')
    }
    // `iat` is in whole seconds: a login in the next second is after the revocation.
    await new Promise((r) => setTimeout(r, 1100))
    const after = await suite.idp.mintToken('dave')
    const res = await get('/private', bearer(after))
    expect(res.statusCode).toBe(200)
    expect(res.json().user).toMatchObject({ sub: 'dave', sid: session.id })
    // The earlier tokens stay refused, also once the later one was seen.
    expect((await get('/private', bearer(before1))).statusCode).toBe(401)
    // Revoking again refuses the later login too.
    expect(
      (
        await suite.app.inject({
          method: 'DELETE',
          url: `/api/auth/sessions/${session.id}`,
          headers: bearer(after),
        })
      ).statusCode,
    ).toBe(204)
    expect((await get('/private', bearer(after))).json().code).toBe('AUTH_SESSION_REVOKED')
  })

  it('keeps a revoked login (sid) refused, later tokens of it included', async () => {
    const sid = `sid-${randomUUID()}`
    const first = real({ sub: 'erin', sid })
    const [session] = (await get('/api/auth/sessions', bearer(first))).json().sessions
    const del = await suite.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${session.id}`,
      headers: bearer(first),
    })
    expect(del.statusCode).toBe(204)
    await new Promise((r) => setTimeout(r, 1100))
    // A refresh of that login: same sid, issued after the revocation.
    const refreshed = real({ sub: 'erin', sid, iat: Math.floor(Date.now() / 1000) })
    expect((await get('/private', bearer(refreshed))).json().code).toBe('AUTH_SESSION_REVOKED')
    // Another login (another sid) is a session of its own.
    expect(
      (await get('/private', bearer(real({ sub: 'erin', sid: `sid-${randomUUID()}` })))).statusCode,
    ).toBe(200)
  })

  it('answers 400 for a session id that is not a UUID and 404 for an unknown one', async () => {
    const headers = bearer(await suite.idp.mintToken('alice'))
    const bad = await suite.app.inject({ method: 'DELETE', url: '/api/auth/sessions/..%2F..%2Fetc', headers })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toContain('UUID')
    const unknown = await suite.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${randomUUID()}`,
      headers,
    })
    expect(unknown.statusCode).toBe(404)
    const anonymous = await suite.app.inject({ method: 'DELETE', url: '/api/auth/sessions/not-a-uuid' })
    expect(anonymous.statusCode).toBe(401)
  })
})

describe('auth events', () => {
  it("lists a user's own events to that user; another subject's only to administrators", async () => {
    await suite.app.flushAuthEvents()
    const mine = async (user: string, query = '') => {
      const res = await get(`/api/auth/events${query}`, bearer(await suite.idp.mintToken(user)))
      expect(res.statusCode).toBe(200)
      return res.json() as { events: Array<{ kind: string; sessionId: string | null }>; total: number }
    }
    const sessionsOf = async (user: string) =>
      (await get('/api/auth/sessions', bearer(await suite.idp.mintToken(user)))).json().sessions as Array<{
        id: string
      }>
    const aliceSessions = new Set((await sessionsOf('alice')).map((s) => s.id))
    const alice = await mine('alice')
    expect(alice.events.length).toBeGreaterThan(0)
    expect(alice.total).toBe(alice.events.length)
    for (const e of alice.events) expect(aliceSessions.has(e.sessionId as string)).toBe(true)
    expect(alice.events.map((e) => e.kind)).toContain('session_created')
    // Naming oneself is the same; naming someone else is refused with its own code.
    expect((await mine('alice', '?subject=alice')).total).toBe(alice.total)
    const other = await get('/api/auth/events?subject=carol', bearer(await suite.idp.mintToken('alice')))
    expect(other.statusCode).toBe(403)
    expect(other.json()).toMatchObject({ statusCode: 403, code: 'AUTH_EVENTS_FORBIDDEN' })
    // An administrator reads one user's events with `subject`, everyone's without.
    const forAlice = await mine('carol', '?subject=alice')
    expect(forAlice.events.map((e) => e.sessionId)).toEqual(alice.events.map((e) => e.sessionId))
    const all = await mine('carol')
    expect(all.total).toBeGreaterThan(forAlice.total)
    expect(all.events.map((e) => e.kind)).toContain('token_refused')
    expect((await get('/api/auth/events')).statusCode).toBe(401)
  })

  it('lists all events to administrators, clamps limit and offset, and holds no personal data', async () => {
    await suite.app.flushAuthEvents()
    const admin = bearer(await suite.idp.mintToken('carol'))
    const page = await get('/api/auth/events?limit=999&offset=-4', admin)
    expect(page.statusCode).toBe(200)
    const body = page.json()
    expect(body.limit).toBe(200)
    expect(body.offset).toBe(0)
    const kinds = new Set(body.events.map((e: { kind: string }) => e.kind))
    expect(kinds).toContain('session_created')
    expect(kinds).toContain('session_revoked')
    expect(kinds).toContain('token_refused')
    const text = JSON.stringify(body)
    for (const personal of ['alice', 'bob', 'carol', '127.0.0.1']) expect(text).not.toContain(personal)
    const one = await get('/api/auth/events?limit=0', admin)
    expect(one.json().limit).toBe(1)
    expect(one.json().events).toHaveLength(1)
    expect(one.json().total).toBe(body.total)
  })
})

describe('audience', () => {
  it('uses the configured audience', () => {
    expect(AUDIENCE).toBe('spkg-api')
  })
})
