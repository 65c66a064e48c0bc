/**
 * Several instances, for real: two API server processes (src/server.ts) on one fresh PostgreSQL database
 * and one Redis, behind Debian's nginx running the shipped `deploy/nginx.conf` (test/ops/cluster.ts rewrites only its
 * addresses and file paths), with tokens from a real OpenID provider on loopback.
 *
 * - PostgreSQL: a database of this file (`DATABASE_URL`'s server), reached by both instances through a loopback TCP
 *   proxy the test can cut (the shared server is never stopped).
 * - Redis: a redis-server of this file on a free port, killed and started again by the test (never the shared one).
 * - Files: one `FILES_DIR` for both (the filesystem driver; the S3 driver passes the same contract suite).
 *
 * The instances run with `RATE_LIMIT_MAX_FACTOR=10`, as the e2e pair does: 30 reports of one user must reach the
 * database, which the 5-a-minute `reports` tier would refuse first. Processes are started once for the file; the
 * fault tests come last and restore what they break.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTcpProxy, type TcpProxy } from '../e2e/tcp-proxy.ts'
import { attackerKey, bearer, claims, signJwt, startTestIdp, type TestIdp } from '../helpers/auth.ts'
import { createPgDatabase } from '../helpers/db.ts'
import { storyPackage } from '../helpers/publishing.ts'
import { minimalState } from '../helpers/reading-states.ts'
import {
  freePort,
  type ServerProcess,
  startServerProcess,
  stopAllServerProcesses,
  waitFor,
} from '../helpers/server-process.ts'
import {
  failedCount,
  type Nginx,
  nginxBinary,
  percentile,
  type RedisServer,
  redisServerBinary,
  startLoad,
  startNginx,
  startRedisServer,
  terminateConnections,
} from './cluster.ts'

const DATABASE_URL = process.env.DATABASE_URL
const missing = [
  !DATABASE_URL && 'DATABASE_URL',
  !nginxBinary() && 'nginx',
  !redisServerBinary() && 'redis-server',
].filter(Boolean)
const why = missing.length ? ` (skipped: ${missing.join(', ')} missing)` : ''

let idp: TestIdp
let db: { url: string; drop: () => Promise<void> }
let pgProxy: TcpProxy
let redis: RedisServer
let nginx: Nginx
let filesDir: string
const ports = { a: 0, b: 0, ma: 0, mb: 0 }
const instances: Record<'a' | 'b', ServerProcess | undefined> = { a: undefined, b: undefined }
const prefix = `spkg-ops-${randomUUID()}:`

const users = ['alice', 'rita', 'thea', 'tom', 'uma', 'w0', 'w1', 'w2', 'w3', 'p0', 'p1', 'p2', 'p3', 'zed']

function instanceEnv(port: number, metricsPort: number): Record<string, string> {
  const pg = new URL(db.url)
  pg.hostname = '127.0.0.1'
  pg.port = String(pgProxy.port)
  return {
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    OIDC_ISSUER: idp.issuer,
    OIDC_AUDIENCE: 'spkg-api',
    DATABASE_URL: pg.toString(),
    REDIS_URL: `${redis.url}/0?keyPrefix=${encodeURIComponent(prefix)}`,
    TRUST_PROXY: '1',
    RATE_LIMIT_MAX_FACTOR: '10',
    FILES_DIR: filesDir,
    SHUTDOWN_TIMEOUT_MS: '10000',
    // As in deploy/compose.yaml: kept-alive connections outlive the shutdown timeout unless the drain closes them.
    REQUEST_TIMEOUT_MS: '90000',
    KEEP_ALIVE_TIMEOUT_MS: '75000',
    LOG_LEVEL: 'info',
  }
}

async function startInstance(which: 'a' | 'b'): Promise<ServerProcess> {
  const port = which === 'a' ? ports.a : ports.b
  const mport = which === 'a' ? ports.ma : ports.mb
  const s = await startServerProcess({ name: which.toUpperCase(), env: instanceEnv(port, mport) })
  instances[which] = s
  return s
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const token = (user: string) => idp.mintToken(user)
const direct = (which: 'a' | 'b') => (instances[which] as ServerProcess).base
const metricsOf = async (which: 'a' | 'b') =>
  (await fetch(`http://127.0.0.1:${which === 'a' ? ports.ma : ports.mb}/metrics`)).text()
const metric = (text: string, line: RegExp) => {
  const m = line.exec(text)
  return m ? Number(m[1]) : undefined
}
const report = (base: string, tok: string, details: string) =>
  fetch(`${base}/me/reports`, {
    method: 'POST',
    headers: { ...bearer(tok), 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'spam', details }),
  })
/** The instance that answered through nginx: `a` or `b`. */
const upstreamOf = (res: Response) => {
  const up = res.headers.get('x-upstream') ?? ''
  return up.endsWith(`:${ports.a}`) ? 'a' : up.endsWith(`:${ports.b}`) ? 'b' : up
}

/** A package upload whose body is sent in two halves: the first now, the second on `finish()`. */
function streamedUpload(url: string, tok: string, bytes: Uint8Array) {
  const half = Math.floor(bytes.length / 2)
  const req = request(url, {
    agent: new Agent({ keepAlive: true, timeout: 60_000 }), // a client that keeps its connections, as nginx does
    method: 'POST',
    headers: { ...bearer(tok), 'content-type': 'application/vnd.spkg+zip' },
  })
  const response = new Promise<{ status: number; body: string; connection: string | undefined }>(
    (resolve, reject) => {
      req.on('response', (res) => {
        let body = ''
        res.setEncoding('utf8').on('data', (d: string) => {
          body += d
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }),
        )
      })
      req.on('error', reject)
    },
  )
  req.flushHeaders()
  req.write(bytes.subarray(0, half))
  return { response, finish: () => req.end(bytes.subarray(half)) }
}

beforeAll(async () => {
  if (missing.length) return
  idp = await startTestIdp({
    ...Object.fromEntries(users.map((u) => [u, [] as string[]])),
    alice: ['creator'],
  })
  db = await createPgDatabase()
  const target = new URL(db.url)
  pgProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  redis = await startRedisServer()
  filesDir = mkdtempSync(join(tmpdir(), 'spkg-ops-files-'))
  ;[ports.a, ports.b, ports.ma, ports.mb] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ])
  // Both start at once on the fresh database: one migrates, the other waits on the advisory lock.
  await Promise.all([startInstance('a'), startInstance('b')])
  nginx = await startNginx({ upstreams: [ports.a, ports.b] })
}, 180_000)

afterAll(async () => {
  await stopAllServerProcesses()
  await nginx?.stop()
  await redis?.stop()
  await pgProxy?.stop()
  await idp?.close()
  await db?.drop()
  if (filesDir) rmSync(filesDir, { recursive: true, force: true })
}, 60_000)

describe.skipIf(missing.length > 0)(`two instances behind nginx${why}`, () => {
  it('spreads requests over both instances; /metrics is not served through nginx', async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${nginx.base}/api/health/ready`)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'ready' })
      seen.add(upstreamOf(res))
    }
    expect([...seen].sort()).toEqual(['a', 'b'])
    expect((await fetch(`${nginx.base}/metrics`)).status).toBe(404)
    expect(await metricsOf('a')).toMatch(/^spkg_redis_up\{client="rate-limit"\} 1$/m)
  })

  it('counts a user’s burst across both instances: 429 at the same total as one instance', async () => {
    // POST /me/reports: 5 a minute, x10 here = 50. The 10-a-day quota turns reports past 10 into 409, still counted.
    const tok = await token('thea')
    const answers: Array<{ status: number; on: string }> = []
    for (let i = 0; i < 55; i++) {
      const res = await report(nginx.base, tok, `burst ${i}`)
      await res.arrayBuffer()
      answers.push({ status: res.status, on: upstreamOf(res) })
    }
    const first = answers.slice(0, 50)
    expect(first.filter((a) => a.status === 201)).toHaveLength(10)
    expect(first.filter((a) => a.status === 409)).toHaveLength(40)
    expect(answers.slice(50).map((a) => a.status)).toEqual([429, 429, 429, 429, 429])
    // Spread over both (round robin), so neither could have counted 50 alone.
    expect(first.filter((a) => a.on === 'a').length).toBeGreaterThan(15)
    expect(first.filter((a) => a.on === 'b').length).toBeGreaterThan(15)
  })

  it('stores exactly 10 of 30 concurrent reports of one user sent through nginx', async () => {
    const tok = await token('rita')
    const results = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const res = await report(nginx.base, tok, `quota ${i}`)
        return { status: res.status, on: upstreamOf(res), body: await res.json() }
      }),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(10)
    const refused = results.filter((r) => r.status === 409)
    expect(refused).toHaveLength(20)
    for (const r of refused) expect(r.body).toMatchObject({ code: 'REPORT_RATE_LIMITED' })
    expect(new Set(results.map((r) => r.on))).toEqual(new Set(['a', 'b']))
    const sql = postgres(db.url, { max: 1, onnotice: () => {} })
    try {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from reports where user_sub = 'rita'`
      expect(row?.n).toBe(10)
    } finally {
      await sql.end()
    }
  })

  it('refuses a stale reading-state revision with 412 on the other instance', async () => {
    const tok = await token('uma')
    const put = (which: 'a' | 'b', headers: Record<string, string>, seed: number) =>
      fetch(`${direct(which)}/api/progress/ops-story`, {
        method: 'PUT',
        headers: { ...bearer(tok), 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ ...minimalState, id: 'ops-story', rng: { ...minimalState.rng, seed } }),
      })
    const first = await put('a', { 'if-none-match': '*' }, 1)
    expect(first.status).toBe(201)
    const r1 = first.headers.get('etag') as string
    const second = await put('b', { 'if-match': r1 }, 2)
    expect(second.status).toBe(200)
    const r2 = second.headers.get('etag') as string
    expect(r2).not.toBe(r1)
    const stale = await put('a', { 'if-match': r1 }, 3)
    expect(stale.status).toBe(412)
    expect(stale.headers.get('etag')).toBe(r2)
    const read = await fetch(`${direct('a')}/api/progress/ops-story`, { headers: bearer(tok) })
    expect(read.headers.get('etag')).toBe(r2)
    expect((await read.json()).rng.seed).toBe(2)
  })

  it('serves from one instance the package uploaded on the other', async () => {
    const tok = await token('alice')
    const json = { ...bearer(tok), 'content-type': 'application/json' }
    const created = await fetch(`${direct('a')}/api/stories`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ slug: 'ops-inn', title: 'Inn', author: 'A', genre: 'g', content: '' }),
    })
    expect(created.status).toBe(201)
    const bytes = storyPackage()
    const up = await fetch(`${direct('a')}/api/stories/ops-inn/versions`, {
      method: 'POST',
      headers: { ...bearer(tok), 'content-type': 'application/vnd.spkg+zip' },
      body: Buffer.from(bytes),
    })
    expect(up.status).toBe(201)
    const { sha256, size } = (await up.json()) as { sha256: string; size: number }
    const file = await fetch(`${direct('b')}/files/packages/${sha256}.spkg`, { headers: bearer(tok) })
    expect(file.status).toBe(200)
    expect(file.headers.get('etag')).toBe(`"${sha256}"`)
    const got = new Uint8Array(await file.arrayBuffer())
    expect(got.length).toBe(size)
    expect(Buffer.from(got).equals(Buffer.from(bytes))).toBe(true)
    const versions = await fetch(`${direct('b')}/api/stories/ops-inn/versions`, { headers: bearer(tok) })
    expect((await versions.json()).items.map((v: { sha256: string }) => v.sha256)).toEqual([sha256])
  })

  it('refuses on one instance the tokens of a session revoked on the other', async () => {
    const tok = await token('tom')
    const sessions = await (await fetch(`${direct('a')}/api/auth/sessions`, { headers: bearer(tok) })).json()
    const current = sessions.sessions.find((s: { current: boolean }) => s.current)
    expect((await fetch(`${direct('b')}/api/stories`, { headers: bearer(tok) })).status).toBe(200)
    const del = await fetch(`${direct('a')}/api/auth/sessions/${current.id}`, {
      method: 'DELETE',
      headers: bearer(tok),
    })
    expect(del.status).toBe(204)
    expect((await fetch(`${direct('a')}/api/stories`, { headers: bearer(tok) })).status).toBe(401)
    // The other instance re-reads revocations every 5 s.
    const refused = await waitFor('B to refuse the revoked session', async () => {
      const res = await fetch(`${direct('b')}/api/stories`, { headers: bearer(tok) })
      return res.status === 401 ? await res.json() : undefined
    })
    expect(refused).toMatchObject({ code: 'AUTH_SESSION_REVOKED' })
  })

  it('restarts each instance in turn under a steady load through nginx with zero failed requests, finishing an upload in flight', async () => {
    const tokens = await Promise.all(['w0', 'w1', 'w2', 'w3'].map((u) => token(u)))
    const load = startLoad({
      workers: 4,
      pauseMs: 20,
      request: (w, i) =>
        i % 2
          ? fetch(`${nginx.base}/api/stories`, { headers: bearer(tokens[w] as string) })
          : fetch(`${nginx.base}/catalog/stories?limit=5`, { headers: bearer(tokens[w] as string) }),
    })
    const timeline: string[] = []
    const t0 = Date.now()
    const mark = (what: string) => timeline.push(`${Date.now() - t0} ms ${what}`)
    await sleep(500)
    const alice = await token('alice')
    const created = await fetch(`${nginx.base}/api/stories`, {
      method: 'POST',
      headers: { ...bearer(alice), 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'ops-drain', title: 'Drain', author: 'A', genre: 'g', content: '' }),
    })
    expect(created.status).toBe(201)
    for (const which of ['a', 'b'] as const) {
      const old = instances[which] as ServerProcess
      // An upload in flight on the instance when its SIGTERM arrives: half the body sent before, half after.
      const upload = streamedUpload(
        `${old.base}/api/stories/ops-drain/versions`,
        alice,
        storyPackage({ version: which === 'a' ? '1.1.0' : '1.2.0' }),
      )
      await sleep(200)
      mark(`SIGTERM ${which}`)
      const stopping = old.stop()
      await sleep(300)
      upload.finish()
      const uploaded = await upload.response
      expect(uploaded.status).toBe(201)
      // Closed after the answer: the drain does not wait for the client to let the connection go.
      expect(uploaded.connection).toBe('close')
      mark(`${which}'s in-flight upload 201`)
      const answeredAt = Date.now()
      const exit = await stopping
      expect(exit).toEqual({ code: 0, signal: null })
      expect(Date.now() - answeredAt).toBeLessThan(3000)
      expect(old.logs().some((l) => l.msg === 'closed')).toBe(true)
      mark(`${which} exited 0`)
      await startInstance(which)
      const ready = await fetch(`${direct(which)}/api/health/ready`)
      expect(ready.status).toBe(200)
      mark(`${which} ready`)
      // nginx sends it traffic again at once (no failure marking, deploy/nginx.conf).
      await waitFor(`nginx to send traffic to ${which} again`, async () => {
        const res = await fetch(`${nginx.base}/api/health`)
        await res.arrayBuffer()
        return upstreamOf(res) === which ? true : undefined
      })
      mark(`${which} serving`)
    }
    await sleep(500)
    const r = await load.stop()
    const failed = failedCount(r)
    console.info(
      `rolling restart: ${r.total} requests, ${failed} failed, statuses ${JSON.stringify(r.statuses)}, ` +
        `p50 ${percentile(r.latencies, 50).toFixed(1)} ms, p99 ${percentile(r.latencies, 99).toFixed(1)} ms, ` +
        `max ${percentile(r.latencies, 100).toFixed(0)} ms; ${timeline.join(', ')}`,
    )
    expect(r.failures).toEqual([])
    expect(failed).toBe(0)
    expect(r.total).toBeGreaterThan(100)
  }, 90_000)
})

describe.skipIf(missing.length > 0)(`faults under load${why}`, () => {
  it('fails open while Redis is down (served, not counted, ready), and counts again once it is back', async () => {
    const tok = await token('w0')
    const load = startLoad({
      workers: 2,
      pauseMs: 20,
      request: () => fetch(`${nginx.base}/api/stories`, { headers: bearer(tok) }),
    })
    await sleep(300)
    await redis.kill()
    const t0 = Date.now()
    // Both instances notice: served without rate-limit headers (fail-open), still ready, spkg_redis_up 0.
    for (const which of ['a', 'b'] as const) {
      await waitFor(`${which} to serve unthrottled`, async () => {
        const res = await fetch(`${direct(which)}/api/stories`, { headers: bearer(tok) })
        await res.arrayBuffer()
        return res.status === 200 && res.headers.get('x-ratelimit-remaining-long') === null ? true : undefined
      })
      expect((await fetch(`${direct(which)}/api/health/ready`)).status).toBe(200)
      expect(metric(await metricsOf(which), /^spkg_redis_up\{client="rate-limit"\} (\d)$/m)).toBe(0)
    }
    await sleep(500)
    await redis.start()
    const tRestart = Date.now()
    for (const which of ['a', 'b'] as const) {
      await waitFor(`${which} to count again`, async () => {
        const res = await fetch(`${direct(which)}/api/stories`, { headers: bearer(tok) })
        await res.arrayBuffer()
        return res.headers.get('x-ratelimit-remaining-long') !== null ? true : undefined
      })
      expect(metric(await metricsOf(which), /^spkg_redis_up\{client="rate-limit"\} (\d)$/m)).toBe(1)
    }
    const counting = Date.now() - tRestart
    const r = await load.stop()
    console.info(
      `redis down ${tRestart - t0} ms: ${r.total} requests, ${failedCount(r)} failed, statuses ${JSON.stringify(r.statuses)}; counting again ${counting} ms after the restart`,
    )
    expect(r.failures).toEqual([])
  }, 60_000)

  it('answers 503, never 500, when database connections are killed mid-load; the pool recovers', async () => {
    const tokens = await Promise.all(['p0', 'p1', 'p2', 'p3'].map((u) => token(u)))
    const tok = tokens[0] as string
    const load = startLoad({
      workers: 4,
      pauseMs: 10,
      request: (w) => fetch(`${nginx.base}/api/stories`, { headers: bearer(tokens[w] as string) }),
      ok: (s) => s === 200 || s === 503,
    })
    await sleep(300)
    const name = new URL(db.url).pathname.slice(1)
    let killed = 0
    for (let i = 0; i < 3; i++) {
      killed += await terminateConnections(DATABASE_URL as string, name)
      await sleep(300)
    }
    await sleep(500)
    const r = await load.stop()
    // No crash: a connection killed as it opened rejects a promise postgres.js drops (server.ts survivePoolRejections).
    for (const w of ['a', 'b'] as const) {
      expect(instances[w]?.child.exitCode, instances[w]?.stderr().slice(-2000)).toBeNull()
    }
    // What the instances answered nginx (before its retry on the other instance): 200 or 503, never a 500.
    const answered = { 500: 0, 503: 0 }
    for (const which of ['a', 'b'] as const) {
      const text = await metricsOf(which)
      for (const status of [500, 503] as const)
        for (const m of text.matchAll(
          new RegExp(`^spkg_http_requests_total\\{[^}]*status="${status}"[^}]*\\} (\\d+)$`, 'gm'),
        ))
          answered[status] += Number(m[1])
    }
    console.info(
      `pg_terminate_backend x3 (${killed} connections): ${r.total} requests through nginx, statuses ${JSON.stringify(r.statuses)}, errors ${r.errors}; instances answered ${answered[503]} x 503, ${answered[500]} x 500`,
    )
    expect(answered[500]).toBe(0)
    expect(killed).toBeGreaterThan(0)
    expect(r.errors).toBe(0)
    expect(r.failures).toEqual([]) // only 200 or 503
    // No restart: both instances answer again.
    for (const which of ['a', 'b'] as const) {
      expect((await fetch(`${direct(which)}/api/stories`, { headers: bearer(tok) })).status).toBe(200)
      expect((await fetch(`${direct(which)}/api/health/ready`)).status).toBe(200)
    }
  }, 60_000)

  it('is not ready while PostgreSQL is unreachable, answers 503 with a code, and recovers when it is back', async () => {
    const tok = await token('w2')
    await pgProxy.stop()
    try {
      for (const which of ['a', 'b'] as const) {
        const ready = await waitFor(`${which} to be not ready`, async () => {
          const res = await fetch(`${direct(which)}/api/health/ready`)
          return res.status === 503 ? await res.json() : undefined
        })
        expect(ready).toEqual({ status: 'not-ready', reason: 'database-unavailable' })
        const health = await fetch(`${direct(which)}/api/health`)
        expect(health.status).toBe(503)
        const res = await fetch(`${direct(which)}/api/stories`, { headers: bearer(tok) })
        expect(res.status).toBe(503)
        expect(await res.json()).toMatchObject({ statusCode: 503, code: 'DATABASE_UNAVAILABLE' })
        expect(metric(await metricsOf(which), /^spkg_database_up (\d)$/m)).toBe(0)
        expect(instances[which]?.child.exitCode).toBeNull() // no crash
      }
      const through = await fetch(`${nginx.base}/api/stories`, { headers: bearer(tok) })
      expect(through.status).toBe(503)
    } finally {
      await pgProxy.start()
    }
    const t0 = Date.now()
    // The first requests after it is back may still meet a pooled connection that failed meanwhile (503, counted).
    let staleAnswers = 0
    for (const which of ['a', 'b'] as const) {
      await waitFor(`${which} to be ready again`, async () =>
        (await fetch(`${direct(which)}/api/health/ready`)).status === 200 ? true : undefined,
      )
      await waitFor(`${which} to serve again`, async () => {
        const res = await fetch(`${direct(which)}/api/stories`, { headers: bearer(tok) })
        await res.arrayBuffer()
        if (res.status === 503) staleAnswers++
        return res.status === 200 ? true : undefined
      })
    }
    console.info(
      `postgres back: both ready and serving ${Date.now() - t0} ms later (${staleAnswers} answers 503 on the way)`,
    )
    // Then every pooled connection works again: bursts of concurrent requests until one is all 200.
    const bursts = await waitFor(
      'a burst of concurrent requests all answered 200',
      async () => {
        const statuses = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            fetch(`${direct(i % 2 ? 'b' : 'a')}/api/stories`, { headers: bearer(tok) }).then((r) => r.status),
          ),
        )
        staleAnswers += statuses.filter((x) => x === 503).length
        expect(statuses.filter((x) => x !== 200 && x !== 503)).toEqual([])
        return statuses.every((x) => x === 200) ? true : undefined
      },
      { timeoutMs: 10_000, intervalMs: 200 },
    )
    expect(bursts).toBe(true)
    console.info(
      `postgres back: all pooled connections serving ${Date.now() - t0} ms later (${staleAnswers} answers 503 on the way)`,
    )
  }, 60_000)

  it('keeps cached keys working on both instances while the key-set endpoint is down; /api/health/auth says so', async () => {
    const tok = await token('zed')
    for (const which of ['a', 'b'] as const) {
      const res = await fetch(`${direct(which)}/api/stories`, { headers: bearer(tok) })
      expect(res.status).toBe(200)
    }
    idp.mode = 'down'
    try {
      const fresh = signJwt({ alg: 'RS256', kid: 'test-key-1' }, claims(idp, { sub: 'zed' }), idp.signingKey)
      const load = startLoad({
        workers: 2,
        pauseMs: 20,
        request: () => fetch(`${nginx.base}/api/stories`, { headers: bearer(fresh) }),
      })
      // An unknown key id makes each instance ask the key-set endpoint, which is down: 401, recorded.
      const rotated = signJwt({ alg: 'RS256', kid: 'rotated' }, claims(idp), attackerKey())
      for (const which of ['a', 'b'] as const) {
        expect((await fetch(`${direct(which)}/api/stories`, { headers: bearer(rotated) })).status).toBe(401)
        const health = await fetch(`${direct(which)}/api/health/auth`)
        expect(health.status).toBe(200)
        expect(await health.json()).toMatchObject({
          status: 'ok',
          keySet: { lastFetchOk: false, cachedKeys: 1 },
        })
      }
      await sleep(500)
      const r = await load.stop()
      console.info(`key set down: ${r.total} requests with cached keys, ${failedCount(r)} failed`)
      expect(r.failures).toEqual([])
    } finally {
      idp.mode = 'up'
    }
  }, 30_000)
})
