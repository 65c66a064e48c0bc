/**
 * Two-tier throttling: both tiers, headers per tier, Retry-After, `sub` vs IP keys, counters shared by two app
 * instances through the shared Redis (own key prefix, cleaned up), and fail-open while a private Redis is stopped.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { THROTTLES } from '../../src/plugins/rate-limit.ts'
import { bearer, buildTestApp } from '../helpers/auth.ts'
import { authSuite } from '../helpers/auth-suite.ts'
import { freePort } from '../helpers/server-process.ts'

/** The shared Redis (CI sets REDIS_URL where one runs); its tests are skipped without it. */
const SHARED_REDIS = process.env.REDIS_URL
/** The fail-open test starts its own redis-server (never stopping the shared one); skipped without the binary. */
const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0

const suite = authSuite({ alice: [], bob: [], carol: [], dave: [] }, { app: {} })

let ipCounter = 1
const freshIp = () => `10.0.${Math.floor(ipCounter / 250)}.${ipCounter++ % 250}`

describe('the SPEC table', () => {
  it('holds the SPEC numbers', () => {
    expect(THROTTLES.default).toEqual([
      { name: 'short', max: 10, ttl: 1000 },
      { name: 'long', max: 100, ttl: 60_000 },
    ])
    expect(THROTTLES.reports[0]).toEqual({ name: 'short', max: 5, ttl: 60_000 })
    expect(THROTTLES['catalog-read']).toEqual([
      { name: 'short', max: 5, ttl: 1000 },
      { name: 'long', max: 30, ttl: 60_000 },
    ])
    expect(THROTTLES['csp-report'][0]).toEqual({ name: 'short', max: 10, ttl: 1000 })
    expect(THROTTLES['catalog-write'][0]?.max).toBeGreaterThanOrEqual(3)
    expect(THROTTLES['catalog-write'][1]?.max).toBeLessThanOrEqual(20)
  })
})

describe('in memory', () => {
  it('lets 10 requests a second through, then 429 with Retry-After and headers per tier', async () => {
    const remoteAddress = freshIp()
    for (let i = 1; i <= 10; i++) {
      const res = await suite.app.inject({ url: '/public', remoteAddress })
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-ratelimit-limit-short']).toBe('10')
      expect(res.headers['x-ratelimit-remaining-short']).toBe(String(10 - i))
      expect(res.headers['x-ratelimit-limit-long']).toBe('100')
      expect(res.headers['x-ratelimit-remaining-long']).toBe(String(100 - i))
    }
    const res = await suite.app.inject({ url: '/public', remoteAddress })
    expect(res.statusCode).toBe(429)
    expect(res.headers['retry-after']).toBe('1')
    expect(res.json()).toMatchObject({
      statusCode: 429,
      message: expect.stringContaining('ThrottlerException'),
    })
    expect(res.json().message).toContain('short')
  })

  it('applies the per-route rows: catalog reads 5/s, reports 5 per 60 s', async () => {
    const remoteAddress = freshIp()
    for (let i = 0; i < 5; i++)
      expect((await suite.app.inject({ url: '/catalog/x', remoteAddress })).statusCode).toBe(200)
    const sixth = await suite.app.inject({ url: '/catalog/x', remoteAddress })
    expect(sixth.statusCode).toBe(429)
    expect(sixth.headers['x-ratelimit-limit-long']).toBeUndefined() // the short tier refused first
    const headers = bearer(await suite.idp.mintToken('alice'))
    for (let i = 0; i < 5; i++) {
      expect((await suite.app.inject({ method: 'POST', url: '/me/reports', headers })).statusCode).toBe(200)
    }
    const report = await suite.app.inject({ method: 'POST', url: '/me/reports', headers })
    expect(report.statusCode).toBe(429)
    expect(Number(report.headers['retry-after'])).toBeGreaterThan(50)
  })

  it('throttles requests that match no route (the 404 handler) by IP', async () => {
    const remoteAddress = freshIp()
    for (let i = 0; i < 10; i++) {
      const res = await suite.app.inject({ url: `/nowhere/${i}`, remoteAddress })
      expect(res.statusCode).toBe(404)
      expect(res.headers['x-ratelimit-remaining-short']).toBe(String(9 - i))
    }
    expect((await suite.app.inject({ url: '/nowhere/else', remoteAddress })).statusCode).toBe(429)
  })

  it('counts HEAD under its GET route (one counter, not a second one that doubles the limits)', async () => {
    const remoteAddress = freshIp()
    for (let i = 1; i <= 10; i++) {
      const res = await suite.app.inject({ method: i % 2 ? 'GET' : 'HEAD', url: '/public', remoteAddress })
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-ratelimit-remaining-short']).toBe(String(10 - i))
    }
    expect((await suite.app.inject({ method: 'HEAD', url: '/public', remoteAddress })).statusCode).toBe(429)
    expect((await suite.app.inject({ method: 'GET', url: '/public', remoteAddress })).statusCode).toBe(429)
  })

  it('throttles CORS preflights by IP with the generous preflight tier, 429 with the CORS headers', async () => {
    expect(THROTTLES.preflight).toEqual([
      { name: 'short', max: 50, ttl: 1000 },
      { name: 'long', max: 1000, ttl: 60_000 },
    ])
    const remoteAddress = freshIp()
    const preflight = (url: string) =>
      suite.app.inject({
        method: 'OPTIONS',
        url,
        remoteAddress,
        headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' },
      })
    for (let i = 0; i < 50; i++) {
      const res = await preflight(i % 2 ? '/private' : `/anything/${i}`)
      expect(res.statusCode).toBe(204)
      expect(res.headers['x-ratelimit-remaining-short']).toBe(String(49 - i))
    }
    const over = await preflight('/public')
    expect(over.statusCode).toBe(429)
    expect(over.headers['retry-after']).toBe('1')
    expect(over.headers['access-control-allow-origin']).toBe('https://app.example.org')
    expect(over.json()).toMatchObject({ statusCode: 429, code: 'THROTTLED' })
    // Another address, and the same address's ordinary requests, have their own counters.
    expect((await suite.app.inject({ url: '/public', remoteAddress })).statusCode).toBe(200)
  })

  it('never throttles health', async () => {
    const remoteAddress = freshIp()
    for (let i = 0; i < 30; i++) {
      const res = await suite.app.inject({ url: '/health', remoteAddress })
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-ratelimit-limit-short']).toBeUndefined()
    }
  })

  it('keys authenticated callers by sub and anonymous ones by IP', async () => {
    const remoteAddress = freshIp()
    const bob = bearer(await suite.idp.mintToken('bob'))
    for (let i = 0; i < 10; i++) {
      expect((await suite.app.inject({ url: '/private', headers: bob, remoteAddress })).statusCode).toBe(200)
    }
    expect((await suite.app.inject({ url: '/private', headers: bob, remoteAddress })).statusCode).toBe(429)
    // Same IP, other user: own counter. Same user, other IP: still refused.
    const alice = bearer(await suite.idp.mintToken('alice'))
    expect((await suite.app.inject({ url: '/private', headers: alice, remoteAddress })).statusCode).toBe(200)
    expect(
      (await suite.app.inject({ url: '/private', headers: bob, remoteAddress: freshIp() })).statusCode,
    ).toBe(429)
  })

  it('keys a caller with a valid token by sub on a public route too; a bad token there stays anonymous', async () => {
    const remoteAddress = freshIp()
    for (let i = 0; i < 10; i++) await suite.app.inject({ url: '/public', remoteAddress })
    expect((await suite.app.inject({ url: '/public', remoteAddress })).statusCode).toBe(429)
    const alice = bearer(await suite.idp.mintToken('alice'))
    const signedIn = await suite.app.inject({ url: '/public', headers: alice, remoteAddress })
    expect(signedIn.statusCode).toBe(200)
    expect(signedIn.headers['x-ratelimit-remaining-long']).toBe('99')
    expect(
      (await suite.app.inject({ url: '/public', headers: bearer('x.y.z'), remoteAddress })).statusCode,
    ).toBe(429)
    const elsewhere = await suite.app.inject({
      url: '/public',
      headers: bearer('x.y.z'),
      remoteAddress: freshIp(),
    })
    expect(elsewhere.statusCode).toBe(200) // public: a bad token is not refused, only not trusted
    expect(elsewhere.headers['x-ratelimit-remaining-short']).toBe('9')
  })

  it('counts the sustained tier separately and refuses past it', async () => {
    const Fastify = (await import('fastify')).default
    const { rateLimitPlugin } = await import('../../src/plugins/rate-limit.ts')
    const bare = Fastify()
    await bare.register(rateLimitPlugin, {})
    bare.get(
      '/tiers',
      {
        config: {
          throttle: [
            { name: 'short', max: 100, ttl: 1000 },
            { name: 'long', max: 3, ttl: 60_000 },
          ],
        } as never,
      },
      async () => ({}),
    )
    try {
      for (let i = 0; i < 3; i++) expect((await bare.inject({ url: '/tiers' })).statusCode).toBe(200)
      const res = await bare.inject({ url: '/tiers' })
      expect(res.statusCode).toBe(429)
      expect(res.headers['x-ratelimit-remaining-short']).toBe('96')
      expect(res.headers['x-ratelimit-remaining-long']).toBe('0')
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(50)
    } finally {
      await bare.close()
    }
  })
})

describe('refused requests (bad or missing token) count against the IP', () => {
  const ORIGIN = 'https://app.example.org' // an allowed origin of the test app's CORS list
  const badTokens = [
    {},
    bearer('not.a.jwt'),
    { authorization: 'Basic YWxpY2U6c2VjcmV0' },
    bearer('eyJhbGciOiJub25lIn0.e30.'),
  ]

  it('answers 401 with the IP tier headers, then 429 with Retry-After and CORS headers once over', async () => {
    const remoteAddress = freshIp()
    for (let i = 1; i <= 10; i++) {
      const res = await suite.app.inject({
        url: '/private',
        headers: { origin: ORIGIN, ...badTokens[i % badTokens.length] },
        remoteAddress,
      })
      expect(res.statusCode).toBe(401)
      expect(res.headers['x-ratelimit-remaining-short']).toBe(String(10 - i))
      expect(res.headers['x-ratelimit-remaining-long']).toBe(String(100 - i))
    }
    const res = await suite.app.inject({ url: '/private', headers: { origin: ORIGIN }, remoteAddress })
    expect(res.statusCode).toBe(429)
    expect(res.headers['retry-after']).toBe('1')
    expect(res.headers['x-ratelimit-limit-short']).toBe('10')
    expect(res.headers['x-ratelimit-remaining-short']).toBe('0')
    expect(res.json()).toEqual({
      statusCode: 429,
      code: 'THROTTLED',
      error: 'Too Many Requests', // the test app's handler adds `error`; the API's does not (errors.ts)
      message: 'ThrottlerException: Too Many Requests (short)',
    })
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(String(res.headers['access-control-expose-headers'])).toContain('Retry-After')
  })

  it('does not charge a valid caller for the bad-token traffic of its IP, nor the IP for the valid caller', async () => {
    const remoteAddress = freshIp()
    for (let i = 0; i < 11; i++)
      await suite.app.inject({ url: '/private', headers: bearer('x.y.z'), remoteAddress })
    expect((await suite.app.inject({ url: '/private', remoteAddress })).statusCode).toBe(429)
    // keyed by sub (SPEC): carol's own counters, untouched by the refused requests of her address
    const carol = bearer(await suite.idp.mintToken('carol'))
    const ok = await suite.app.inject({ url: '/private', headers: carol, remoteAddress })
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['x-ratelimit-remaining-long']).toBe('99')
    // and carol's request was counted once, by sub only: the IP's long tier moved by the refused ones alone
    const other = freshIp()
    expect(
      (await suite.app.inject({ url: '/private', remoteAddress: other })).headers[
        'x-ratelimit-remaining-long'
      ],
    ).toBe('99')
    expect(
      (await suite.app.inject({ url: '/private', headers: carol, remoteAddress: other })).statusCode,
    ).toBe(200)
    expect(
      (await suite.app.inject({ url: '/private', remoteAddress: other })).headers[
        'x-ratelimit-remaining-long'
      ],
    ).toBe('98')
  })

  it('counts a valid token without the role (403) by sub, and answers 429 once over', async () => {
    const dave = bearer(await suite.idp.mintToken('dave'))
    for (let i = 1; i <= 10; i++) {
      const res = await suite.app.inject({ url: '/creator', headers: dave, remoteAddress: freshIp() })
      expect(res.statusCode).toBe(403)
      expect(res.headers['x-ratelimit-remaining-short']).toBe(String(10 - i))
    }
    expect(
      (await suite.app.inject({ url: '/creator', headers: dave, remoteAddress: freshIp() })).statusCode,
    ).toBe(429)
  })

  it('applies the route row to refused requests (reports: 5 a minute per IP)', async () => {
    const remoteAddress = freshIp()
    for (let i = 0; i < 5; i++) {
      expect((await suite.app.inject({ method: 'POST', url: '/me/reports', remoteAddress })).statusCode).toBe(
        401,
      )
    }
    const sixth = await suite.app.inject({ method: 'POST', url: '/me/reports', remoteAddress })
    expect(sixth.statusCode).toBe(429)
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(50)
  })

  it('throttles the refusals of the API itself (no identity provider configured: every protected route 401)', async () => {
    const { buildApp } = await import('../../src/app.ts')
    const { loadConfig } = await import('../../src/config.ts')
    const { createTestDb } = await import('../helpers/db.ts')
    const tdb = await createTestDb()
    const api = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), { db: tdb.db })
    try {
      const remoteAddress = freshIp()
      const statuses: number[] = []
      for (let i = 0; i < 11; i++) {
        statuses.push(
          (await api.inject({ url: '/api/stories', headers: bearer('x.y.z'), remoteAddress })).statusCode,
        )
      }
      expect(statuses).toEqual([...Array(10).fill(401), 429])
      const body = (await api.inject({ url: '/api/stories', remoteAddress })).json()
      expect(body).toEqual({
        statusCode: 429,
        code: 'THROTTLED',
        message: 'ThrottlerException: Too Many Requests (short)',
      })
      // public routes of another address are unaffected, health is never throttled
      expect((await api.inject({ url: '/api/health', remoteAddress })).statusCode).toBe(200)
    } finally {
      await api.close()
      await tdb.dispose()
    }
  }, 60_000)
})

async function deleteKeys(url: string, prefix: string) {
  const r = new Redis(url)
  try {
    const keys = await r.keys(`${prefix}*`)
    if (keys.length > 0) await r.del(...keys)
  } finally {
    r.disconnect()
  }
}

describe('Redis', () => {
  it.skipIf(!SHARED_REDIS)(
    'shares counters between two instances (the 11th request across both is refused)',
    async () => {
      if (!SHARED_REDIS) return
      const nameSpace = `spkg-test-${randomUUID()}:`
      const a = await buildTestApp({
        issuer: suite.idp.issuer,
        db: suite.database.db,
        limits: { redisUrl: SHARED_REDIS, nameSpace },
      })
      const b = await buildTestApp({
        issuer: suite.idp.issuer,
        db: suite.database.db,
        limits: { redisUrl: SHARED_REDIS, nameSpace },
      })
      try {
        const remoteAddress = freshIp()
        const statuses: number[] = []
        for (let i = 0; i < 11; i++) {
          statuses.push((await (i % 2 ? b : a).inject({ url: '/public', remoteAddress })).statusCode)
        }
        expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
        expect(statuses[10]).toBe(429)
        // one request moved each tier by exactly one (no double counting between limiters)
        const otherIp = freshIp()
        const other = await a.inject({ url: '/public', remoteAddress: otherIp })
        expect(other.headers['x-ratelimit-remaining-short']).toBe('9')
        expect(other.headers['x-ratelimit-remaining-long']).toBe('99')
        // HEAD shares the GET route's counter in Redis too.
        const head = await b.inject({ method: 'HEAD', url: '/public', remoteAddress: otherIp })
        expect(head.headers['x-ratelimit-remaining-short']).toBe('8')

        // The keys in Redis: prefix, tier, route and caller, nothing undefined.
        const r = new Redis(SHARED_REDIS)
        try {
          const keys = (await r.keys(`${nameSpace}*`)).map((k) => k.slice(nameSpace.length)).sort()
          expect(keys).toEqual(
            [remoteAddress, otherIp]
              .flatMap((ip) => [`long|GET /public|ip:${ip}`, `short|GET /public|ip:${ip}`])
              .sort(),
          )
        } finally {
          r.disconnect()
        }
      } finally {
        await a.close()
        await b.close()
        await deleteKeys(SHARED_REDIS, nameSpace)
      }
    },
  )

  it.skipIf(!HAS_REDIS_SERVER)(
    'fails open while its Redis is stopped and counts again once it is back',
    async () => {
      const port = await freePort()
      let redis = await startRedis(port)
      const nameSpace = `spkg-test-${randomUUID()}:`
      const limited = await buildTestApp({
        issuer: suite.idp.issuer,
        db: suite.database.db,
        limits: { redisUrl: `redis://127.0.0.1:${port}`, nameSpace },
      })
      try {
        const remoteAddress = freshIp()
        const first = await limited.inject({ url: '/public', remoteAddress })
        expect(first.headers['x-ratelimit-remaining-short']).toBe('9')

        await stopRedis(redis)
        for (let i = 0; i < 15; i++) {
          const res = await limited.inject({ url: '/public', remoteAddress })
          expect(res.statusCode).toBe(200) // fail-open: over the burst limit, yet served
          expect(res.headers['x-ratelimit-remaining-short']).toBeUndefined()
        }

        redis = await startRedis(port)
        expect(await firstCounted(limited)).toBe('9')
      } finally {
        await limited.close()
        await stopRedis(redis)
      }
    },
    60_000,
  )
})

describe('Redis unreachable at start-up', () => {
  it.skipIf(!HAS_REDIS_SERVER)(
    'starts, fails open, and starts counting once Redis comes up',
    async () => {
      const port = await freePort()
      const nameSpace = `spkg-test-${randomUUID()}:`
      const limited = await buildTestApp({
        issuer: suite.idp.issuer,
        db: suite.database.db,
        limits: { redisUrl: `redis://127.0.0.1:${port}`, nameSpace },
      })
      let redis: ChildProcess | undefined
      try {
        const remoteAddress = freshIp()
        for (let i = 0; i < 12; i++) {
          const res = await limited.inject({ url: '/public', remoteAddress })
          expect(res.statusCode).toBe(200)
          expect(res.headers['x-ratelimit-remaining-short']).toBeUndefined()
        }
        redis = await startRedis(port)
        expect(await firstCounted(limited)).toBe('9')
      } finally {
        await limited.close()
        if (redis) await stopRedis(redis)
      }
    },
    60_000,
  )
})

/**
 * Once the limiter reaches Redis again, the remaining count a fresh caller sees (polled every 100 ms,
 * at most 100 times; undefined if it never counts).
 */
async function firstCounted(instance: FastifyInstance): Promise<string | undefined> {
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100))
    const res = await instance.inject({ url: '/public', remoteAddress: freshIp() })
    const remaining = res.headers['x-ratelimit-remaining-short'] as string | undefined
    if (remaining !== undefined) return remaining
  }
  return undefined
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  })
  for (let i = 0; i < 100; i++) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null })
    probe.on('error', () => {})
    const ok = await probe
      .connect()
      .then(() => probe.ping())
      .then(() => true)
      .catch(() => false)
    probe.disconnect()
    if (ok) return child
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('redis-server did not start')
}

function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}
