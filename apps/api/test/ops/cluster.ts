/**
 * Real processes for the operations tests and `pnpm bench api-instances`: Debian's nginx running the shipped
 * `deploy/nginx.conf` (rewritten for loopback ports and a temporary prefix, nothing else changed), a redis-server of
 * the test's own on a free port (stopped and started by the test; the shared Redis on 6379 is never touched), and a
 * steady request load that counts every answer.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import { freePort } from '../helpers/server-process.ts'

const DEPLOY_NGINX = fileURLToPath(new URL('../../../../deploy/nginx.conf', import.meta.url))

/** The nginx binary (`nginx` on the PATH, else Debian's `/usr/sbin/nginx`), or undefined. */
export function nginxBinary(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' })
  const found = which.stdout.trim()
  if (found) return found
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined
}

/** The redis-server binary, or undefined. */
export function redisServerBinary(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' })
  return which.stdout.trim() || undefined
}

async function waitUntil(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * `deploy/nginx.conf` for loopback: the upstream servers `api-1:3000` and `api-2:3000` become `127.0.0.1:<port>`,
 * `listen 80` becomes `127.0.0.1:<port>`, Docker's resolver goes, one worker process, and every file nginx writes
 * (pid, logs, temporary bodies) lives under `dir`. `X-Upstream` (the instance that answered) is added for the tests.
 * Throws when the shipped file no longer has the lines this relies on.
 */
export function loopbackNginxConf(options: { dir: string; port: number; upstreams: number[] }): string {
  let conf = readFileSync(DEPLOY_NGINX, 'utf8')
  const replace = (from: RegExp, to: string) => {
    if (!from.test(conf)) throw new Error(`deploy/nginx.conf: ${from} not found`)
    conf = conf.replace(from, to)
  }
  const servers = options.upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')
  replace(/^ {4}server api-1:3000[^\n]*\n {4}server api-2:3000[^\n]*$/m, servers)
  replace(/^\s*resolver [^\n]*\n/m, '\n')
  replace(/^worker_processes auto;/m, `worker_processes 1;\npid ${options.dir}/nginx.pid;`)
  replace(/listen 80;/, `listen 127.0.0.1:${options.port};`)
  const d = options.dir
  replace(
    /^http \{\n/m,
    `http {\n  access_log ${d}/access.log;\n  client_body_temp_path ${d}/body;\n  proxy_temp_path ${d}/proxy;\n` +
      `  fastcgi_temp_path ${d}/fastcgi;\n  uwsgi_temp_path ${d}/uwsgi;\n  scgi_temp_path ${d}/scgi;\n` +
      '  add_header X-Upstream $upstream_addr always;\n',
  )
  return conf
}

/** A running nginx. */
export interface Nginx {
  /** `http://127.0.0.1:<port>` */
  base: string
  port: number
  dir: string
  /** The error log so far. */
  errorLog(): string
  stop(): Promise<void>
}

/** Starts nginx in the foreground on `deploy/nginx.conf` rewritten by {@link loopbackNginxConf}. */
export async function startNginx(options: { upstreams: number[]; port?: number }): Promise<Nginx> {
  const bin = nginxBinary()
  if (!bin) throw new Error('nginx is not installed (apt-get install nginx)')
  const dir = mkdtempSync(join(tmpdir(), 'spkg-nginx-'))
  const port = options.port ?? (await freePort())
  const conf = join(dir, 'nginx.conf')
  writeFileSync(conf, loopbackNginxConf({ dir, port, upstreams: options.upstreams }))
  const errorLog = join(dir, 'error.log')
  const child = spawn(bin, ['-p', dir, '-e', errorLog, '-c', conf, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const base = `http://127.0.0.1:${port}`
  try {
    await waitUntil('nginx to listen', async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${readLog(errorLog)}`)
      return fetch(`${base}/metrics`).then(
        (r) => r.status === 404,
        () => false,
      )
    })
  } catch (err) {
    child.kill('SIGKILL')
    throw err
  }
  return {
    base,
    port,
    dir,
    errorLog: () => readLog(errorLog),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT') // graceful
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** A redis-server of the test's own (no persistence), which the test may kill and start again on its port. */
export interface RedisServer {
  port: number
  /** `redis://127.0.0.1:<port>` */
  url: string
  /** SIGKILL: what the API sees when Redis dies. */
  kill(): Promise<void>
  /** Starts it again on the same port (empty: no persistence). */
  start(): Promise<void>
  stop(): Promise<void>
}

/** Starts a redis-server on a free loopback port. */
export async function startRedisServer(): Promise<RedisServer> {
  const bin = redisServerBinary()
  if (!bin) throw new Error('redis-server is not installed (apt-get install redis-server)')
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'spkg-redis-'))
  mkdirSync(dir, { recursive: true })
  let child: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  const ping = () =>
    new Promise<boolean>((resolve) => {
      import('node:net').then(({ connect }) => {
        const s = connect(port, '127.0.0.1')
        s.setTimeout(500)
        s.once('connect', () => s.write('PING\r\n'))
        s.once('data', (d) => {
          s.destroy()
          resolve(d.toString().startsWith('+PONG'))
        })
        s.once('error', () => resolve(false))
        s.once('timeout', () => {
          s.destroy()
          resolve(false)
        })
      })
    })
  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return
    const c = spawn(
      bin,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    )
    child = c
    exited = new Promise<void>((resolve) => c.once('exit', () => resolve()))
    await waitUntil('redis-server to answer PING', ping)
  }
  const kill = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGKILL')
    await exited
  }
  await start()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    stop: async () => {
      await kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** What a load run saw. */
export interface LoadReport {
  total: number
  /** Answers by status. */
  statuses: Record<number, number>
  /** Requests that got no answer (connection errors). */
  errors: number
  /** Answers by `X-Upstream` (the instance nginx chose). */
  upstreams: Record<string, number>
  /** Requests that failed: no answer, or a status not in `ok`. First ones, for messages. */
  failures: Array<{ status?: number; error?: string; body?: string; at: number }>
  /** Latencies, ms, sorted. */
  latencies: number[]
}

/** A running load: stop it to get the report. */
export interface Load {
  stop(): Promise<LoadReport>
  /** The report so far (copied). */
  snapshot(): LoadReport
}

/**
 * `workers` loops, each sending `request(worker, i)` one after the other with `pauseMs` between answers, until
 * stopped. Every answer is read to its end; a status outside `ok` (default 200) or no answer is a failure.
 */
export function startLoad(options: {
  workers: number
  request: (worker: number, i: number) => Promise<Response>
  pauseMs?: number
  ok?: (status: number) => boolean
}): Load {
  const ok = options.ok ?? ((s: number) => s === 200)
  const report: LoadReport = { total: 0, statuses: {}, errors: 0, upstreams: {}, failures: [], latencies: [] }
  let running = true
  const started = Date.now()
  const loop = async (worker: number) => {
    for (let i = 0; running; i++) {
      const t0 = performance.now()
      try {
        const res = await options.request(worker, i)
        const body = await res.text()
        report.latencies.push(performance.now() - t0)
        report.total++
        report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1
        const up = res.headers.get('x-upstream') ?? '(none)'
        report.upstreams[up] = (report.upstreams[up] ?? 0) + 1
        if (!ok(res.status) && report.failures.length < 20)
          report.failures.push({ status: res.status, body: body.slice(0, 200), at: Date.now() - started })
      } catch (err) {
        report.total++
        report.errors++
        if (report.failures.length < 20)
          report.failures.push({ error: String((err as Error).cause ?? err), at: Date.now() - started })
      }
      if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs))
    }
  }
  const loops = Array.from({ length: options.workers }, (_, w) => loop(w))
  const copy = (): LoadReport => ({
    ...report,
    statuses: { ...report.statuses },
    upstreams: { ...report.upstreams },
    failures: [...report.failures],
    latencies: [...report.latencies].sort((a, b) => a - b),
  })
  return {
    snapshot: copy,
    stop: async () => {
      running = false
      await Promise.all(loops)
      return copy()
    },
  }
}

/** Requests of a report that failed (no answer, or a status outside `ok`). */
export function failedCount(report: LoadReport, ok: (status: number) => boolean = (s) => s === 200): number {
  let n = report.errors
  for (const [status, count] of Object.entries(report.statuses)) if (!ok(Number(status))) n += count
  return n
}

/** The `p`-th percentile (0-100) of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

/**
 * Kills every connection to database `name` (`pg_terminate_backend`) from an administrator connection to `adminUrl`;
 * resolves with how many were killed.
 */
export async function terminateConnections(adminUrl: string, name: string): Promise<number> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  try {
    const rows = await admin<{ ok: boolean }[]>`select pg_terminate_backend(pid) as ok from pg_stat_activity
      where datname = ${name} and pid <> pg_backend_pid()`
    return rows.filter((r) => r.ok).length
  } finally {
    await admin.end()
  }
}
