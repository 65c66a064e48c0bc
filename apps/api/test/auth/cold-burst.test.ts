/**
 * A burst of requests on a fresh instance (cold key cache) against a real oidc-provider: every valid token is
 * accepted, and the burst costs one discovery and one key-set fetch, not one budget slot per request.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { bearer, buildTestApp, createAuthDb, startTestIdp, type TestIdp } from '../helpers/auth.ts'

let idp: TestIdp
let database: Awaited<ReturnType<typeof createAuthDb>>
let app: FastifyInstance

beforeAll(async () => {
  idp = await startTestIdp({ alice: ['creator'] })
  database = await createAuthDb()
  // Limits raised: this test is about key lookups, not the 10 req/s per-user throttle.
  app = await buildTestApp({ issuer: idp.issuer, db: database.db, limits: { maxFactor: 100 } })
}, 60_000)

afterAll(async () => {
  await app?.close()
  await database?.close()
  await idp?.close()
})

it('accepts 30 concurrent requests with a cold key cache, fetching the key set once', async () => {
  const headers = bearer(await idp.mintToken('alice'))
  const before = { ...idp.counts }
  const results = await Promise.all(
    Array.from({ length: 30 }, () => app.inject({ method: 'GET', url: '/private', headers })),
  )
  expect(results.map((r) => r.statusCode)).toEqual(Array(30).fill(200))
  expect(idp.counts.jwks - before.jwks).toBe(1)
  expect(idp.counts.discovery).toBeLessThanOrEqual(1)
})
