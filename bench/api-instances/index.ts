/**
 * `pnpm bench api-instances`: the API behind nginx with one and with two instances, and the figures of
 * the load tests. Real processes as in apps/api/test/ops/cluster.test.ts: two API server processes (src/server.ts)
 * on one fresh PostgreSQL database (`DATABASE_URL`'s server, required) and a redis-server of the bench's own, Debian's
 * nginx on the shipped deploy/nginx.conf (loopback ports), tokens from a real oidc-provider on loopback.
 *
 * 1. Throughput and latency through nginx, one instance (an nginx whose upstream is A) against two (A and B), in
 *    alternating rounds of the same run: `GET /api/stories?limit=20` with a token, and the catalog read
 *    `GET /catalog/stories?limit=20` without one, over 30 stories (20 with a package, published). autocannon in this process,
 *    `CONNECTIONS` (32), a 2 s warm-up then `DURATION` s (8) per measurement, `ROUNDS` (2). The limits are
 *    multiplied by 1000 (`RATE_LIMIT_MAX_FACTOR`) so that nothing answers 429: this measures capacity.
 * 2. Under a steady load through nginx (4 clients, 10 ms between requests): each instance restarted in turn
 *    (SIGTERM, drain, start); Redis killed for 2 s; every database connection killed (`pg_terminate_backend`) three
 *    times; the identity provider's key-set endpoint down. Each: requests, failures, statuses, p99.
 */
import { randomUUID } from 'node:crypto'
import { loadavg } from 'node:os'
import autocannon, { type Result } from 'autocannon'
import { claims, signJwt, startTestIdp } from '../../apps/api/test/helpers/auth.ts'
import { createPgDatabase } from '../../apps/api/test/helpers/db.ts'
import { storyPackage } from '../../apps/api/test/helpers/publishing.ts'
import {
  freePort,
  type ServerProcess,
  startServerProcess,
  stopAllServerProcesses,
} from '../../apps/api/test/helpers/server-process.ts'
import {
  failedCount,
  type LoadReport,
  percentile,
  startLoad,
  startNginx,
  startRedisServer,
  terminateConnections,
} from '../../apps/api/test/ops/cluster.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 2)
const DURATION = Number(process.env.DURATION ?? 8)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32)
if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL is required (two instances share one PostgreSQL database)')
  process.exit(2)
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const load0 = loadavg()

const idp = await startTestIdp({ bench: ['creator', 'moderator'], w0: [], w1: [], w2: [], w3: [] })
const pg = await createPgDatabase()
const redis = await startRedisServer()
const [pa, pb] = await Promise.all([freePort(), freePort()])
const env = (port: number) => ({
  PORT: String(port),
  OIDC_ISSUER: idp.issuer,
  DATABASE_URL: pg.url,
  REDIS_URL: `${redis.url}/0`,
  TRUST_PROXY: '1',
  RATE_LIMIT_MAX_FACTOR: '1000',
  SHUTDOWN_TIMEOUT_MS: '10000',
})
const instances: Record<'a' | 'b', ServerProcess> = {} as Record<'a' | 'b', ServerProcess>
const start = async (which: 'a' | 'b') => {
  instances[which] = await startServerProcess({ name: which, env: env(which === 'a' ? pa : pb) })
}
await Promise.all([start('a'), start('b')])
const one = await startNginx({ upstreams: [pa] })
const two = await startNginx({ upstreams: [pa, pb] })

try {
  // Seed: 30 stories, 20 of them with a package version, published.
  const auth = { authorization: `Bearer ${await idp.mintToken('bench')}` }
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${two.base}/api/stories`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        slug: `bench-story-${i}`,
        title: `Bench story ${i}`,
        author: 'Bench',
        genre: i % 2 ? 'mystery' : 'fantasy',
        content: 'x'.repeat(2000),
      }),
    })
    if (res.status !== 201) throw new Error(`seeding: ${res.status} ${await res.text()}`)
    if (i < 20) {
      const pkg = storyPackage({ id: randomUUID(), title: `Bench story ${i}` })
      const up = await fetch(`${two.base}/api/stories/bench-story-${i}/versions`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/vnd.spkg+zip' },
        body: Buffer.from(pkg),
      })
      if (up.status !== 201) throw new Error(`uploading: ${up.status} ${await up.text()}`)
      const pub = await fetch(`${two.base}/catalog/stories/bench-story-${i}`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ published: true }),
      })
      if (pub.status !== 200) throw new Error(`publishing: ${pub.status} ${await pub.text()}`)
    }
  }

  // 1. One instance against two.
  const routes = {
    stories: { path: '/api/stories?limit=20', headers: auth },
    catalog: { path: '/catalog/stories?limit=20', headers: {} },
  } as const
  const measure = async (base: string, route: keyof typeof routes): Promise<Result> => {
    const opts = {
      url: `${base}${routes[route].path}`,
      connections: CONNECTIONS,
      headers: routes[route].headers,
    }
    await autocannon({ ...opts, duration: 2 })
    const r = await autocannon({ ...opts, duration: DURATION })
    if (r.non2xx > 0 || r.errors > 0)
      throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors on ${opts.url}`)
    return r
  }
  const results: Record<string, Result[]> = {}
  for (let round = 0; round < ROUNDS; round++) {
    for (const route of ['stories', 'catalog'] as const) {
      const order = round % 2 ? (['two', 'one'] as const) : (['one', 'two'] as const)
      for (const n of order) {
        const r = await measure(n === 'one' ? one.base : two.base, route)
        const key = `${route} ${n}`
        results[key] = [...(results[key] ?? []), r]
        console.log(
          `round ${round + 1} ${key}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`,
        )
      }
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const m = Math.floor(s.length / 2)
    return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
  }
  const rps = (k: string) => median((results[k] ?? []).map((r) => r.requests.average))
  const p99 = (k: string) => median((results[k] ?? []).map((r) => r.latency.p99))

  // 2. Load-test figures.
  const tokens = await Promise.all(['w0', 'w1', 'w2', 'w3'].map((u) => idp.mintToken(u)))
  const steady = (tok: (w: number) => string = (w) => tokens[w] as string) =>
    startLoad({
      workers: 4,
      pauseMs: 10,
      request: (w, i) =>
        i % 2
          ? fetch(`${two.base}/api/stories?limit=20`, { headers: { authorization: `Bearer ${tok(w)}` } })
          : fetch(`${two.base}/catalog/stories?limit=20`),
    })
  const line = (what: string, r: LoadReport, extra = '') =>
    `| ${what} | ${r.total} | ${failedCount(r)} | ${JSON.stringify(r.statuses).replaceAll('"', '')} | ${percentile(r.latencies, 50).toFixed(1)} | ${percentile(r.latencies, 99).toFixed(1)} | ${extra} |`
  const faults: string[] = []

  let load = steady()
  await sleep(1000)
  const restartTimes: string[] = []
  for (const which of ['a', 'b'] as const) {
    const t0 = Date.now()
    const exit = await instances[which].stop()
    if (exit.code !== 0) throw new Error(`${which} exited ${exit.code}`)
    const tStopped = Date.now()
    await start(which)
    restartTimes.push(
      `${which}: drained and exited in ${tStopped - t0} ms, serving again after ${Date.now() - t0} ms`,
    )
    await sleep(1000)
  }
  faults.push(
    line(
      'rolling restart of both instances (SIGTERM, drain, start)',
      await load.stop(),
      restartTimes.join('; '),
    ),
  )

  load = steady()
  await sleep(1000)
  await redis.kill()
  await sleep(2000)
  await redis.start()
  await sleep(1000)
  faults.push(line('Redis killed for 2 s, then started (limiter fails open)', await load.stop()))

  load = steady()
  await sleep(1000)
  let killed = 0
  const name = new URL(pg.url).pathname.slice(1)
  for (let i = 0; i < 3; i++) {
    killed += await terminateConnections(process.env.DATABASE_URL, name)
    await sleep(1000)
  }
  const pgLoad = await load.stop()
  faults.push(
    line(
      'every database connection killed 3 times, 1 s apart (`pg_terminate_backend`)',
      pgLoad,
      `${killed} connections killed; 503 is DATABASE_UNAVAILABLE`,
    ),
  )

  // A token signed with the cached key but never seen by the instances: verified from the cache.
  idp.mode = 'down'
  const fresh = [0, 1, 2, 3].map((w) =>
    signJwt({ alg: 'RS256', kid: 'test-key-1' }, claims(idp, { sub: `w${w}` }), idp.signingKey),
  )
  load = steady((w) => fresh[w] as string)
  await sleep(3000)
  faults.push(line('identity provider key-set endpoint down (cached keys)', await load.stop()))
  idp.mode = 'up'

  const load1 = loadavg()
  console.log(
    `\nload average before ${load0.map((x) => x.toFixed(2)).join(' ')}, after ${load1.map((x) => x.toFixed(2)).join(' ')}; Node ${process.version}`,
  )
  console.log(`${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s (after 2 s warm-up), medians\n`)
  console.log('| Through nginx | one instance req/s | two instances req/s | ratio | p99 one / two ms |')
  console.log('|---|---|---|---|---|')
  for (const route of ['stories', 'catalog'] as const) {
    const o = rps(`${route} one`)
    const t = rps(`${route} two`)
    console.log(
      `| ${routes[route].path} | ${o.toFixed(0)} | ${t.toFixed(0)} | ${(t / o).toFixed(2)}× | ${p99(`${route} one`)} / ${p99(`${route} two`)} |`,
    )
  }
  console.log(
    '\n| Under load (4 clients, 10 ms pause, through nginx, two instances) | requests | failed | statuses | p50 ms | p99 ms | notes |',
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const f of faults) console.log(f)
} finally {
  idp.mode = 'up'
  await stopAllServerProcesses()
  await one.stop()
  await two.stop()
  await redis.stop()
  await idp.close()
  await pg.drop()
}
