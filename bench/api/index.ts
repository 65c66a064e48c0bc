/**
 * `pnpm bench api`: requests per second and p99 latency of `GET /api/stories` with a valid RS256 token through the
 * full API stack, against a bare Fastify route running the same database query, in the same run and the same
 * server process (bench/api/server.ts, forked). The ratio full/bare is the cost of CORS + helmet + auth (token
 * verification, session check) + two-tier throttling + zod validation/serialisation. Target: >= 60%.
 *
 * The same rounds measure the public catalog page `GET /catalog/stories?page=1&limit=20` (anonymous, full stack)
 * over the same 30 stories, 20 of them with an uploaded package, published. Target: at least 85% of the
 * full `GET /api/stories`. On PostgreSQL the run ends with `EXPLAIN (ANALYZE, BUFFERS)` of the catalog page query.
 *
 * Tokens come from the development OpenID provider (real oidc-provider, RS256). Database: PostgreSQL when
 * `DATABASE_URL` is set (a fresh database, dropped afterwards), else PGlite in memory. autocannon runs in this
 * process; 50 connections; each measurement is 10 s after a 3 s warm-up; `ROUNDS` (default 2) alternating rounds
 * (the order of the three routes rotates each round).
 */
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import autocannon, { type Result } from 'autocannon'
import { startDevIdp } from '../../apps/api/src/dev-idp/dev-idp.ts'
import { createPgDatabase } from '../../apps/api/test/helpers/db.ts'
import { storyPackage } from '../../apps/api/test/helpers/publishing.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 2)
const DURATION = Number(process.env.DURATION ?? 10)
const CONNECTIONS = 50

const idp = await startDevIdp({ audience: 'spkg-api' })
const pg = process.env.DATABASE_URL ? await createPgDatabase() : undefined
const child = fork(new URL('./server.ts', import.meta.url), [], {
  execArgv: ['--conditions=@spkg/source', '--import', 'tsx'],
  env: { ...process.env, BENCH_ISSUER: idp.issuer, ...(pg ? { BENCH_DATABASE_URL: pg.url } : {}) },
})
const urls = await new Promise<{ full: string; bare: string }>((resolve, reject) => {
  child.once('message', (m) => resolve(m as { full: string; bare: string }))
  child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)))
})

try {
  const load0 = loadavg()
  const token = await idp.mintToken('dev-creator')
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const moderator = { authorization: `Bearer ${await idp.mintToken('dev-moderator')}` }
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${urls.full}/api/stories`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        slug: `bench-story-${i}`,
        title: `Bench story ${i}`,
        author: 'Bench',
        genre: i % 2 ? 'mystery' : 'fantasy',
        content: 'x'.repeat(2000),
      }),
    })
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`)
    if (i >= 20) continue
    const up = await fetch(`${urls.full}/api/stories/bench-story-${i}/versions`, {
      method: 'POST',
      headers: { authorization: headers.authorization, 'content-type': 'application/vnd.spkg+zip' },
      body: Buffer.from(storyPackage({ id: randomUUID(), title: `Bench story ${i}` })),
    })
    if (up.status !== 201) throw new Error(`uploading failed: ${up.status} ${await up.text()}`)
    const pub = await fetch(`${urls.full}/catalog/stories/bench-story-${i}`, {
      method: 'PUT',
      headers: { ...moderator, 'content-type': 'application/json' },
      body: JSON.stringify({ published: true }),
    })
    if (pub.status !== 200) throw new Error(`publishing failed: ${pub.status} ${await pub.text()}`)
  }
  const fullUrl = `${urls.full}/api/stories?page=1&limit=20`
  const bareUrl = `${urls.bare}/api/stories`
  const catalogUrl = `${urls.full}/catalog/stories?page=1&limit=20`
  const check = [await fetch(fullUrl, { headers }), await fetch(bareUrl), await fetch(catalogUrl)]
  const bodies = await Promise.all(
    check.map((r) => r.json() as Promise<{ items: Array<{ package?: unknown }>; total: number }>),
  )
  if (check.some((r) => r.status !== 200) || bodies[0]?.items.length !== bodies[1]?.items.length) {
    throw new Error(
      `full and bare routes disagree: ${check.map((r) => r.status).join(', ')}; ${JSON.stringify(bodies).slice(0, 500)}`,
    )
  }
  if (bodies[2]?.total !== 20 || bodies[2]?.items.some((i) => !i.package))
    throw new Error('the catalog does not list the 20 published packages')

  const run = async (url: string, withToken: boolean): Promise<Result> => {
    const opts = {
      url,
      connections: CONNECTIONS,
      ...(withToken ? { headers: { authorization: headers.authorization } } : {}),
    }
    await autocannon({ ...opts, duration: 3 })
    const r = await autocannon({ ...opts, duration: DURATION })
    if (r.non2xx > 0 || r.errors > 0)
      throw new Error(`${r.non2xx} non-2xx answers, ${r.errors} errors on ${url}`)
    return r
  }
  type Route = 'bare' | 'full' | 'catalog'
  const routes = ['bare', 'full', 'catalog'] as const
  const urlOf: Record<Route, string> = { bare: bareUrl, full: fullUrl, catalog: catalogUrl }
  const results: Record<Route, Result[]> = { bare: [], full: [], catalog: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = routes.map((_, i) => routes[(i + round) % routes.length] as Route)
    for (const which of order) {
      const r = await run(urlOf[which], which === 'full')
      results[which].push(r)
      console.log(
        `round ${round + 1} ${which}: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms`,
      )
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const m = Math.floor(s.length / 2)
    return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
  }
  const rps = (k: Route) => median(results[k].map((r) => r.requests.average))
  const p99 = (k: Route) => median(results[k].map((r) => r.latency.p99))
  const ratio = rps('full') / rps('bare')
  const catalogRatio = rps('catalog') / rps('full')
  const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ')
  console.log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`)
  console.log(`load average: ${fmt(load0)} at the start, ${fmt(loadavg())} at the end`)
  console.log(
    `database: ${pg ? 'PostgreSQL' : 'PGlite (in memory)'}; ${CONNECTIONS} connections; ${ROUNDS} rounds of ${DURATION} s`,
  )
  console.log('\n| Route | req/s (median) | p99 ms (median) |')
  console.log('|---|---|---|')
  console.log(`| bare Fastify, same query | ${rps('bare').toFixed(0)} | ${p99('bare')} |`)
  console.log(`| full stack, valid token | ${rps('full').toFixed(0)} | ${p99('full')} |`)
  console.log(
    `| \`GET /catalog/stories\`, full stack, anonymous | ${rps('catalog').toFixed(0)} | ${p99('catalog')} |`,
  )
  console.log(
    `\nfull/bare throughput: ${(ratio * 100).toFixed(1)}% (target >= 60%) ${ratio >= 0.6 ? 'MET' : 'NOT MET'}`,
  )
  console.log(
    `catalog/full throughput: ${(catalogRatio * 100).toFixed(1)}% (target >= 85%) ${catalogRatio >= 0.85 ? 'MET' : 'NOT MET'}`,
  )
  if (pg) {
    const plan = await fetch(`${urls.bare}/explain/catalog`)
    console.log(`\nquery plan of the catalog page (EXPLAIN ANALYZE, BUFFERS):\n${await plan.text()}`)
  }
} finally {
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
  await idp.close()
  await pg?.drop()
}
