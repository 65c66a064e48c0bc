/**
 * `pnpm bench files-route`: range-request throughput of the API's `/files/packages/<sha256>.spkg` against
 * `@fastify/static` serving the same file, both in one child process on 127.0.0.1 (bench/files-route/server.ts).
 * The client (autocannon, in this process) cycles through 16 single-range requests of `RANGE_KB` (64) KiB at
 * spread offsets of an 8 MiB package, with `CONNECTIONS` (10) connections, for `SECONDS` (5) s per round; the two
 * servers alternate for `ROUNDS` (3) rounds, after a 2 s warm-up of each. Reports requests/s, MiB/s and latency
 * p50/p99 per round and the median over rounds. The API side runs everything a real request does: rate limiting
 * (factor 10,000,000), the access query on PGlite, the storage stat and a file stream.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import autocannon, { type Result } from 'autocannon'

const SECONDS = Number(process.env.SECONDS ?? 5)
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10)
const RANGE = Number(process.env.RANGE_KB ?? 64) * 1024

const child = spawn(
  process.execPath,
  ['--conditions=@spkg/source', '--import', 'tsx', join(import.meta.dirname, 'server.ts')],
  { stdio: ['pipe', 'pipe', 'inherit'], cwd: join(import.meta.dirname, '..', '..', 'apps', 'api') },
)
const info = await new Promise<{ api: number; static: number; key: string; size: number }>(
  (resolve, reject) => {
    const rl = createInterface({ input: child.stdout! })
    rl.once('line', (l) => resolve(JSON.parse(l)))
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)))
  },
)

const path = `/files/${info.key}`
const staticPath = `/files/${info.key}`
const requests = (p: string) =>
  Array.from({ length: 16 }, (_, i) => {
    const start = Math.floor(((info.size - RANGE) * i) / 15)
    return { method: 'GET' as const, path: p, headers: { range: `bytes=${start}-${start + RANGE - 1}` } }
  })

async function run(port: number, p: string, duration: number): Promise<Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: requests(p),
  })
}

// Sanity: both answer 206 with the same bytes.
for (const [port, p] of [
  [info.api, path],
  [info.static, staticPath],
] as const) {
  const r = await fetch(`http://127.0.0.1:${port}${p}`, { headers: { range: 'bytes=100-199' } })
  const body = Buffer.from(await r.arrayBuffer())
  if (r.status !== 206 || body.length !== 100)
    throw new Error(`port ${port}: ${r.status}, ${body.length} bytes`)
}

const loadBefore = readFileSync('/proc/loadavg', 'utf8').trim()
await run(info.api, path, 2)
await run(info.static, staticPath, 2)
const rows: Array<{
  round: number
  server: string
  rps: number
  mibps: number
  p50: number
  p99: number
  non2xx: number
}> = []
for (let round = 1; round <= ROUNDS; round++) {
  for (const [server, port, p] of [
    ['api /files', info.api, path],
    ['@fastify/static', info.static, staticPath],
  ] as const) {
    const r = await run(port, p, SECONDS)
    rows.push({
      round,
      server,
      rps: r.requests.average,
      mibps: r.throughput.average / 1024 / 1024,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
    })
  }
}
const loadAfter = readFileSync('/proc/loadavg', 'utf8').trim()
child.stdin!.end()

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
console.log(`load before: ${loadBefore}; after: ${loadAfter}`)
console.log('| Round | Server | req/s | MiB/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|---|---|')
for (const r of rows)
  console.log(
    `| ${r.round} | ${r.server} | ${r.rps.toFixed(0)} | ${r.mibps.toFixed(1)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`,
  )
for (const server of ['api /files', '@fastify/static']) {
  const mine = rows.filter((r) => r.server === server)
  console.log(
    `${server}: median ${median(mine.map((r) => r.rps)).toFixed(0)} req/s, ${median(mine.map((r) => r.mibps)).toFixed(1)} MiB/s, p99 ${median(mine.map((r) => r.p99))} ms`,
  )
}
await new Promise((r) => child.once('exit', r))
