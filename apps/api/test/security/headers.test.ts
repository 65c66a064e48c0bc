/**
 * Security headers exactly as the SPEC lists them, and CORS that answers preflights and decorates 401 answers
 * (the auth plugin is registered after the security plugin, as in the API).
 */
import { EXAMPLE_CSP_HOSTS, specCsp } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { buildCspDirectives, EXPOSED_HEADERS } from '../../src/plugins/security-headers.ts'
import { SECURITY } from '../helpers/auth.ts'
import { authSuite } from '../helpers/auth-suite.ts'

const ORIGIN = 'https://app.example.org'
const suite = authSuite({}, { app: {} })

/** The SPEC's policy with the hosts the test configuration (`SECURITY.csp`) sets. */
const EXPECTED_CSP = specCsp(EXAMPLE_CSP_HOSTS)

describe('security headers', () => {
  it('sends the SPEC content security policy with the configured URLs, exactly', async () => {
    const res = await suite.app.inject({ url: '/public' })
    expect(res.headers['content-security-policy']).toBe(EXPECTED_CSP)
  })

  it('defines the csp-endpoint reporting endpoint at the public URL', async () => {
    const res = await suite.app.inject({ url: '/public' })
    expect(res.headers['reporting-endpoints']).toBe(`csp-endpoint="${SECURITY.publicUrl}/api/csp-report"`)
  })

  it('sends the standard security headers on answers of every kind, 401 and 404 included', async () => {
    for (const url of ['/public', '/private', '/nowhere']) {
      const res = await suite.app.inject({ url })
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
      expect(res.headers['referrer-policy']).toBe('no-referrer')
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin')
      expect(res.headers['content-security-policy']).toBe(EXPECTED_CSP)
    }
  })

  it('leaves unset URLs out of the policy instead of writing empty sources', () => {
    const d = buildCspDirectives({ fontCssHost: 'https://f.css', fontHost: 'https://f' })
    expect(d.connectSrc).toEqual(["'self'"])
    expect(d.frameSrc).toEqual(["'self'"])
    expect(d.imgSrc).toEqual(["'self'", 'data:', 'blob:'])
  })
})

describe('CORS', () => {
  it('answers a preflight from an allowed origin with the SPEC methods, headers, credentials and max age', async () => {
    const res = await suite.app.inject({
      method: 'OPTIONS',
      url: '/private',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization,content-type',
      },
    })
    expect(res.statusCode).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(res.headers['access-control-allow-credentials']).toBe('true')
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS')
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type, Authorization')
    expect(res.headers['access-control-max-age']).toBe('7200')
    expect(String(res.headers.vary)).toContain('Origin')
  })

  it('puts CORS headers on a 401, so the browser can read it and redirect to login', async () => {
    const res = await suite.app.inject({ url: '/private', headers: { origin: ORIGIN } })
    expect(res.statusCode).toBe(401)
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(res.headers['access-control-allow-credentials']).toBe('true')
    expect(res.headers['access-control-expose-headers']).toBe(EXPOSED_HEADERS.join(', '))
  })

  it('exposes Retry-After and the per-tier rate-limit headers', () => {
    for (const h of ['Retry-After', 'X-RateLimit-Limit-short', 'X-RateLimit-Remaining-long']) {
      expect(EXPOSED_HEADERS).toContain(h)
    }
  })

  it('does not allow an origin outside the list', async () => {
    const res = await suite.app.inject({
      method: 'OPTIONS',
      url: '/private',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    })
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    const get = await suite.app.inject({ url: '/public', headers: { origin: 'https://evil.example' } })
    expect(get.headers['access-control-allow-origin']).toBeUndefined()
  })
})
