/**
 * Token claims follow the API's string rule (src/input.ts): a `sub` with U+0000 or a lone surrogate is an invalid
 * token (401), not a database error (a NUL reached PostgreSQL as SQLSTATE 22021: a 500 on every route).
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, claims, createAuthDb, signJwt, startTestIdp, type TestIdp } from './_helpers.ts'

let idp: TestIdp
let database: Awaited<ReturnType<typeof createAuthDb>>
let app: FastifyInstance

beforeAll(async () => {
  idp = await startTestIdp({ alice: ['reader'] })
  database = await createAuthDb()
  app = await buildTestApp({ issuer: idp.issuer, db: database.db, limits: { maxFactor: 100 } })
}, 60_000)

afterAll(async () => {
  await app?.close()
  await database?.close()
  await idp?.close()
})

const token = (sub: string) =>
  signJwt({ alg: 'RS256', typ: 'JWT', kid: 'test-key-1' }, claims(idp, { sub }), idp.signingKey)

describe('the sub claim', () => {
  it('with U+0000 or a lone surrogate is refused as an invalid token', async () => {
    for (const sub of ['ali\u0000ce', 'ali\ud800ce', '\udc00']) {
      const res = await app.inject({ url: '/private', headers: { authorization: `Bearer ${token(sub)}` } })
      expect(res.statusCode, JSON.stringify(sub)).toBe(401)
      expect(res.json().code).toBe('AUTH_INVALID_TOKEN')
    }
  })

  it('well-formed, astral characters included, is accepted', async () => {
    const res = await app.inject({
      url: '/private',
      headers: { authorization: `Bearer ${token('al\u{1F600}ce')}` },
    })
    expect(res.statusCode).toBe(200)
  })
})
