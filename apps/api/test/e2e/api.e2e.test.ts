/**
 * End to end: real server processes (src/server.ts, through test/helpers/server-process.ts) with tokens minted by a
 * real OpenID provider (oidc-provider) on loopback, against real PostgreSQL (`DATABASE_URL`: a fresh database per
 * run, dropped afterwards) and Redis (`REDIS_URL`: a key prefix per run, its keys deleted afterwards) when set,
 * else on the embedded defaults (PGlite in a temporary folder, in-memory counters).
 *
 * Processes: A, with the SPEC limits, always. The pair P1 and P2 when `DATABASE_URL` or `REDIS_URL` is set: the same
 * database (with PostgreSQL; else PGlite in memory each) and the same Redis counters, P2 reaching Redis through a
 * loopback proxy the test stops ("Redis stopping mid-run" without stopping the Redis others share). The pair runs
 * with `RATE_LIMIT_MAX_FACTOR=10`: the report quota needs 30 reports of one user to reach the database, which the
 * 5-a-minute `reports` throttle would refuse. A PGlite data folder belongs to one process, so the tests needing a
 * database shared by two processes are skipped without `DATABASE_URL`, and those of counters shared through Redis
 * without `REDIS_URL` (`.ci/run` sets both when the services are reachable).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { attackerKey, bearer, claims, signJwt, startTestIdp, type TestIdp } from '../helpers/auth.ts'
import { createPgDatabase } from '../helpers/db.ts'
import {
  type ServerProcess,
  startServerProcess,
  stopAllServerProcesses,
  waitFor,
} from '../helpers/server-process.ts'
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts'

const ORIGIN = 'https://app.example.org'
const DATABASE_URL = process.env.DATABASE_URL
const REDIS_URL = process.env.REDIS_URL
const prefix = `spkg-e2e-${randomUUID()}:`

/** `url` with ioredis's `keyPrefix` query option (every key of this run starts with `prefix`). */
function withPrefix(url: string, host?: { port: number }): string {
  const u = new URL(url)
  if (host) {
    u.hostname = '127.0.0.1'
    u.port = String(host.port)
  }
  u.searchParams.set('keyPrefix', prefix)
  return u.toString()
}

let idp: TestIdp
let db: { url: string; drop: () => Promise<void> } | undefined
let redisProxy: TcpProxy | undefined
const tempDirs: string[] = []
let a: ServerProcess
let p1: ServerProcess
let p2: ServerProcess

/** Database settings: the shared PostgreSQL database, else PGlite in a temporary folder (A) or in memory (the pair). */
function databaseEnv(pglite: 'folder' | 'memory'): Record<string, string> {
  if (db) return { DATABASE_URL: db.url }
  if (pglite === 'memory') return { PGLITE_DIR: 'memory://' }
  const dir = mkdtempSync(join(tmpdir(), 'spkg-e2e-'))
  tempDirs.push(dir)
  return { PGLITE_DIR: dir }
}

function serverEnv(
  pglite: 'folder' | 'memory',
  extra: Record<string, string | undefined>,
): Record<string, string | undefined> {
  return {
    OIDC_ISSUER: idp.issuer,
    OIDC_AUDIENCE: 'spkg-api',
    CORS_ORIGINS: ORIGIN,
    ...databaseEnv(pglite),
    ...extra,
  }
}

const users = ['alice', 'bob', 'carol', 'rita', 'rob', 'ron', 'sam', 'sue', 'ted', 'tom']

beforeAll(async () => {
  idp = await startTestIdp({
    ...Object.fromEntries(users.map((u) => [u, [] as string[]])),
    alice: ['creator'],
    carol: ['administrator'],
  })
  if (DATABASE_URL) db = await createPgDatabase()
  if (REDIS_URL) {
    const target = new URL(REDIS_URL)
    redisProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) })
  }
  const envA = serverEnv('folder', { REDIS_URL: REDIS_URL && withPrefix(REDIS_URL) })
  const pairEnv = (redisUrl: string | undefined) =>
    serverEnv('memory', { REDIS_URL: redisUrl, RATE_LIMIT_MAX_FACTOR: '10' })
  const pair = Boolean(REDIS_URL || DATABASE_URL)
  // Started together: with PostgreSQL all three migrate the fresh database at once (under the advisory lock).
  const started = await Promise.all([
    startServerProcess({ name: 'A', env: envA }),
    ...(pair
      ? [
          startServerProcess({ name: 'P1', env: pairEnv(REDIS_URL && withPrefix(REDIS_URL)) }),
          startServerProcess({
            name: 'P2',
            env: pairEnv(REDIS_URL && redisProxy && withPrefix(REDIS_URL, redisProxy)),
          }),
        ]
      : []),
  ])
  ;[a, p1, p2] = started as [ServerProcess, ServerProcess, ServerProcess]
}, 300_000)

afterAll(async () => {
  await stopAllServerProcesses()
  await redisProxy?.stop()
  await idp?.close()
  await db?.drop()
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
  if (REDIS_URL) {
    const r = new Redis(REDIS_URL)
    try {
      const keys = await r.keys(`${prefix}*`)
      if (keys.length > 0) await r.del(...keys)
    } finally {
      r.disconnect()
    }
  }
}, 60_000)

const token = (user: string) => idp.mintToken(user)
const get = (server: ServerProcess, path: string, tok?: string) =>
  fetch(`${server.base}${path}`, tok ? { headers: bearer(tok) } : {})
const postReport = (server: ServerProcess, tok: string, details = 'e2e') =>
  fetch(`${server.base}/me/reports`, {
    method: 'POST',
    headers: { ...bearer(tok), 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'spam', details }),
  })

describe(`one server process (${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${REDIS_URL ? 'Redis' : 'in-memory limits'})`, () => {
  it('serves health and auth health without a token', async () => {
    for (const s of [a, p1, p2]) {
      if (!s) continue
      expect(await (await get(s, '/api/health')).json()).toEqual({ status: 'ok', database: 'ok' })
      const auth = await get(s, '/api/health/auth')
      expect(auth.status).toBe(200)
      expect(await auth.json()).toMatchObject({
        status: 'ok',
        issuer: idp.issuer,
        discovery: { status: 'ok' },
      })
    }
  })

  it('never fetches from the identity provider to answer /api/health/auth (public and unthrottled)', async () => {
    const before = idp.counts.discovery + idp.counts.jwks
    for (let i = 0; i < 20; i++) expect((await get(a, '/api/health/auth')).status).toBe(200)
    expect(idp.counts.discovery + idp.counts.jwks).toBe(before)
  })

  it('accepts a provider token, refuses none with 401 carrying CORS headers, answers preflights', async () => {
    const ok = await get(a, '/api/stories', await token('alice'))
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(ok.headers.get('x-ratelimit-limit-short')).toBe('10')

    const anonymous = await fetch(`${a.base}/api/stories`, { headers: { origin: ORIGIN } })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect((await anonymous.json()).statusCode).toBe(401)

    const preflight = await fetch(`${a.base}/api/stories`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-max-age')).toBe('7200')
  })

  it('enforces roles: 403 for a reader creating a story, 201 for a creator', async () => {
    const create = async (user: string) =>
      fetch(`${a.base}/api/stories`, {
        method: 'POST',
        headers: { ...bearer(await token(user)), 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'e2e-story', title: 'T', author: 'A', genre: 'g', content: 'c' }),
      })
    expect((await create('bob')).status).toBe(403)
    expect((await create('alice')).status).toBe(201)
  })

  it('throttles per user: the 6th report in a minute is 429 with Retry-After', async () => {
    // POST /me/reports: 5 per 60 s per user, so timing on a busy machine cannot reset the window mid-test.
    const tok = await token('rob')
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await postReport(a, tok)).status)
    const sixth = await postReport(a, tok)
    expect([...statuses, sixth.status]).toEqual([201, 201, 201, 201, 201, 429])
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await sixth.json()) as { message?: string }).message).toContain('ThrottlerException')
  })

  it('keeps cached keys working when the key-set endpoint goes down after start, and health/auth reports it', async () => {
    expect((await get(a, '/api/stories', await token('alice'))).status).toBe(200) // key test-key-1 cached
    const healthy = await (await get(a, '/api/health/auth')).json()
    expect(healthy.keySet).toMatchObject({ lastFetchOk: true, cachedKeys: 1 })
    idp.mode = 'down'
    try {
      const jwksBefore = idp.counts.jwks
      // A token the provider never issued through this server's cache, signed with the same key: the cached key.
      const fresh = signJwt({ alg: 'RS256', kid: 'test-key-1' }, claims(idp, { sub: 'zoe' }), idp.signingKey)
      expect((await get(a, '/api/stories', fresh)).status).toBe(200)
      expect(idp.counts.jwks).toBe(jwksBefore) // served from the cache: the endpoint was not asked
      // An unknown key id makes the server ask the key-set endpoint, which is down: 401, and recorded.
      const rotated = signJwt({ alg: 'RS256', kid: 'rotated' }, claims(idp), attackerKey())
      expect((await get(a, '/api/stories', rotated)).status).toBe(401)
      expect(idp.counts.jwks).toBe(jwksBefore + 1)
      const health = await get(a, '/api/health/auth')
      expect(health.status).toBe(200) // degraded, not down: a key is still cached
      const body = await health.json()
      expect(body).toMatchObject({ status: 'ok', keySet: { lastFetchOk: false, cachedKeys: 1 } })
      expect(body.keySet.lastError).toEqual(expect.any(String))
      // Still served while the endpoint stays down.
      expect((await get(a, '/api/stories', await token('alice'))).status).toBe(200)
    } finally {
      idp.mode = 'up'
    }
  })
})

describe.skipIf(!REDIS_URL)(
  `two server processes sharing Redis${REDIS_URL ? '' : ' (skipped: REDIS_URL is not set)'}`,
  () => {
    it('shares the rate-limit counters: requests alternating between the processes count once each', async () => {
      const tok = await token('ron')
      const remaining: Array<string | null> = []
      for (let i = 0; i < 6; i++) {
        const res = await get(i % 2 ? p2 : p1, '/api/stories', tok)
        expect(res.status).toBe(200)
        expect(res.headers.get('x-ratelimit-limit-long')).toBe('1000') // 100 a minute x RATE_LIMIT_MAX_FACTOR
        remaining.push(res.headers.get('x-ratelimit-remaining-long'))
      }
      // One counter in Redis whichever process answered (counters of their own would give 999, 999, 998, 998...).
      expect(remaining).toEqual(['999', '998', '997', '996', '995', '994'])
    })

    it('keeps serving, unthrottled, while its Redis is stopped, and counts again once it is back', async () => {
      const proxy = redisProxy as TcpProxy
      const remainingOn = async (server: ServerProcess, user: string) =>
        (await get(server, '/api/stories', await token(user))).headers.get('x-ratelimit-remaining-long')
      expect(await remainingOn(p2, 'sam')).toBe('999')

      await proxy.stop() // what P2 sees when Redis stops; the shared Redis keeps running for P1 and everyone else
      try {
        await waitFor('P2 to log that Redis is unreachable', async () =>
          p2.logs().some((l) => /Redis unreachable/.test(String(l.msg))) ? true : undefined,
        )
        const sue = await token('sue')
        for (let i = 0; i < 15; i++) {
          const res = await get(p2, '/api/stories', sue)
          expect(res.status).toBe(200) // fail-open: served, not counted
          expect(res.headers.get('x-ratelimit-remaining-long')).toBeNull()
        }
        expect((await get(p2, '/api/health')).status).toBe(200)
        // P1 talks to Redis directly and still counts: sam's second request.
        expect(await remainingOn(p1, 'sam')).toBe('998')
      } finally {
        await proxy.start()
      }
      // Reconnected: P2 counts again, in the counters it shares with P1.
      const sam = await token('sam')
      const remaining = await waitFor('P2 to count again once Redis is back', async () => {
        const r = (await get(p2, '/api/stories', sam)).headers.get('x-ratelimit-remaining-long')
        return r ?? undefined
      })
      expect(Number(remaining)).toBeLessThanOrEqual(997)
    }, 60_000)
  },
)

describe.skipIf(!DATABASE_URL)(
  `two server processes sharing one PostgreSQL database${DATABASE_URL ? '' : ' (skipped: DATABASE_URL is not set; a PGlite data folder belongs to one process)'}`,
  () => {
    it('refuses, on the other process, the tokens of a session revoked on one', async () => {
      const tok = await token('tom')
      const list = await get(p1, '/api/auth/sessions', tok)
      const session = (await list.json()).sessions.find((s: { current: boolean }) => s.current)
      const del = await fetch(`${p1.base}/api/auth/sessions/${session.id}`, {
        method: 'DELETE',
        headers: bearer(tok),
      })
      expect(del.status).toBe(204)
      expect((await get(p1, '/api/stories', tok)).status).toBe(401)
      // Other processes re-check revocations every 5 s.
      await waitFor('P2 to refuse the revoked session', async () =>
        (await get(p2, '/api/stories', tok)).status === 401 ? true : undefined,
      )
    }, 30_000)

    it('lets exactly 10 of 30 concurrent reports by one user, split across the two processes, through; the other 20 are 409 REPORT_RATE_LIMITED', async () => {
      const tok = await token('rita')
      const results = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const server = i % 2 ? p2 : p1
          const res = await postReport(server, tok, `e2e ${i}`)
          return { server: server.name, status: res.status, body: await res.json() }
        }),
      )
      expect(results.filter((r) => r.status === 201)).toHaveLength(10)
      const refused = results.filter((r) => r.status === 409)
      expect(refused).toHaveLength(20)
      for (const r of refused) expect(r.body).toMatchObject({ statusCode: 409, code: 'REPORT_RATE_LIMITED' })
      // Each process answered its 15 with 201 or 409 (none was throttled away before the database).
      for (const name of ['P1', 'P2']) {
        const answered = results.filter((r) => r.server === name && (r.status === 201 || r.status === 409))
        expect(answered).toHaveLength(15)
      }
      const sql = postgres((db as { url: string }).url, { max: 1, onnotice: () => {} })
      try {
        const [row] = await sql<
          { n: number }[]
        >`select count(*)::int as n from reports where user_sub = 'rita'`
        expect(row?.n).toBe(10)
      } finally {
        await sql.end()
      }
    })
  },
)
