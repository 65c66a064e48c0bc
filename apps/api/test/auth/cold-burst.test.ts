/**
 * A burst of requests on a fresh instance (cold key cache) against a real oidc-provider: every valid token is
 * accepted, and the burst costs one discovery and one key-set fetch, not one budget slot per request.
 */
import { expect, it } from 'vitest'
import { bearer } from '../helpers/auth.ts'
import { authSuite } from '../helpers/auth-suite.ts'

// Limits raised: this test is about key lookups, not the 10 req/s per-user throttle.
const suite = authSuite({ alice: ['creator'] }, { app: { limits: { maxFactor: 100 } } })

it('accepts 30 concurrent requests with a cold key cache, fetching the key set once', async () => {
  const headers = bearer(await suite.idp.mintToken('alice'))
  const before = { ...suite.idp.counts }
  const results = await Promise.all(
    Array.from({ length: 30 }, () => suite.app.inject({ method: 'GET', url: '/private', headers })),
  )
  expect(results.map((r) => r.statusCode)).toEqual(Array(30).fill(200))
  expect(suite.idp.counts.jwks - before.jwks).toBe(1)
  expect(suite.idp.counts.discovery).toBeLessThanOrEqual(1)
})
