/**
 * Prometheus metrics (prom-client), one registry per app: requests counted and timed per route pattern (never the
 * raw URL, so no ids or slugs become label values), method and status; throttled (429) and refused (401, 403, 503
 * while shutting down) answers; upload and validation timings (`app.metrics.observeUpload`,
 * `app.metrics.observeValidation`, called by the publishing code); the database and Redis as seen at scrape time;
 * Node's process metrics. Served only by {@link listenMetrics} on its own port (`METRICS_PORT`), never on the public
 * one.
 */
import { createServer, type Server } from 'node:http'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { type Db, dbKind, pingDb, queryRows } from '../db/connection'

/** How an upload or a validation ended (a label value). */
export type MetricsOutcome = 'ok' | 'refused' | 'failed' | 'error'

/** The metrics of one app, `app.metrics`. */
export interface ApiMetrics {
  /** The prom-client registry (`registry.metrics()` is the exposition text). */
  readonly registry: Registry
  /** One package upload received (body read to its end or refused): seconds taken, bytes read, outcome. */
  observeUpload(seconds: number, bytes: number, outcome: MetricsOutcome): void
  /** One validation run (worker pool): seconds taken including the wait for a worker, outcome. */
  observeValidation(seconds: number, outcome: MetricsOutcome): void
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Prometheus metrics of this instance (src/metrics). */
    metrics: ApiMetrics
  }
}

/** Latency buckets, seconds: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** Upload and validation buckets, seconds: 10 ms to 2 minutes. */
const LONG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
/** A scrape waits at most this long for the database. */
const DB_PROBE_MS = 2000

/** What the database and Redis probes read at scrape time. */
export interface MetricsProbes {
  db?: Db | undefined
  /** ioredis `status` of the limiter's client (`ready` when usable), or undefined without Redis. */
  redisStatus?: (() => string | undefined) | undefined
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms)
  })
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

/** Creates the registry and the metrics. */
export function createMetrics(probes: MetricsProbes = {}): ApiMetrics & {
  requests: Counter<'method' | 'route' | 'status'>
  duration: Histogram<'method' | 'route' | 'status'>
  throttled: Counter<'route'>
  refused: Counter<'route' | 'reason'>
} {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'spkg_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'spkg_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  const throttled = new Counter({
    name: 'spkg_http_throttled_total',
    help: 'Requests refused by the rate limiter (429), by route pattern',
    labelNames: ['route'] as const,
    registers: [registry],
  })
  const refused = new Counter({
    name: 'spkg_http_refused_total',
    help: 'Requests refused: unauthenticated (401), forbidden (403), or while shutting down (503)',
    labelNames: ['route', 'reason'] as const,
    registers: [registry],
  })
  const uploadSeconds = new Histogram({
    name: 'spkg_upload_duration_seconds',
    help: 'Time to receive a package upload, by outcome',
    labelNames: ['outcome'] as const,
    buckets: LONG_BUCKETS,
    registers: [registry],
  })
  const uploadBytes = new Counter({
    name: 'spkg_upload_bytes_total',
    help: 'Bytes of package uploads received, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  const validationSeconds = new Histogram({
    name: 'spkg_validation_duration_seconds',
    help: 'Time to validate a package (waiting for a worker included), by outcome',
    labelNames: ['outcome'] as const,
    buckets: LONG_BUCKETS,
    registers: [registry],
  })
  const { db, redisStatus } = probes
  if (db) {
    const up = new Gauge({
      name: 'spkg_database_up',
      help: 'Whether the database answered a ping at scrape time (1) or not (0)',
      registers: [registry],
      async collect() {
        try {
          await withTimeout(pingDb(db), DB_PROBE_MS)
          this.set(1)
        } catch {
          this.set(0)
        }
      },
    })
    void up
    if (dbKind(db) === 'postgres') {
      new Gauge({
        name: 'spkg_database_connections',
        help: 'Connections to this database on the PostgreSQL server (every instance), by state',
        labelNames: ['state'] as const,
        registers: [registry],
        async collect() {
          this.reset()
          try {
            const rows = await withTimeout(
              queryRows<{ state: string | null; n: number }>(
                db,
                sql`select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
                  where datname = current_database() group by 1`,
              ),
              DB_PROBE_MS,
            )
            for (const r of rows) this.set({ state: r.state ?? 'unknown' }, Number(r.n))
          } catch {
            // spkg_database_up says the database is down.
          }
        },
      })
    }
  }
  new Gauge({
    name: 'spkg_redis_up',
    help: "Whether the rate limiter's Redis client is ready (1) or not (0); absent without REDIS_URL",
    labelNames: ['client'] as const,
    registers: [registry],
    collect() {
      this.reset()
      const status = redisStatus?.()
      if (status !== undefined) this.set({ client: 'rate-limit' }, status === 'ready' ? 1 : 0)
    },
  })
  return {
    registry,
    requests,
    duration,
    throttled,
    refused,
    observeUpload(seconds, bytes, outcome) {
      uploadSeconds.observe({ outcome }, seconds)
      uploadBytes.inc({ outcome }, bytes)
    },
    observeValidation(seconds, outcome) {
      validationSeconds.observe({ outcome }, seconds)
    },
  }
}

/**
 * `pool` with every `validate` call timed into `metrics`: outcome `ok` (valid), `refused` (invalid) or `error`
 * (threw). The other members are the pool's own.
 */
export function timedValidations<P extends { validate(job: never): Promise<{ valid: boolean }> }>(
  pool: P,
  metrics: Pick<ApiMetrics, 'observeValidation'> | undefined,
): P {
  if (!metrics) return pool
  const timed = Object.create(pool) as P
  const validate = async (job: Parameters<P['validate']>[0]) => {
    const started = performance.now()
    try {
      const outcome = await pool.validate(job)
      metrics.observeValidation((performance.now() - started) / 1000, outcome.valid ? 'ok' : 'refused')
      return outcome
    } catch (err) {
      metrics.observeValidation((performance.now() - started) / 1000, 'error')
      throw err
    }
  }
  Object.defineProperty(timed, 'validate', { value: validate })
  return timed
}

/** The route label: the pattern Fastify matched (`/api/stories/:slug`), or `(unmatched)` for a 404 handler answer. */
function routeOf(request: { routeOptions: { url?: string | undefined } }): string {
  return request.routeOptions.url ?? '(unmatched)'
}

/** Registers `app.metrics` and the request hooks. Not encapsulated: every route of the app is counted. */
export const metricsPlugin = fp<MetricsProbes>(
  async (app, probes) => {
    const m = createMetrics(probes)
    app.decorate('metrics', m as ApiMetrics)
    app.addHook('onResponse', async (request, reply) => {
      const route = routeOf(request)
      const status = reply.statusCode
      const labels = { method: request.method, route, status: String(status) }
      m.requests.inc(labels)
      m.duration.observe(labels, reply.elapsedTime / 1000)
      if (status === 429) m.throttled.inc({ route })
      else if (status === 401) m.refused.inc({ route, reason: 'unauthenticated' })
      else if (status === 403) m.refused.inc({ route, reason: 'forbidden' })
      else if (status === 503 && reply.getHeader('connection') === 'close')
        m.refused.inc({ route, reason: 'shutting-down' })
    })
  },
  { name: 'spkg-metrics' },
)

/**
 * Serves `GET /metrics` of `app` on its own listener (`METRICS_PORT`), closed with the app. Anything else there is
 * 404. Resolves with the listener once it listens. Call it before the app is ready (it adds an `onClose` hook).
 *
 * @example
 * await listenMetrics(app, { host: config.host, port: config.metricsPort })
 */
export async function listenMetrics(
  app: FastifyInstance,
  options: { host: string; port: number },
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n')
      return
    }
    app.metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': app.metrics.registry.contentType })
        res.end(req.method === 'HEAD' ? undefined : text)
      },
      (err: unknown) => {
        app.log.error({ err }, 'metrics: collection failed')
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics collection failed\n')
      },
    )
  })
  server.keepAliveTimeout = 5000
  server.headersTimeout = 10_000
  server.requestTimeout = 10_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: options.host, port: options.port }, () => {
      server.off('error', reject)
      resolve()
    })
  })
  server.on('error', (err) => app.log.error({ err }, 'metrics listener error'))
  app.addHook('onClose', async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return server
}
