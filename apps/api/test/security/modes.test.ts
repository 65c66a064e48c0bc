/**
 * The security plugin as the API registers it (`securityPlugin` given its slice of the configuration,
 * `securitySettings`): the content security policy per mode (the docs work over plain http outside production;
 * production keeps the SPEC's policy), and the preflight refusal in the API's one error body.
 */
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import { securityPlugin, securitySettings } from '../../src/plugins/security-headers.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

/** The CSP header a bare app with the security plugin sends for `env`. */
async function cspFor(env: Record<string, string>): Promise<string> {
  const app = Fastify()
  await app.register(securityPlugin, securitySettings(loadConfig(env)))
  app.get('/', async () => ({}))
  try {
    return String((await app.inject({ url: '/' })).headers['content-security-policy'])
  } finally {
    await app.close()
  }
}

describe('content security policy per mode', () => {
  it('is given the four settings it reads and no other part of the configuration', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://app.example.org',
      PUBLIC_URL: 'https://api.example.org',
    })
    expect(securitySettings(config)).toEqual({
      cors: { origins: ['https://app.example.org'] },
      csp: config.csp,
      publicUrl: 'https://api.example.org',
      isProduction: false,
    })
  })

  it('keeps upgrade-insecure-requests in production (the SPEC policy)', async () => {
    const csp = await cspFor({
      NODE_ENV: 'production',
      OIDC_ISSUER: 'https://id.example.org',
      DATABASE_URL: 'postgres://127.0.0.1/spkg',
    })
    expect(csp.split(';')).toContain('upgrade-insecure-requests')
    expect(csp).toContain("default-src 'self'")
  })

  it('leaves it out in development and test, so the docs load over plain http on any address', async () => {
    for (const NODE_ENV of ['development', 'test']) {
      const csp = await cspFor({ NODE_ENV, HOST: '0.0.0.0' })
      expect(csp).not.toContain('upgrade-insecure-requests')
      // The rest of the policy is the SPEC's.
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain('report-uri /api/csp-report')
    }
  })
})

describe('the docs outside production', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ NODE_ENV: 'development', HOST: '0.0.0.0' })
  }, 60_000)
  afterAll(() => t?.close())

  it('serves the docs page and its assets under a policy without upgrade-insecure-requests', async () => {
    const page = await t.app.inject({ url: '/api/docs/', headers: { host: '192.0.2.10:3000' } })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-security-policy']).not.toContain('upgrade-insecure-requests')
    const html = page.body
    const assets = [...html.matchAll(/(?:src|href)="\.?\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1] as string)
    expect(assets.length).toBeGreaterThan(0)
    for (const asset of assets) {
      const res = await t.app.inject({ url: `/api/docs/${asset.replace(/^\.\//, '')}` })
      expect(res.statusCode, asset).toBe(200)
    }
  })
})

describe('preflights', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ CORS_ORIGINS: 'https://app.example.org' })
  }, 60_000)
  afterAll(() => t?.close())

  it('refuses a preflight without Origin or Access-Control-Request-Method with the API error body', async () => {
    for (const headers of [
      { 'access-control-request-method': 'GET' },
      { origin: 'https://app.example.org' },
      {},
    ]) {
      const res = await t.app.inject({ method: 'OPTIONS', url: '/api/stories', headers })
      expect(res.statusCode).toBe(400)
      expect(res.headers['content-type']).toContain('application/json')
      expect(res.json()).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message:
          'Invalid preflight request: the Origin and Access-Control-Request-Method headers are required',
      })
    }
  })

  it('answers a well-formed preflight with 204, no body and the SPEC CORS headers', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/stories',
      headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' },
    })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.org')
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS')
    expect(res.headers['access-control-max-age']).toBe('7200')
    expect(res.headers['x-ratelimit-limit-short']).toBe('50')
  })
})
