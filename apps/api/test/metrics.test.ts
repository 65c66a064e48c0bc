/**
 * Prometheus metrics (src/metrics): `/metrics` only on the METRICS_PORT listener (404 on the public port), request
 * counts and latency histograms labelled by route pattern (never the raw URL), throttled and refused counts, the
 * database and Redis gauges, upload and validation observations.
 */

import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { closeDb, createDb } from '../src/db/connection'
import { listenMetrics } from '../src/plugins/metrics'
import { bearer, testAuthPlugin } from './helpers/app'
import { createTestDb, type TestDb } from './helpers/db'
import { buildPublishingApp, createStory, storyPackage, upload } from './helpers/publishing'

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' })

async function scrape(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(10_000) })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  return res.text()
}

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`)
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const have = m[2] ? m[2].split(/,(?=[a-z_]+=")/) : []
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(m[3])
  }
  return undefined
}

let tdb: TestDb
let app: FastifyInstance
let publicPort: number
let metricsPort: number

beforeAll(async () => {
  tdb = await createTestDb()
  app = await buildApp(config, { db: tdb.db, authPlugin: testAuthPlugin })
  const metricsServer = await listenMetrics(app, { host: '127.0.0.1', port: 0 })
  metricsPort = (metricsServer.address() as { port: number }).port
  await app.listen({ host: '127.0.0.1', port: 0 })
  publicPort = (app.server.address() as { port: number }).port
}, 60_000)
afterAll(async () => {
  await app?.close()
  await tdb?.dispose()
})

describe('metrics', () => {
  it('are never served on the public port', async () => {
    for (const path of ['/metrics', '/metrics?x=1']) {
      const res = await fetch(`http://127.0.0.1:${publicPort}${path}`)
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain('spkg_http_requests_total')
    }
    const other = await fetch(`http://127.0.0.1:${metricsPort}/api/health`)
    expect(other.status).toBe(404)
    await other.text()
  })

  it('count and time requests by route pattern and status, never the raw URL', async () => {
    const before = await scrape(metricsPort)
    const okLabels = { method: 'GET', route: '/api/health', status: '200' }
    const n0 = sample(before, 'spkg_http_requests_total', okLabels) ?? 0
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200)
    const missing = await app.inject({ url: '/api/stories/no-such-story-x7', headers: bearer('u1') })
    expect(missing.statusCode).toBe(404)
    const after = await scrape(metricsPort)
    expect(sample(after, 'spkg_http_requests_total', okLabels)).toBe(n0 + 3)
    expect(sample(after, 'spkg_http_request_duration_seconds_count', okLabels)).toBe(n0 + 3)
    expect(sample(after, 'spkg_http_request_duration_seconds_bucket', { le: '+Inf', ...okLabels })).toBe(
      n0 + 3,
    )
    expect(
      sample(after, 'spkg_http_requests_total', {
        method: 'GET',
        route: '/api/stories/:slug',
        status: '404',
      }),
    ).toBe(1)
    expect(after).not.toContain('no-such-story-x7')
  })

  it('count refused (401) and throttled (429) answers; unmatched URLs share one label', async () => {
    const r401 = await app.inject({ url: '/api/stories' })
    expect(r401.statusCode).toBe(401)
    // A burst to unknown paths from one address: the 404 handler's default throttle (10 a second) refuses the rest.
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => app.inject({ url: `/api/unknown-${i}-zz` })),
    )
    const n429 = burst.filter((r) => r.statusCode === 429).length
    expect(n429).toBeGreaterThan(0)
    const text = await scrape(metricsPort)
    expect(
      sample(text, 'spkg_http_refused_total', { route: '/api/stories', reason: 'unauthenticated' }),
    ).toBe(1)
    expect(sample(text, 'spkg_http_throttled_total', { route: '(unmatched)' })).toBe(n429)
    expect(
      sample(text, 'spkg_http_requests_total', { method: 'GET', route: '(unmatched)', status: '429' }),
    ).toBe(n429)
    expect(text).not.toContain('unknown-')
  })

  it('report the database, and no Redis gauge without Redis', async () => {
    const text = await scrape(metricsPort)
    expect(sample(text, 'spkg_database_up')).toBe(1)
    if (tdb.kind === 'postgres') {
      expect(sample(text, 'spkg_database_connections', { state: 'active' })).toBeGreaterThanOrEqual(1)
    }
    expect(sample(text, 'spkg_redis_up')).toBeUndefined()
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
  })

  it('record upload and validation timings', async () => {
    app.metrics.observeUpload(0.2, 1234, 'ok')
    app.metrics.observeValidation(1.5, 'refused')
    const text = await scrape(metricsPort)
    expect(sample(text, 'spkg_upload_duration_seconds_count', { outcome: 'ok' })).toBe(1)
    expect(sample(text, 'spkg_upload_bytes_total', { outcome: 'ok' })).toBe(1234)
    expect(sample(text, 'spkg_validation_duration_seconds_bucket', { le: '1', outcome: 'refused' })).toBe(0)
    expect(sample(text, 'spkg_validation_duration_seconds_bucket', { le: '2.5', outcome: 'refused' })).toBe(1)
  })
})

describe('metrics of the database and Redis when they are down', () => {
  it('spkg_redis_up 0 with Redis unreachable; spkg_database_up 0 with the database unreachable', async () => {
    // Port 9 on loopback: nothing listens. The limiter fails open and its client is not ready.
    const app2 = await buildApp({ ...config, redisUrl: 'redis://127.0.0.1:9' }, { db: tdb.db })
    const server = await listenMetrics(app2, { host: '127.0.0.1', port: 0 })
    const port = (server.address() as { port: number }).port
    try {
      await app2.ready()
      const text = await scrape(port)
      expect(sample(text, 'spkg_database_up')).toBe(1)
      expect(sample(text, 'spkg_redis_up', { client: 'rate-limit' })).toBe(0)
    } finally {
      await app2.close()
    }
    // Closed with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow()

    const down = await createDb({
      databaseUrl: 'postgres://postgres@127.0.0.1:9/none',
      pgliteDir: 'memory://',
    })
    const app3 = await buildApp(config, { db: down })
    const server3 = await listenMetrics(app3, { host: '127.0.0.1', port: 0 })
    try {
      await app3.ready()
      const text = await scrape((server3.address() as { port: number }).port)
      expect(sample(text, 'spkg_database_up')).toBe(0)
    } finally {
      await app3.close()
      await closeDb(down)
    }
  }, 60_000)

  it.skipIf(!process.env.REDIS_URL)(
    'spkg_redis_up 1 with the shared Redis',
    async () => {
      const app2 = await buildApp({ ...config, redisUrl: process.env.REDIS_URL }, { db: tdb.db })
      const server = await listenMetrics(app2, { host: '127.0.0.1', port: 0 })
      try {
        await app2.ready()
        const text = await scrape((server.address() as { port: number }).port)
        expect(sample(text, 'spkg_redis_up', { client: 'rate-limit' })).toBe(1)
      } finally {
        await app2.close()
      }
    },
    60_000,
  )
})

describe('METRICS_PORT', () => {
  it('is parsed like the other settings; unset means no metrics listener', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464)
    expect(loadConfig({}).metricsPort).toBeUndefined()
    expect(loadConfig({ METRICS_PORT: ' ' }).metricsPort).toBeUndefined()
    expect(() => loadConfig({ METRICS_PORT: 'abc' })).toThrow(
      /METRICS_PORT: must be an integer from 0 to 65535/,
    )
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT: must be at most 65535/)
  })
})

describe('upload and validation timings of a real upload', () => {
  it('observes the upload (bytes) and its validation', async () => {
    const t = await buildPublishingApp()
    try {
      await createStory(t.app, 'metrics-inn')
      const bytes = storyPackage()
      expect((await upload(t.app, 'metrics-inn', bytes)).statusCode).toBe(201)
      const bad = await upload(t.app, 'metrics-inn', new TextEncoder().encode('not a zip at all'))
      expect(bad.statusCode).toBe(422)
      const text = await t.app.metrics.registry.metrics()
      expect(sample(text, 'spkg_upload_duration_seconds_count', { outcome: 'ok' })).toBe(2)
      expect(sample(text, 'spkg_upload_bytes_total', { outcome: 'ok' })).toBe(bytes.byteLength + 16)
      expect(sample(text, 'spkg_validation_duration_seconds_count', { outcome: 'ok' })).toBe(1)
      expect(sample(text, 'spkg_validation_duration_seconds_count', { outcome: 'refused' })).toBe(1)
    } finally {
      await t.close()
    }
  }, 60_000)
})
