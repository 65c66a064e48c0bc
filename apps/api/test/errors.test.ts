import { Writable } from 'node:stream'
import { DrizzleQueryError } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { bearer, testAuthPlugin } from './helpers/app'
import { createTestDb, type TestDb } from './helpers/db'

let tdb: TestDb
let app: FastifyInstance
const logLines: string[] = []

beforeAll(async () => {
  tdb = await createTestDb()
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk))
      done()
    },
  })
  app = await buildApp(loadConfig({ NODE_ENV: 'test' }), {
    db: tdb.db,
    authPlugin: testAuthPlugin,
    logger: pino({ level: 'info' }, sink),
  })
  app.get('/api/test-boom', { config: { throttle: false } as never }, async () => {
    throw new Error('db password=hunter2 at /srv/spkg/src/secret.ts:12')
  })
  app.get('/api/test-query-error', { config: { throttle: false } as never }, async () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
    })
    throw new DrizzleQueryError(
      'insert into profiles (sub, bio) values ($1, $2)',
      ['user-4711', 'my secret bio'],
      cause,
    )
  })
  app.get('/api/test-unavailable', { config: { throttle: false } as never }, async () => {
    // as the auth key store throws while the identity provider was never reachable
    throw Object.assign(new Error('Authentication is temporarily unavailable'), {
      statusCode: 503,
      code: 'AUTH_UNAVAILABLE',
    })
  })
  app.get('/api/test-other-503', { config: { throttle: false } as never }, async () => {
    throw Object.assign(new Error('upstream pool at /srv/db exhausted'), { statusCode: 503, code: 'ECONN' })
  })
  await app.ready()
}, 60_000)
afterAll(async () => {
  await app?.close()
  await tdb?.dispose()
})

describe('error bodies', () => {
  it('answers unknown routes with the same body', async () => {
    const res = await app.inject({ url: '/api/nothing-here' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'Resource not found' })
  })

  it('throttles the 404 handler like a route (429 with the same body shape and Retry-After)', async () => {
    const answers = []
    for (let i = 0; i < 25; i++) {
      answers.push(await app.inject({ url: `/api/unknown-${i}`, remoteAddress: '198.51.100.7' }))
    }
    const limited = answers.filter((r) => r.statusCode === 429)
    expect(limited.length).toBeGreaterThan(0)
    expect(answers.filter((r) => r.statusCode === 404).length).toBeGreaterThanOrEqual(10)
    expect(limited[0]?.headers['retry-after']).toBeDefined()
    expect(limited[0]?.json()).toMatchObject({
      statusCode: 429,
      message: expect.stringContaining('ThrottlerException'),
    })
  })

  it('sends 5xx as "Internal server error" and keeps the stack in the log', async () => {
    const res = await app.inject({ url: '/api/test-boom', headers: { 'x-request-id': 'boom-request-1' } })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ statusCode: 500, code: 'INTERNAL', message: 'Internal server error' })
    expect(res.body).not.toContain('hunter2')
    expect(res.body).not.toContain('/srv/')
    const logged = logLines
      .map((l) => JSON.parse(l))
      .find((l) => l.reqId === 'boom-request-1' && l.level === 50)
    expect(logged?.err?.stack).toContain('hunter2')
  })

  it('keeps the message and code of a deliberate 503 (identity provider unreachable), and hides any other', async () => {
    const auth = await app.inject({ url: '/api/test-unavailable' })
    expect(auth.statusCode).toBe(503)
    expect(auth.json()).toEqual({
      statusCode: 503,
      code: 'AUTH_UNAVAILABLE',
      message: 'Authentication is temporarily unavailable',
    })
    const other = await app.inject({ url: '/api/test-other-503' })
    expect(other.statusCode).toBe(503)
    expect(other.json()).toEqual({ statusCode: 503, message: 'Internal server error' })
  })

  it('logs a failed query without its parameter values (personal data)', async () => {
    const res = await app.inject({
      url: '/api/test-query-error',
      headers: { 'x-request-id': 'query-request-1' },
    })
    expect(res.json()).toEqual({ statusCode: 500, code: 'INTERNAL', message: 'Internal server error' })
    const line = logLines.find((l) => l.includes('query-request-1') && JSON.parse(l).level === 50) ?? ''
    expect(line).toContain('insert into profiles (sub, bio) values ($1, $2)')
    expect(line).toContain('23505')
    expect(line).toContain('duplicate key value')
    expect(line).not.toContain('user-4711')
    expect(line).not.toContain('my secret bio')
  })

  it('hides database errors (SQL and parameters) behind the generic 500, or 503 for a lost connection', async () => {
    const broken = await createTestDb()
    const app2 = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), {
      db: broken.db,
      authPlugin: testAuthPlugin,
    })
    await broken.dispose()
    const res = await app2.inject({ url: '/api/stories/some-slug', headers: bearer('u', 'reader') })
    // PostgreSQL: the ended pool is a connection error (CONNECTION_ENDED); PGlite: a closed engine, a server fault.
    expect(res.json()).toEqual(
      broken.kind === 'postgres'
        ? {
            statusCode: 503,
            code: 'DATABASE_UNAVAILABLE',
            message: 'The database is unavailable; retry shortly',
          }
        : { statusCode: 500, code: 'INTERNAL', message: 'Internal server error' },
    )
    expect(res.statusCode).toBe(broken.kind === 'postgres' ? 503 : 500)
    await app2.close()
  }, 60_000)

  it('gives router errors (over-long or malformed paths) the same body', async () => {
    const long = await app.inject({ url: `/api/stories/${'a'.repeat(300)}`, headers: bearer('u', 'reader') })
    expect(long.statusCode).toBe(414)
    expect(long.json()).toEqual({ statusCode: 414, code: 'BAD_URL', message: 'Path parameter too long' })
    const bad = await app.inject({ url: '/api/stories/%E0%A4%A', headers: bearer('u', 'reader') })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ statusCode: 400, code: 'BAD_URL', message: 'Malformed URL' })
  })

  it('answers malformed JSON and wrong content types with 400/415 bodies', async () => {
    const postAs = (contentType: string, payload: string) =>
      app.inject({
        method: 'POST',
        url: '/api/stories',
        headers: { ...bearer('u', 'creator'), 'content-type': contentType },
        payload,
      })
    const json = await postAs('application/json', '{"slug": ')
    expect(json.statusCode).toBe(400)
    expect(json.json().statusCode).toBe(400)
    expect(json.body).not.toMatch(/node_modules|\/work\//)
    const form = await postAs('application/x-www-form-urlencoded', 'slug=abc')
    expect(form.statusCode).toBe(415)
    expect(form.json()).toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
  })
})

describe('API documentation', () => {
  it('serves the OpenAPI description of every route with examples, outside production', async () => {
    const res = await app.inject({ url: '/api/docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    const paths = Object.keys(doc.paths)
    for (const p of [
      '/api/stories',
      '/api/stories/{slug}',
      '/api/auth/profiles/{role}',
      '/me/reports',
      '/catalog/stories',
      '/catalog/series',
      '/api/csp-report',
      '/api/health',
      '/api/health/auth',
      '/api/progress/{storyId}',
    ]) {
      expect(paths).toContain(p)
    }
    const text = JSON.stringify(doc)
    expect(text).toContain('the-lighthouse')
    expect(text).toContain('REPORT_RATE_LIMITED')
    const ui = await app.inject({ url: '/api/docs' })
    expect([200, 302]).toContain(ui.statusCode)
  })

  it('is absent in production', async () => {
    const prod = await buildApp(
      loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        OIDC_ISSUER: 'https://id.example.org',
        DATABASE_URL: 'postgres://unused.invalid/db',
      }),
      { db: tdb.db, authPlugin: testAuthPlugin },
    )
    const res = await prod.inject({ url: '/api/docs/json' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'Resource not found' })
    await prod.close()
  })
})

describe('API documentation examples', () => {
  it('has an example for every request body and every JSON success response', async () => {
    const doc = (await app.inject({ url: '/api/docs/json' })).json()
    // The files routes document their binary answers under their own media types.
    expect(Object.keys(doc.paths['/files/packages/{file}'].get.responses['206'].content)).toEqual([
      'application/vnd.spkg+zip',
    ])
    const components: Record<string, Record<string, unknown>> = doc.components?.schemas ?? {}
    const hasExample = (schema: Record<string, unknown> | undefined): boolean => {
      if (!schema) return false
      if (schema.examples || schema.example) return true
      const ref = schema.$ref
      return typeof ref === 'string' && hasExample(components[ref.split('/').pop() ?? ''])
    }
    // @fastify/swagger moves the examples of an inline schema onto the media type.
    type Media = { schema?: Record<string, unknown>; example?: unknown; examples?: unknown }
    const documented = (c: Media) =>
      hasExample(c.schema) || c.example !== undefined || c.examples !== undefined
    const missing: string[] = []
    for (const [path, ops] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
      if (path.startsWith('/api/docs') || path.startsWith('/api/test-')) continue
      for (const [method, op] of Object.entries<Record<string, unknown>>(ops)) {
        const body = (op.requestBody as { content?: Record<string, Media> })?.content
        for (const [type, c] of Object.entries(body ?? {})) {
          if (!documented(c)) missing.push(`${method} ${path} body ${type}`)
        }
        const responses = (op.responses ?? {}) as Record<string, { content?: Record<string, Media> }>
        for (const [status, r] of Object.entries(responses)) {
          if (!status.startsWith('2')) continue
          for (const [type, c] of Object.entries(r.content ?? {})) {
            // Binary answers (the /files routes) are described by their media type, not an example.
            if (!/json/.test(type)) continue
            if (!documented(c)) missing.push(`${method} ${path} ${status}`)
          }
        }
      }
    }
    expect(missing).toEqual([])
  })
})
