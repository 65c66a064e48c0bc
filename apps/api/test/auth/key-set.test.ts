/**
 * The key-set wrapper under stress: an unknown-kid flood stays within 5 provider requests a minute, a key-set
 * endpoint that goes down (or hangs) after start leaves cached keys working and shows in `authState()`, a provider
 * unreachable at start gives 503, and the retention job deletes old auth events only.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { createRequestBudget, purgeAuthEvents, readRoles } from '../../src/plugins/auth/auth-plugin.ts'
import { rowsOf } from '../../src/plugins/auth/store.ts'
import { attackerKey, bearer, buildTestApp, claims, signJwt } from '../helpers/auth.ts'
import { authSuite } from '../helpers/auth-suite.ts'

const suite = authSuite({ alice: ['creator'] })

const providerRequests = () => suite.idp.counts.discovery + suite.idp.counts.jwks

describe('unknown kid flood', () => {
  it('makes at most 5 provider requests a minute and keeps accepting valid tokens', async () => {
    suite.idp.mode = 'up'
    const before = providerRequests()
    // Limits raised: 50 refused tokens from one address would otherwise end in 429s (refusals count by IP).
    const app = await buildTestApp({
      issuer: suite.idp.issuer,
      db: suite.database.db,
      limits: { maxFactor: 100 },
    })
    try {
      const valid = await suite.idp.mintToken('alice')
      expect((await app.inject({ url: '/private', headers: bearer(valid) })).statusCode).toBe(200)
      const key = attackerKey()
      for (let i = 0; i < 50; i++) {
        const token = signJwt({ alg: 'RS256', kid: `random-${i}-${Math.random()}` }, claims(suite.idp), key)
        const res = await app.inject({ url: '/private', headers: bearer(token) })
        expect(res.statusCode).toBe(401)
      }
      expect(providerRequests() - before).toBeLessThanOrEqual(5)
      expect((await app.inject({ url: '/private', headers: bearer(valid) })).statusCode).toBe(200)
      const state = app.authState()
      expect(state.keySet.requestsInWindow).toBe(5)
      expect(state.keySet.budgetExhaustedAt).toBeDefined()
      expect(state.healthy).toBe(true)
    } finally {
      await app.close()
    }
  })
})

describe('key-set endpoint down after start', () => {
  it('keeps cached keys working, serves a stale key after expiry, and reports the failed fetch', async () => {
    suite.idp.mode = 'up'
    // lru-cache (inside get-jwks) keeps its clock reading for 1 ms (ttlResolution) and forgets it on a
    // setTimeout: fake that timer from the start, so the test, not real time, decides when it lapses.
    // Fake time still follows the real clock (shouldAdvanceTime), so no library waits forever.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true })
    const app = await buildTestApp({
      issuer: suite.idp.issuer,
      db: suite.database.db,
      auth: { keys: { ttlMs: 60_000 } },
    })
    try {
      const token = await suite.idp.mintToken('alice')
      expect((await app.inject({ url: '/private', headers: bearer(token) })).statusCode).toBe(200)
      expect(app.authState().keySet.lastFetchOk).toBe(true)

      suite.idp.mode = 'down'
      const fresh = signJwt(
        { alg: 'RS256', kid: 'test-key-1' },
        claims(suite.idp, { sub: 'dave' }),
        suite.idp.signingKey,
      )
      expect((await app.inject({ url: '/private', headers: bearer(fresh) })).statusCode).toBe(200)

      // Let the cached key expire without waiting: get-jwks keeps keys in lru-cache, whose clock is
      // `performance.now()`; move it 61 s on (the TTL is 60 s, so nothing expires by itself during the
      // test), then run the faked timer that makes lru-cache forget its cached clock reading.
      const realNow = performance.now.bind(performance)
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + 61_000)
      vi.advanceTimersByTime(1)
      const later = signJwt(
        { alg: 'RS256', kid: 'test-key-1' },
        claims(suite.idp, { sub: 'erin' }),
        suite.idp.signingKey,
      )
      expect((await app.inject({ url: '/private', headers: bearer(later) })).statusCode).toBe(200)
      const state = app.authState()
      expect(state.keySet.lastFetchOk).toBe(false)
      expect(state.keySet.lastError).toBeDefined()
      expect(state.discovery.status).toBe('ok')

      const unknown = signJwt({ alg: 'RS256', kid: 'rotated-key' }, claims(suite.idp), attackerKey())
      expect((await app.inject({ url: '/private', headers: bearer(unknown) })).statusCode).toBe(401)
      expect(clock).toHaveBeenCalled()
    } finally {
      vi.restoreAllMocks()
      vi.useRealTimers()
      suite.idp.mode = 'up'
      await app.close()
    }
  })

  it('gives up on a hanging key-set endpoint after the fetch timeout (401, not a hung request)', async () => {
    suite.idp.mode = 'hang'
    const app = await buildTestApp({
      issuer: suite.idp.issuer,
      db: suite.database.db,
      auth: { keys: { fetchTimeoutMs: 300 } },
    })
    try {
      const token = await suite.idp.mintToken('alice')
      const res = await app.inject({ url: '/private', headers: bearer(token) })
      expect(res.statusCode).toBe(401)
      const state = app.authState()
      expect(state.keySet.lastFetchOk).toBe(false)
      expect(state.keySet.lastError).toMatch(/TIMEOUT|timeout|abort/i)
      expect(state.healthy).toBe(false) // no key cached and the last fetch failed
    } finally {
      suite.idp.mode = 'up'
      await app.close()
    }
  })
})

describe('provider unreachable at start', () => {
  it('starts, answers 503 to authenticated routes, reports discovery failed', async () => {
    const dead = createServer()
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r))
    const issuer = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`
    await new Promise<void>((r) => dead.close(() => r()))
    const app = await buildTestApp({ issuer, db: suite.database.db })
    try {
      const token = signJwt({ alg: 'RS256', kid: 'k' }, claims({ issuer }), attackerKey())
      const res = await app.inject({ url: '/private', headers: bearer(token) })
      expect(res.statusCode).toBe(503) // AUTH_UNAVAILABLE; the API sends 5xx with the generic message
      expect(res.json().statusCode).toBe(503)
      const state = app.authState()
      expect(state.healthy).toBe(false)
      expect(state.discovery.status).toBe('failed')
      expect(JSON.stringify(state)).not.toContain('\n    at ') // no stack
      expect((await app.inject({ url: '/public' })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })

  it('refuses a discovery document that names another issuer', async () => {
    const liar = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ issuer: 'https://evil.example', jwks_uri: 'https://evil.example/jwks' })),
    )
    await new Promise<void>((r) => liar.listen(0, '127.0.0.1', r))
    const issuer = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`
    const app = await buildTestApp({ issuer, db: suite.database.db })
    try {
      expect(app.authState().discovery).toMatchObject({ status: 'failed' })
    } finally {
      await app.close()
      liar.closeAllConnections()
      await new Promise<void>((r) => liar.close(() => r()))
    }
  })
})

describe('retention', () => {
  it('deletes auth events older than the retention period and keeps the rest', async () => {
    const { db } = suite.database
    await db.execute(sql`delete from auth_events`)
    await db.execute(sql`insert into auth_events (kind, created_at) values
      ('token_refused', now() - interval '40 days'), ('token_refused', now() - interval '31 days'),
      ('session_created', now() - interval '29 days'), ('session_created', now())`)
    expect(await purgeAuthEvents(db, 30)).toBe(2)
    const left = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from auth_events`)
    expect(left[0]?.n).toBe(2)
    expect(await purgeAuthEvents(db, 30)).toBe(0)
  })
})

describe('roles claim', () => {
  it('reads a top-level claim, a dot path, and a URL-named claim; anything else is no roles', () => {
    expect(readRoles({ roles: ['creator'] }, 'roles')).toEqual(['creator'])
    expect(readRoles({ realm_access: { roles: ['moderator', 7] } }, 'realm_access.roles')).toEqual([
      'moderator',
    ])
    expect(
      readRoles({ 'https://spkg.example/roles': ['administrator'] }, 'https://spkg.example/roles'),
    ).toEqual(['administrator'])
    expect(readRoles({ roles: 'administrator' }, 'roles')).toEqual([])
    expect(readRoles({}, 'a.b.c')).toEqual([])
  })
})

describe('request budget', () => {
  it('is a sliding window: 5 per minute, a slot frees 60 s after it was taken', () => {
    let now = 0
    const budget = createRequestBudget(5, 60_000, () => now)
    for (let i = 0; i < 5; i++) {
      now += 1000
      expect(budget.take()).toBe(true)
    }
    expect(budget.take()).toBe(false)
    now = 60_999
    expect(budget.take()).toBe(false)
    now = 61_000 // the first slot (taken at 1,000) is free again
    expect(budget.take()).toBe(true)
    expect(budget.take()).toBe(false)
    expect(budget.used()).toBe(5)
    now = 200_000
    expect(budget.take(2)).toBe(true) // discovery + key set when the key set lives elsewhere
    expect(budget.used()).toBe(2)
  })
})
