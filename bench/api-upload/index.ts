/**
 * `pnpm bench api-upload`: uploading and validating a 50 MB, 500-entry package. A real server process
 * run as production runs it (`node apps/api/dist/bin/server.mjs`, built first by `pnpm --filter @spkg/api build`;
 * `API_RUN=tsx` runs `apps/api/src/server.ts` through tsx instead, as before the build existed), with PGlite in
 * memory, or PostgreSQL with `DATABASE_URL`; filesystem storage in a temporary folder; on 127.0.0.1 with the
 * development provider's tokens. The package: a manifest, one part and 498 media
 * files of 100,000 random bytes each, stored (49.8 MB, 500 entries: the SPEC's limits). Measured: the upload's wall
 * time (POST to 201, receiving, hashing, validating in the worker pool, storing), the server process's peak RSS
 * (`VmHWM`, worker threads included: they are threads of that process; its resident size at rest, `VmRSS`,
 * before the first upload), and the latency of `GET /api/health`
 * asked every 20 ms during the upload (its p99: do other requests keep being answered?). `RUNS` uploads (default
 * 3), each a new version. `INTEGRITY=1` gives the manifest its `integrity` map, as `spkg pack` does (the worker
 * then has no map to compute).
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildPackage } from '@spkg/test-utils'
import { startDevIdp } from '../../apps/api/src/dev-idp/dev-idp.ts'
import { createPgDatabase } from '../../apps/api/test/helpers/db.ts'
import { percentile, probeHealth } from '../api-stall/health-probe.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const RUNS = Number(process.env.RUNS ?? 3)
const PROBE_MS = 20
const MEDIA = 498
const MEDIA_BYTES = 100_000
/** `INTEGRITY=1`: the manifest carries its `integrity` map, as `spkg pack` writes it; else the worker computes it. */
const INTEGRITY = process.env.INTEGRITY === '1'

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

function bigPackage(version: string): Uint8Array {
  const assets: Record<string, Uint8Array> = {}
  const entry: Record<string, { method: number }> = {}
  for (let i = 0; i < MEDIA; i++) {
    const name = `assets/m${String(i).padStart(3, '0')}.jpg`
    assets[name] = randomBytes(MEDIA_BYTES)
    entry[name] = { method: 0 }
  }
  return buildPackage({
    manifest: { title: 'Big', version, cover: 'assets/m000.jpg', assets: Object.keys(assets) },
    parts: { 'story/0001-a.sty': 'Hello.\n' },
    assets,
    entry,
    integrity: INTEGRITY,
  })
}

const TSX = process.env.API_RUN === 'tsx'
if (!TSX)
  execFileSync(process.execPath, ['--import', 'tsx', 'build.ts'], {
    cwd: join(ROOT, 'apps/api'),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
const pg = process.env.DATABASE_URL ? await createPgDatabase() : undefined
const dir = await mkdtemp(join(tmpdir(), 'spkg-bench-upload-'))
const idp = await startDevIdp({ audience: 'spkg-api' })
const port = await freePort()
const url = `http://127.0.0.1:${port}`
const server = spawn(
  process.execPath,
  TSX
    ? ['--conditions=@spkg/source', '--import', 'tsx', join(ROOT, 'apps/api/src/server.ts')]
    : [join(ROOT, 'apps/api/dist/bin/server.mjs')],
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
      FILES_DIR: join(dir, 'files'),
      UPLOAD_TMP_DIR: join(dir, 'uploads'),
      SEED_EXAMPLES: 'false',
      REQUEST_TIMEOUT_MS: '300000',
      ...(pg ? { DATABASE_URL: pg.url } : { DATABASE_URL: '', PGLITE_DIR: 'memory://' }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
)
const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
/** The server's `VmHWM` (peak) or `VmRSS` (now), MiB. */
const rss = async (which: 'VmHWM' | 'VmRSS' = 'VmHWM') => {
  const status = await readFile(`/proc/${server.pid}/status`, 'utf8')
  return Number(new RegExp(`${which}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024
}
const peakRss = () => rss('VmHWM')

const probe = (stop: Promise<unknown>) => probeHealth(url, stop, PROBE_MS)

try {
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error('the server did not start in 60 s')
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    await sleep(100)
  }
  const token = await idp.mintToken('dev-creator')
  const auth = { authorization: `Bearer ${token}` }
  const created = await fetch(`${url}/api/stories`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ slug: 'big-story', title: 'Big', author: 'Bench', genre: 'bench', content: '' }),
  })
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`)
  const baseline = await probe(sleep(3000))
  const idleRss = await peakRss()
  const restRss = await rss('VmRSS')
  const rows: string[] = []
  for (let run = 1; run <= RUNS; run++) {
    const bytes = bigPackage(`${run}.0.0`)
    const load = loadavg()[0]?.toFixed(2)
    const t0 = performance.now()
    const uploadDone = fetch(`${url}/api/stories/big-story/versions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/vnd.spkg+zip' },
      body: bytes as Uint8Array<ArrayBuffer>,
      signal: AbortSignal.timeout(300_000),
    }).then(async (r) => ({ status: r.status, body: await r.text(), ms: performance.now() - t0 }))
    const during = await probe(uploadDone)
    const r = await uploadDone
    if (r.status !== 201) throw new Error(`upload: ${r.status} ${r.body.slice(0, 500)}`)
    rows.push(
      `| ${run} | ${(bytes.length / 1e6).toFixed(1)} MB | ${(r.ms / 1000).toFixed(2)} s | ${(await peakRss()).toFixed(0)} MiB | ${percentile(during, 50).toFixed(1)} / ${percentile(during, 99).toFixed(1)} / ${Math.max(...during).toFixed(1)} ms (${during.length}) | ${load} |`,
    )
    await sleep(1200) // the upload route's burst tier
  }
  console.log(
    `\nAPI ${TSX ? 'src/server.ts through tsx' : 'dist/bin/server.mjs'}, ${pg ? 'PostgreSQL' : 'PGlite'}, package ${INTEGRITY ? 'with' : 'without'} an integrity map; before the first upload: RSS ${restRss.toFixed(0)} MiB at rest, peak ${idleRss.toFixed(0)} MiB (start-up); health p99 with no upload: ${percentile(baseline, 99).toFixed(1)} ms`,
  )
  console.log(
    '\n| Run | package | upload to 201 | server peak RSS so far | health p50 / p99 / max during the upload (probes) | load |',
  )
  console.log('|---|---|---|---|---|---|')
  for (const r of rows) console.log(r)
} finally {
  server.kill('SIGTERM')
  await Promise.race([exited, sleep(15_000)])
  if (server.exitCode === null) server.kill('SIGKILL')
  await idp.close()
  await pg?.drop()
  await rm(dir, { recursive: true, force: true })
}
