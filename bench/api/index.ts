/**
 * `pnpm bench api`: requests per second and p99 latency of `GET /api/stories` with a valid RS256 token through the
 * full API stack, against a bare Fastify route running the same database query, in the same run and the same
 * server process (bench/api/server.ts, forked). The ratio full/bare is the cost of CORS + helmet + auth (token
 * verification, session check) + two-tier throttling + zod validation/serialisation. Target: >= 60%.
 *
 * Tokens come from the development OpenID provider (real oidc-provider, RS256). Database: PostgreSQL when
 * `DATABASE_URL` is set (a fresh database, dropped afterwards), else PGlite in memory. autocannon runs in this
 * process; 50 connections; each measurement is 10 s after a 3 s warm-up; `ROUNDS` (default 2) alternating rounds.
 */
import { fork } from 'node:child_process'
import { cpus } from 'node:os'
import autocannon, { type Result } from 'autocannon'
import { startDevIdp } from '../../apps/api/src/dev-idp/index.ts'
import { createPgDatabase } from '../../apps/api/test/helpers/db.ts'

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
  const token = await idp.mintToken('dev-creator')
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
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
  }
  const fullUrl = `${urls.full}/api/stories?page=1&limit=20`
  const bareUrl = `${urls.bare}/api/stories`
  const check = [await fetch(fullUrl, { headers }), await fetch(bareUrl)]
  const bodies = await Promise.all(check.map((r) => r.json() as Promise<{ items: unknown[]; total: number }>))
  if (check.some((r) => r.status !== 200) || bodies[0]?.items.length !== bodies[1]?.items.length) {
    throw new Error('full and bare routes disagree')
  }

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
  const results: { bare: Result[]; full: Result[] } = { bare: [], full: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? (['full', 'bare'] as const) : (['bare', 'full'] as const)
    for (const which of order) {
      const r = await run(which === 'full' ? fullUrl : bareUrl, which === 'full')
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
  const rps = (k: 'bare' | 'full') => median(results[k].map((r) => r.requests.average))
  const p99 = (k: 'bare' | 'full') => median(results[k].map((r) => r.latency.p99))
  const ratio = rps('full') / rps('bare')
  console.log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`)
  console.log(
    `database: ${pg ? 'PostgreSQL' : 'PGlite (in memory)'}; ${CONNECTIONS} connections; ${ROUNDS} rounds of ${DURATION} s`,
  )
  console.log('\n| Route | req/s (median) | p99 ms (median) |')
  console.log('|---|---|---|')
  console.log(`| bare Fastify, same query | ${rps('bare').toFixed(0)} | ${p99('bare')} |`)
  console.log(`| full stack, valid token | ${rps('full').toFixed(0)} | ${p99('full')} |`)
  console.log(
    `\nfull/bare throughput: ${(ratio * 100).toFixed(1)}% (target >= 60%) ${ratio >= 0.6 ? 'MET' : 'NOT MET'}`,
  )
} finally {
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
  await idp.close()
  await pg?.drop()
}
