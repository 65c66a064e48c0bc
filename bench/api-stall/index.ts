/**
 * `pnpm bench api-stall`: can one signed-in user stall the API from inside the rate limits?
 * A real server process (`apps/api/src/server.ts`, PGlite in memory, or PostgreSQL with `DATABASE_URL`) on
 * 127.0.0.1, tokens from the development OpenID provider. A prober asks `GET /api/health` every 20 ms (its
 * latency is what every other user feels); one user sends progress requests at the allowed rate, 10 a second (the
 * route's burst tier; the 100-a-minute tier then answers 429), cycling through worst-case bodies: ~1 MB of empty
 * arrays (the issue's, ~349,000 values), the most keys allowed (12,400 variables), the most values allowed
 * (124,900 empty arrays), an invalid body of 12,400 empty choice groups, the largest real state's shape, and a GET
 * and a HEAD of the saved state. Baseline (prober alone) 5 s, attack 12 s (120 requests: the minute's 100 plus 20
 * refused). Target: health p99 under 50 ms during the attack.
 *
 * Then the publishing and catalog attacks (publishing.ts), each by its own user, each with the prober:
 * `ATTACKS=progress,huge-description,versions-list,catalog,deep-nesting,missing-parts` (the default, in this order)
 * picks and orders them.
 *
 * `API_ROOT=/path/to/another/checkout` runs that checkout's server (to measure a version before a change).
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { startDevIdp } from '../../apps/api/src/dev-idp/dev-idp.ts'
import { createPgDatabase } from '../../apps/api/test/helpers/db.ts'
import {
  emptyArraysState,
  emptyGroupsState,
  manyVariablesState,
  minimalState,
  realLikeState,
} from '../../apps/api/test/helpers/reading-states.ts'
import { percentile, probeHealth } from './health-probe.ts'
import { BENCH_CLIENTS, publishingAttacks } from './publishing.ts'

const ROOT = process.env.API_ROOT ?? join(import.meta.dirname, '..', '..')
const BASELINE_S = Number(process.env.BASELINE_S ?? 5)
const ATTACK_S = Number(process.env.ATTACK_S ?? 12)
const PROBE_MS = 20
const RATE = 10 // requests a second: the route's burst tier
const ATTACKS = (
  process.env.ATTACKS ?? 'progress,huge-description,versions-list,catalog,deep-nesting,missing-parts'
)
  .split(',')
  .map((a) => a.trim())
  .filter(Boolean)

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

const base = minimalState
const BODIES: Array<[string, string]> = [
  ['1 MB of empty arrays', emptyArraysState(349_000)],
  ['12,400 variables', manyVariablesState(12_400)],
  ['124,900 empty arrays', emptyArraysState(124_900)],
  ['invalid: 12,400 empty groups', emptyGroupsState(12_400)],
  ['largest real state shape', realLikeState()],
]

/** A body of story `story` (the helpers' id) as a state of story `key`: the API saves a state under its own key only. */
const asStory = (key: string, text: string) => text.replace('"id":"story"', `"id":${JSON.stringify(key)}`)
const KEYS = ['s0', 's1', 's2']
/** The attack's bodies per key, made before the clock starts. */
const BODIES_AT = new Map(
  KEYS.map((key) => [key, new Map(BODIES.map(([name, text]) => [name, asStory(key, text)]))]),
)

const pg = process.env.DATABASE_URL ? await createPgDatabase() : undefined
const idp = await startDevIdp({ audience: 'spkg-api', clients: BENCH_CLIENTS })
const port = await freePort()
const url = `http://127.0.0.1:${port}`
const server = spawn(
  process.execPath,
  ['--conditions=@spkg/source', '--import', 'tsx', join(ROOT, 'apps/api/src/server.ts')],
  {
    cwd: join(ROOT, 'apps/api'),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: 'spkg-api',
      ...(pg ? { DATABASE_URL: pg.url } : { DATABASE_URL: '', PGLITE_DIR: 'memory://' }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
)
const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))

const probe = (stop: Promise<unknown>) => probeHealth(url, stop, PROBE_MS)

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

try {
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error('the server did not start in 60 s')
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) break
    await sleep(100)
  }
  const load0 = loadavg().map((l) => l.toFixed(2))
  const row = (name: string, xs: number[]) =>
    `| ${name} | ${xs.length} | ${percentile(xs, 50).toFixed(1)} | ${percentile(xs, 99).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`
  // Every token first: the provider drops a kept-alive connection idle for a few seconds (ECONNRESET on reuse).
  const token = await idp.mintToken('dev-reader')
  const publishing = ATTACKS.some((a) => a !== 'progress')
    ? await publishingAttacks(url, (c) => idp.mintToken(c), ATTACK_S)
    : new Map()
  const auth = { authorization: `Bearer ${token}` }
  // Seed: the state GET and HEAD read is the largest accepted one (or, before the caps, the 1 MB one).
  const seeded = await fetch(`${url}/api/progress/seed`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/json', 'if-none-match': '*' },
    body: asStory('seed', BODIES[2]?.[1] ?? ''),
  })
  for (const id of KEYS) {
    await fetch(`${url}/api/progress/${id}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json', 'if-none-match': '*' },
      body: JSON.stringify({ ...base, id }),
    })
  }
  console.log(`seed state: ${seeded.status}`)
  await sleep(1500) // the seeding request leaves the burst tier

  const baseline = await probe(sleep(BASELINE_S * 1000))
  console.log(
    `\nAPI ${ROOT}, ${pg ? 'PostgreSQL' : 'PGlite'}; load average at the start ${load0.join(' ')}\n`,
  )
  console.log('| /api/health | requests | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|')
  console.log(row('prober alone', baseline))
  const statuses = new Map<string, Map<number, number>>()
  const attack = async () => {
    const sends: Promise<void>[] = []
    const kinds = [...BODIES.map(([name]) => name), 'GET', 'HEAD']
    for (let i = 0; i < ATTACK_S * RATE; i++) {
      const kind = kinds[i % kinds.length] as string
      const key = KEYS[i % KEYS.length] as string
      const body = BODIES_AT.get(key)?.get(kind)
      const init: RequestInit = body
        ? {
            method: 'PUT',
            headers: { ...auth, 'content-type': 'application/json', 'if-match': '*' },
            body,
          }
        : { method: kind, headers: auth }
      sends.push(
        fetch(`${url}/api/progress/${body ? key : 'seed'}`, {
          ...init,
          signal: AbortSignal.timeout(30_000),
        })
          .then(async (r) => {
            await r.arrayBuffer()
            return r.status
          })
          .catch(() => 0)
          .then((status) => {
            const m = statuses.get(kind) ?? new Map<number, number>()
            m.set(status, (m.get(status) ?? 0) + 1)
            statuses.set(kind, m)
          }),
      )
      await sleep(1000 / RATE)
    }
    await Promise.all(sends)
  }
  const answers: string[] = []
  for (const name of ATTACKS) {
    if (name === 'progress') {
      const during = await probe(attack())
      console.log(row('during the progress attack', during))
      answers.push(
        `| progress | ${[...statuses].map(([kind, m]) => `${kind}: ${[...m].map(([s, n]) => `${s} × ${n}`).join(', ')}`).join('; ')} |`,
      )
      continue
    }
    const a = publishing.get(name)
    if (!a) throw new Error(`unknown attack ${name}`)
    const during = await probe(a.run())
    console.log(row(`during ${name}`, during))
    answers.push(`| ${name} | ${a.report()} |`)
    await sleep(1500) // the next attack starts from a quiet server
  }
  console.log(
    `\nload average at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  console.log('\n| attack | answers (status × count; 0 = no answer in time) |\n|---|---|')
  for (const line of answers) console.log(line)
} finally {
  server.kill('SIGTERM')
  await Promise.race([exited, sleep(15_000)])
  if (server.exitCode === null) server.kill('SIGKILL')
  await idp.close()
  await pg?.drop()
}
