/**
 * The API's one configuration object, read once from the environment and validated with zod.
 * Nothing else in the app reads `process.env`: `buildApp` receives a {@link Config}, tests pass
 * their own. A bad setting stops start-up with one line per problem, naming the variable.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LIMITS } from '@spkg/manifest'
import { z } from 'zod'

/*
 * Package publishing (`PACKAGE_QUOTA_BYTES`, `UPLOADS_PER_HOUR`, `VALIDATION_WORKERS`,
 * `VALIDATION_MEMORY_MB`, `VALIDATION_TIMEOUT_MS`, `VALIDATION_QUEUE`, `VALIDATION_QUEUE_WAIT_MS`,
 * `UPLOAD_TMP_DIR`; see apps/api/README.md).
 */

/** Publishing settings. */
export interface PublishingSettings {
  /** Largest package body, bytes: the 50 MiB uncompressed limit plus 1 MiB for the ZIP headers of 500 entries. */
  maxPackageBytes: number
  /** Stored package bytes per user, over every story and version. @default 1 GiB */
  quotaBytes: number
  /** Uploads per user per hour (429 beyond). @default 30 */
  uploadsPerHour: number
  /** Validations at once. @default 2 */
  workers: number
  /** Heap cap of one validation, MiB. @default 256 */
  memoryMb: number
  /** Time budget of one validation, ms. @default 30000 */
  timeoutMs: number
  /** Validations that may wait for a worker (503 VALIDATION_BUSY beyond). @default 8 */
  queue: number
  /** Longest wait for a worker, ms (503 VALIDATION_BUSY past it). @default 20000 */
  queueWaitMs: number
  /** Where uploads are received before they are checked. @default <os tmpdir>/spkg-uploads */
  tmpDir: string
}

/** The defaults. */
export const PUBLISHING_DEFAULTS: PublishingSettings = {
  maxPackageBytes: LIMITS.maxUncompressedBytes + 1024 * 1024,
  quotaBytes: 1024 * 1024 * 1024,
  uploadsPerHour: 30,
  workers: 2,
  memoryMb: 256,
  timeoutMs: 30_000,
  queue: 8,
  queueWaitMs: 20_000,
  tmpDir: join(tmpdir(), 'spkg-uploads'),
}

const NODE_ENVS = ['development', 'production', 'test'] as const

/** Where the `OIDC_ROLES_CLAIM` dot path may point: `roles`, `realm_access.roles`, `https://x/roles`. */
const CLAIM_PATH = /^[A-Za-z0-9_:/.-]{1,200}$/

/** A host name with an optional port (`github.com`, `localhost:8443`). */
const HOST_PORT = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$/
const HOST_MSG = 'must be a host name, optionally with a port (github.com, localhost:8443)'

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)

const optionalUrl = (protocols: RegExp, what: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .refine((s) => URL.canParse(s) && protocols.test(new URL(s).protocol), {
        message: `must be an absolute ${what} URL`,
      })
      .transform((s) => s.replace(/\/+$/, ''))
      .optional(),
  )

const httpUrl = optionalUrl(/^https?:$/, 'http(s)')

const integer = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => emptyToUndefined(v) ?? String(fallback),
    z
      .string()
      .trim()
      .regex(/^\d+$/, { message: `must be an integer from ${min} to ${max}` })
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`)),
  )

/** Default `REPO_TIMEOUT_MS`: an import's download fits the connection timeout beside its validation (15 + 20 + 30 < 70 s). */
export const REPO_TIMEOUT_DEFAULT_MS = 15_000

/**
 * Default connection timeouts, ms (`REQUEST_TIMEOUT_MS` and the others; see {@link Config.timeouts}). The connection
 * timeout is above the longest an upload's connection stays idle before its answer: `VALIDATION_QUEUE_WAIT_MS` +
 * `VALIDATION_TIMEOUT_MS` (20 + 30 s), with 20 s left for storing the package and its record.
 */
export const TIMEOUT_DEFAULTS = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 5_000,
  connectionMs: 70_000,
  shutdownMs: 10_000,
} as const

const EnvSchema = z.object({
  HOST: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(255).default('127.0.0.1')),
  PORT: integer(0, 65_535, 3000),
  METRICS_PORT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^\d+$/, { message: 'must be an integer from 0 to 65535' })
      .transform(Number)
      .pipe(z.number().int().max(65_535, 'must be at most 65535'))
      .optional(),
  ),
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(NODE_ENVS, { message: `must be one of ${NODE_ENVS.join(', ')}` }).default('development'),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        message: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
  DATABASE_URL: optionalUrl(/^postgres(?:ql)?:$/, 'postgres://'),
  PGLITE_DIR: z.preprocess(emptyToUndefined, z.string().trim().min(1).default('.data/pglite')),
  REDIS_URL: optionalUrl(/^rediss?:$/, 'redis://'),
  OIDC_ISSUER: httpUrl,
  OIDC_AUDIENCE: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(500).default('spkg-api')),
  OIDC_ROLES_CLAIM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(CLAIM_PATH, { message: 'must be a dot path such as roles or realm_access.roles' })
      .default('roles'),
  ),
  CORS_ORIGINS: z.preprocess(
    (v) => emptyToUndefined(v) ?? '',
    z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((o) => o.trim().replace(/\/+$/, ''))
          .filter(Boolean),
      )
      .refine((list) => list.every((o) => URL.canParse(o) && new URL(o).origin === o), {
        message: 'must be a comma-separated list of origins such as https://app.example.org',
      }),
  ),
  AUTH_URL: httpUrl,
  FILES_URL: httpUrl,
  FILES_PURGE_URL: httpUrl,
  FILES_PURGE_TOKEN: z.preprocess(emptyToUndefined, z.string().trim().max(2000).optional()),
  ERRORS_URL: httpUrl,
  FONT_CSS_HOST: z.preprocess(
    (v) => emptyToUndefined(v) ?? 'https://fonts.googleapis.com',
    z.string().refine((s) => URL.canParse(s), { message: 'must be an absolute URL' }),
  ),
  FONT_HOST: z.preprocess(
    (v) => emptyToUndefined(v) ?? 'https://fonts.gstatic.com',
    z.string().refine((s) => URL.canParse(s), { message: 'must be an absolute URL' }),
  ),
  PUBLIC_URL: httpUrl,
  TRUST_PROXY: z.preprocess(
    (v) => emptyToUndefined(v) ?? 'false',
    z
      .string()
      .trim()
      .transform((s): boolean | number | string[] => {
        if (s === 'true') return true
        if (s === 'false') return false
        if (/^\d+$/.test(s)) return Number(s)
        return s.split(',').map((p) => p.trim())
      })
      .refine((v) => !Array.isArray(v) || v.every((p) => /^[0-9a-fA-F.:/]+$/.test(p)), {
        message: 'must be true, false, a hop count or a comma-separated list of proxy addresses/CIDRs',
      }),
  ),
  AUTH_EVENTS_RETENTION_DAYS: integer(1, 3650, 90),
  RATE_LIMIT_MAX_FACTOR: integer(1, 10_000_000, 1),
  REQUEST_TIMEOUT_MS: integer(100, 3_600_000, TIMEOUT_DEFAULTS.requestMs),
  HEADERS_TIMEOUT_MS: integer(100, 3_600_000, TIMEOUT_DEFAULTS.headersMs),
  KEEP_ALIVE_TIMEOUT_MS: integer(100, 3_600_000, TIMEOUT_DEFAULTS.keepAliveMs),
  CONNECTION_TIMEOUT_MS: integer(100, 3_600_000, TIMEOUT_DEFAULTS.connectionMs),
  SHUTDOWN_TIMEOUT_MS: integer(100, 600_000, TIMEOUT_DEFAULTS.shutdownMs),
  FILES_DIR: z.preprocess(emptyToUndefined, z.string().trim().min(1).default('.data/files')),
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
        message: 'must be an S3 bucket name (3-63 characters a-z 0-9 . -)',
      })
      .optional(),
  ),
  S3_ENDPOINT: httpUrl,
  S3_REGION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[a-z0-9-]{1,40}$/, { message: 'must be a region name such as us-east-1' })
      .default('us-east-1'),
  ),
  S3_FORCE_PATH_STYLE: z.preprocess(
    (v) => emptyToUndefined(v) ?? 'false',
    z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true'),
  ),
  SWEEP_INTERVAL_MS: integer(0, 7 * 86_400_000, 3_600_000),
  PACKAGE_QUOTA_BYTES: integer(1, Number.MAX_SAFE_INTEGER, PUBLISHING_DEFAULTS.quotaBytes),
  UPLOADS_PER_HOUR: integer(1, 100_000, PUBLISHING_DEFAULTS.uploadsPerHour),
  VALIDATION_WORKERS: integer(1, 64, PUBLISHING_DEFAULTS.workers),
  VALIDATION_MEMORY_MB: integer(16, 16_384, PUBLISHING_DEFAULTS.memoryMb),
  VALIDATION_TIMEOUT_MS: integer(100, 3_600_000, PUBLISHING_DEFAULTS.timeoutMs),
  VALIDATION_QUEUE_WAIT_MS: integer(0, 3_600_000, PUBLISHING_DEFAULTS.queueWaitMs),
  VALIDATION_QUEUE: integer(0, 10_000, PUBLISHING_DEFAULTS.queue),
  UPLOAD_TMP_DIR: z.preprocess(emptyToUndefined, z.string().trim().min(1).optional()),
  REPO_HOST: z.preprocess(emptyToUndefined, z.string().trim().regex(HOST_PORT, HOST_MSG).optional()),
  REPO_API_HOST: z.preprocess(emptyToUndefined, z.string().trim().regex(HOST_PORT, HOST_MSG).optional()),
  REPO_DOWNLOAD_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      )
      .refine((hs) => hs.every((h) => HOST_PORT.test(h)), { message: HOST_MSG })
      .optional(),
  ),
  REPO_TOKEN: z.preprocess(emptyToUndefined, z.string().trim().max(500).optional()),
  REPO_TIMEOUT_MS: integer(1_000, 3_600_000, REPO_TIMEOUT_DEFAULT_MS),
  REPO_IMPORT: z.preprocess(
    (v) => emptyToUndefined(v) ?? 'true',
    z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true'),
  ),
  SEED_EXAMPLES: z.preprocess(
    emptyToUndefined,
    z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  ),
  PLAYER_DIR: z.preprocess(emptyToUndefined, z.string().trim().min(1).optional()),
})

/** The environment variables the API reads (all optional; see apps/api/README.md for defaults). */
export type ApiEnv = Partial<Record<keyof z.input<typeof EnvSchema>, string>>

/** The validated, frozen configuration of one API process. */
export interface Config {
  /** The `OTEL_*` variables (OpenTelemetry's own names): tracing is on when they say so. */
  telemetry: Readonly<Record<string, string>>
  host: string
  port: number
  /** `METRICS_PORT`: the Prometheus `/metrics` listener (on `host`); absent: no metrics endpoint. */
  metricsPort?: number | undefined
  nodeEnv: (typeof NODE_ENVS)[number]
  /** `NODE_ENV=production`: docs hidden, OIDC_ISSUER and DATABASE_URL required, https issuer only. */
  isProduction: boolean
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** PostgreSQL connection string; absent: embedded PGlite. */
  databaseUrl: string | undefined
  /** PGlite data folder when `databaseUrl` is absent; `memory://` keeps it in memory (tests). */
  pgliteDir: string
  /** Shared rate-limit counters; absent: counters in memory (one instance). */
  redisUrl: string | undefined
  oidc: {
    /** Issuer URL; absent outside production: the development provider on loopback is started. */
    issuer: string | undefined
    audience: string
    /** Dot path of the roles array in the access token. */
    rolesClaim: string
  }
  cors: { origins: string[] }
  csp: {
    authUrl: string | undefined
    filesUrl: string | undefined
    errorsUrl: string | undefined
    fontCssHost: string
    fontHost: string
  }
  /** Absolute address of this API as clients see it (the `Reporting-Endpoints` header uses it). */
  publicUrl: string
  trustProxy: boolean | number | string[]
  authEventsRetentionDays: number
  /**
   * Multiplies every throttle's `max` (`RATE_LIMIT_MAX_FACTOR`, default 1). Outside production only: tests that
   * need many requests of one user to reach a route (the report quota across instances) and benchmarks.
   */
  rateLimitMaxFactor: number
  /**
   * Where package and cover files live (src/storage). `driver` is `s3` when `S3_BUCKET` is set, else `fs` under
   * `dir` (`FILES_DIR`, default `.data/files`, relative to the working directory: apps/api/.data/files with
   * `pnpm start`). `filesUrl` (`FILES_URL`): files are handed out under that address (a CDN or the bucket).
   */
  storage: {
    driver: 'fs' | 's3'
    dir: string
    s3: { bucket: string; endpoint: string | undefined; region: string; forcePathStyle: boolean } | undefined
    filesUrl: string | undefined
  }
  /**
   * `SWEEP_INTERVAL_MS`: how often each instance sweeps unreferenced files (older than an hour) after the start-up
   * sweep; 0 sweeps at start-up only. @default 3600000 (an hour)
   */
  sweepIntervalMs: number
  /**
   * `FILES_PURGE_URL` (https, or http to a loopback host) and `FILES_PURGE_TOKEN` (sent as `Authorization: Bearer`):
   * the CDN purge hook, POSTed the public addresses of files that stopped being public (src/publishing/file-purge.ts).
   * Absent: no hook.
   */
  filesPurge?: { url: string; token?: string } | undefined
  /**
   * Package publishing (src/publishing): per-user stored bytes (`PACKAGE_QUOTA_BYTES`, default 1 GiB),
   * uploads per user per hour (`UPLOADS_PER_HOUR`, 30), validations at once (`VALIDATION_WORKERS`, 2), heap cap
   * (`VALIDATION_MEMORY_MB`, 256) and time budget (`VALIDATION_TIMEOUT_MS`, 30 s) of one validation, validations
   * that may wait (`VALIDATION_QUEUE`, 8) and for how long (`VALIDATION_QUEUE_WAIT_MS`, 20 s), where uploads are
   * received (`UPLOAD_TMP_DIR`, the OS temporary folder).
   */
  publishing: Omit<PublishingSettings, 'maxPackageBytes' | 'tmpDir'> & { tmpDir?: string }
  /**
   * Repository import (`POST /api/stories/import`, @spkg/repo-import): `REPO_HOST` (default github.com),
   * `REPO_API_HOST` (api.github.com), `REPO_DOWNLOAD_HOSTS` (comma-separated; codeload.github.com), `REPO_TOKEN`
   * (optional; sent to the API host only, for public repositories). `REPO_IMPORT=false` (`off`) turns repository
   * loading off: no import route, and the player's policy names no repository host (src/routes/player/player-routes.ts).
   */
  repo: {
    host?: string
    apiHost?: string
    downloadHosts?: string[]
    token?: string
    off?: true
    /**
     * `REPO_TIMEOUT_MS`: the repository's metadata and archive must arrive within this; with repository import on,
     * `CONNECTION_TIMEOUT_MS` is more than this + `VALIDATION_QUEUE_WAIT_MS` + `VALIDATION_TIMEOUT_MS`.
     * @default 15000
     */
    timeoutMs: number
  }
  /**
   * `SEED_EXAMPLES`: at start-up, publish the repository's example stories, each once (src/publishing/seed.ts).
   * Default: true in development with the embedded database (no DATABASE_URL), else false.
   */
  seedExamples: boolean
  /**
   * `PLAYER_DIR`: the built web player served at `/` (src/routes/player/player-routes.ts), relative to the working directory;
   * absent: apps/player/dist of this repository.
   */
  playerDir?: string | undefined
  /**
   * Connection timeouts, ms; `headersMs` and `keepAliveMs` are at most `requestMs`; `connectionMs` is more than
   * `VALIDATION_QUEUE_WAIT_MS` + `VALIDATION_TIMEOUT_MS`.
   */
  timeouts: {
    /** `REQUEST_TIMEOUT_MS`: a whole request, headers and body, must arrive within this (408 otherwise). */
    requestMs: number
    /** `HEADERS_TIMEOUT_MS`: the request headers must arrive within this (408 otherwise). */
    headersMs: number
    /** `KEEP_ALIVE_TIMEOUT_MS`: an idle kept-alive connection is closed after this. */
    keepAliveMs: number
    /**
     * `CONNECTION_TIMEOUT_MS`: a connection on which nothing moves for this long is closed (idle sockets; also one
     * whose request waits for its answer, as an upload does while its package is checked).
     */
    connectionMs: number
    /** `SHUTDOWN_TIMEOUT_MS`: a graceful shutdown may take this long; then the process exits 1 anyway. */
    shutdownMs: number
  }
}

/** Thrown by {@link loadConfig}: `issues` holds one line per bad setting, naming the variable. */
export class ConfigError extends Error {
  readonly issues: string[]
  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  ${i}`).join('\n')}`)
    this.name = 'ConfigError'
    this.issues = issues
  }
}

/**
 * Validates an environment and returns the frozen configuration.
 *
 * @param env - usually `process.env`; unknown variables are ignored
 * @throws ConfigError listing every bad or missing setting, one line each (`PORT: must be at most 65535`)
 * @example
 * const config = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://localhost/spkg' })
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
    )
  }
  const e = parsed.data
  const isProduction = e.NODE_ENV === 'production'
  const issues: string[] = []
  if (isProduction && !e.OIDC_ISSUER) issues.push('OIDC_ISSUER: is required in production')
  if (isProduction && !e.DATABASE_URL) issues.push('DATABASE_URL: is required in production')
  if (isProduction && e.OIDC_ISSUER?.startsWith('http:'))
    issues.push('OIDC_ISSUER: must be an https:// URL in production')
  if (isProduction && e.PUBLIC_URL?.startsWith('http:'))
    issues.push(
      'PUBLIC_URL: must be an https:// URL in production (browsers ignore http reporting endpoints)',
    )
  if (isProduction && e.RATE_LIMIT_MAX_FACTOR !== 1)
    issues.push('RATE_LIMIT_MAX_FACTOR: must be 1 in production (the SPEC limits apply)')
  for (const name of ['HEADERS_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS'] as const) {
    if (e[name] > e.REQUEST_TIMEOUT_MS)
      issues.push(`${name}: must be at most REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS})`)
  }
  // Node's request timeout ends when the body has arrived; from then until the answer the connection is idle, and
  // the connection timeout closes it: an upload that waited for a place and took its whole validation budget must
  // still be answered, what remains is the time for storing it (a connection that never sends a request is closed
  // by HEADERS_TIMEOUT_MS first).
  const uploadIdleMs = e.VALIDATION_QUEUE_WAIT_MS + e.VALIDATION_TIMEOUT_MS
  if (e.CONNECTION_TIMEOUT_MS <= uploadIdleMs)
    issues.push(
      `CONNECTION_TIMEOUT_MS: must be more than VALIDATION_QUEUE_WAIT_MS + VALIDATION_TIMEOUT_MS (${uploadIdleMs}): ` +
        "an upload's connection is idle while its package waits for and takes its validation, and would be closed " +
        'before its answer',
    )
  // An import's connection is idle for its download too, then as an upload's.
  const importIdleMs = e.REPO_TIMEOUT_MS + uploadIdleMs
  if (e.REPO_IMPORT && e.CONNECTION_TIMEOUT_MS <= importIdleMs)
    issues.push(
      `CONNECTION_TIMEOUT_MS: must be more than REPO_TIMEOUT_MS + VALIDATION_QUEUE_WAIT_MS + VALIDATION_TIMEOUT_MS ` +
        `(${importIdleMs}) while repository import is on: an import's connection is idle while the repository ` +
        'downloads and its package is checked, and would be closed before its answer (or set REPO_IMPORT=false)',
    )
  if (!e.S3_BUCKET && e.S3_ENDPOINT) issues.push('S3_ENDPOINT: is set but S3_BUCKET is not')
  if (e.FILES_PURGE_URL?.startsWith('http:') && !isLoopback(new URL(e.FILES_PURGE_URL).hostname))
    issues.push(
      'FILES_PURGE_URL: must be an https:// URL (http only to a loopback host: 127.0.0.1, [::1], localhost)',
    )
  if (e.FILES_PURGE_TOKEN && !e.FILES_PURGE_URL)
    issues.push('FILES_PURGE_TOKEN: is set but FILES_PURGE_URL is not')
  if (issues.length > 0) throw new ConfigError(issues)
  const publicHost = e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST
  return deepFreeze({
    // OpenTelemetry's standard variables, as they are: the tracing plugin reads its settings there.
    telemetry: Object.fromEntries(
      Object.entries(env).filter(
        (kv): kv is [string, string] => kv[0].startsWith('OTEL_') && kv[1] !== undefined,
      ),
    ),
    host: e.HOST,
    port: e.PORT,
    metricsPort: e.METRICS_PORT,
    nodeEnv: e.NODE_ENV,
    isProduction,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    pgliteDir: e.PGLITE_DIR,
    redisUrl: e.REDIS_URL,
    oidc: { issuer: e.OIDC_ISSUER, audience: e.OIDC_AUDIENCE, rolesClaim: e.OIDC_ROLES_CLAIM },
    cors: { origins: e.CORS_ORIGINS },
    csp: {
      authUrl: e.AUTH_URL ?? e.OIDC_ISSUER,
      filesUrl: e.FILES_URL,
      errorsUrl: e.ERRORS_URL,
      fontCssHost: e.FONT_CSS_HOST,
      fontHost: e.FONT_HOST,
    },
    publicUrl: e.PUBLIC_URL ?? `http://${publicHost}:${e.PORT}`,
    trustProxy: e.TRUST_PROXY,
    authEventsRetentionDays: e.AUTH_EVENTS_RETENTION_DAYS,
    rateLimitMaxFactor: e.RATE_LIMIT_MAX_FACTOR,
    storage: {
      driver: e.S3_BUCKET ? 's3' : 'fs',
      dir: e.FILES_DIR,
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : undefined,
      filesUrl: e.FILES_URL,
    },
    sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    filesPurge: e.FILES_PURGE_URL
      ? { url: e.FILES_PURGE_URL, ...(e.FILES_PURGE_TOKEN && { token: e.FILES_PURGE_TOKEN }) }
      : undefined,
    publishing: {
      quotaBytes: e.PACKAGE_QUOTA_BYTES,
      uploadsPerHour: e.UPLOADS_PER_HOUR,
      workers: e.VALIDATION_WORKERS,
      memoryMb: e.VALIDATION_MEMORY_MB,
      timeoutMs: e.VALIDATION_TIMEOUT_MS,
      queue: e.VALIDATION_QUEUE,
      queueWaitMs: e.VALIDATION_QUEUE_WAIT_MS,
      ...(e.UPLOAD_TMP_DIR && { tmpDir: e.UPLOAD_TMP_DIR }),
    },
    repo: {
      ...(e.REPO_HOST && { host: e.REPO_HOST }),
      ...(e.REPO_API_HOST && { apiHost: e.REPO_API_HOST }),
      ...(e.REPO_DOWNLOAD_HOSTS && { downloadHosts: e.REPO_DOWNLOAD_HOSTS }),
      ...(e.REPO_TOKEN && { token: e.REPO_TOKEN }),
      ...(!e.REPO_IMPORT && { off: true as const }),
      timeoutMs: e.REPO_TIMEOUT_MS,
    },
    seedExamples:
      e.SEED_EXAMPLES === undefined
        ? e.NODE_ENV === 'development' && !e.DATABASE_URL
        : e.SEED_EXAMPLES === 'true',
    playerDir: e.PLAYER_DIR,
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_MS,
      headersMs: e.HEADERS_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
      connectionMs: e.CONNECTION_TIMEOUT_MS,
      shutdownMs: e.SHUTDOWN_TIMEOUT_MS,
    },
  })
}

/** A loopback host name of a URL (`127.0.0.1`, `[::1]`, `localhost`): an http hook that never leaves the machine. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname)
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
