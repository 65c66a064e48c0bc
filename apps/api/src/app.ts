/**
 * `buildApp(config, deps)`: the Fastify instance of the platform API. Order of registration:
 * security headers and CORS, authentication, throttling (all three from the auth/security side),
 * then the documentation and the routes. Errors of every kind leave with one body shape
 * (`{ statusCode, code?, message }`, see errors.ts).
 */
import { randomUUID } from 'node:crypto'
import type { ServerOptions } from 'node:http'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { LIMITS } from '@spkg/manifest'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify'
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod'
import type { Redis } from 'ioredis'
import type { Config } from './config'
import { closeDb, createDb, type Db } from './db/connection'
import { canReadFileFromDb, deleteFilesLocked, hasVersions, isReferencedInDb } from './db/file-access'
import { migrateDb } from './db/migrate'
import {
  ApiError,
  handleClientError,
  handleError,
  handleFrameworkError,
  handleNotFound,
  refuseWhileClosing,
} from './errors'
import { inputRules } from './input'
import { AUTH_HOOK, authPlugin, authRoutes } from './plugins/auth/auth-plugin'
import { metricsPlugin } from './plugins/metrics'
import { type RateLimitPluginOptions, rateLimitPlugin } from './plugins/rate-limit'
import { securityPlugin, securitySettings } from './plugins/security-headers'
import { tracingPlugin } from './plugins/telemetry'
import { createFilePurger, type FilePurger, type FilePurgerOptions } from './publishing/file-purge'
import { catalogRoutes } from './routes/catalog/catalog-routes'
import { cspReportRoutes } from './routes/csp/csp-report-routes'
import { fileCacheFromDb } from './routes/files/file-cache'
import { type CanReadFile, filesRoutes } from './routes/files/files-routes'
import { healthRoutes } from './routes/health/health-routes'
import { playerRoutes } from './routes/player/player-routes'
import { profileRoutes } from './routes/profiles/profiles-routes'
import { progressRoutes } from './routes/progress/progress-routes'
import { reportRoutes } from './routes/reports/reports-routes'
import { storiesRoutes } from './routes/stories/stories-routes'
import { type PublishingDeps, registerPublishing } from './routes/versions/register-publishing'
import { createStorage, type FileStorage, sweepOrphans } from './storage/create-storage'

/** What `buildApp` may be handed instead of creating it. */
export interface AppDeps {
  /** An open database; the caller closes it. Absent: opened from `config` (and migrated), closed with the app. */
  db?: Db
  /** A Redis client for shared rate-limit counters; the caller closes it. */
  redis?: Redis
  /** A pino logger instance; absent: JSON logs on stdout at `config.logLevel`. */
  logger?: FastifyBaseLogger
  /**
   * Replaces the auth plugin. For route unit tests only (they decorate `authenticate` and
   * `requireRole` with a test token check); never set in the server or the e2e suite.
   */
  authPlugin?: FastifyPluginAsync
  /** Rate-limit overrides for tests and benchmarks (Redis key prefix, `maxFactor`); never set by the server. */
  rateLimit?: RateLimitPluginOptions
  /** Skip migrations when opening the database from `config`. @default false */
  skipMigrations?: boolean
  /** Publishing overrides (tests, benchmarks): settings such as the quota or the upload folder. */
  publishing?: PublishingDeps
  /** The file storage; absent: made from `config.storage` (src/storage). */
  storage?: FileStorage
  /** Who may read a stored file (the files routes); absent: the rule over `story_versions` (src/db/file-access.ts). */
  canReadFile?: CanReadFile
  /**
   * Sweep unreferenced files (older than an hour, at most 10,000 per prefix) when the app is ready, then every
   * `SWEEP_INTERVAL_MS` (config.sweepIntervalMs). Default: on,
   * except with `NODE_ENV=test` or an in-memory PGlite, whose empty database would disown every file of a shared
   * `FILES_DIR` (a developer's `.data/files`); never while the database holds no version at all.
   */
  sweepOrphans?: boolean
  /** Options of the CDN purge hook's loop (tests: the clock, the retry delays); the hook itself is `config.filesPurge`. */
  filePurge?: Pick<
    FilePurgerOptions,
    'now' | 'baseDelayMs' | 'maxDelayMs' | 'maxAttempts' | 'timeoutMs' | 'pollMs'
  >
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The database of this instance. */
    db: Db
    /** Package and cover files (src/storage). */
    storage: FileStorage
    /** The CDN purge hook (`FILES_PURGE_URL`, src/publishing/file-purge.ts): a no-op without it. */
    filePurge: FilePurger
  }
}

/** Request ids: a well-formed incoming `x-request-id` is kept (tracing across the load balancer). */
function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const h = req.headers['x-request-id']
  return typeof h === 'string' && /^[A-Za-z0-9._:-]{8,128}$/.test(h) ? h : randomUUID()
}

/** Pino options: JSON, no IP addresses, no headers (so no tokens), credentials redacted anyway. */
export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.token',
        '*.password',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
        id: req.id,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }
}

/**
 * Without an auth plugin every protected route answers 401: never open by accident. The hook is marked as an
 * auth hook, so the rate-limit plugin counts these refusals by IP like any other.
 */
function failClosedAuth(app: FastifyInstance) {
  const refuse = async () => {
    throw new ApiError(401, 'UNAUTHORIZED', 'Authentication is not configured on this server')
  }
  Object.defineProperty(refuse, AUTH_HOOK, { value: true })
  app.decorate('authenticate', refuse)
  app.decorate('requireRole', () => refuse)
}

/**
 * Builds the API. The instance is ready to `listen` or `inject`; closing it closes the database it
 * opened.
 *
 * @example
 * const app = await buildApp(loadConfig(process.env))
 * await app.listen({ host: config.host, port: config.port })
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const options: FastifyServerOptions & { http?: ServerOptions } = {
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config) }),
    bodyLimit: LIMITS.maxRequestBodyBytes,
    // Fastify accepts a hop count at run time; its type omits it.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    // Connection timeouts (config.ts, README): a whole request, its headers, an idle kept-alive connection, and any
    // connection on which nothing moves. Node checks the first two every `connectionsCheckingInterval` (30 s by
    // default, so a request could outlive its timeout by that much): at most a second here.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    connectionTimeout: config.timeouts.connectionMs,
    http: {
      headersTimeout: config.timeouts.headersMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.timeouts.headersMs / 4))),
    },
    genReqId: requestId,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: handleFrameworkError,
    // 408, 431 and unreadable requests with the API's error body (Fastify's own lacks `code`).
    clientErrorHandler: handleClientError,
    // Its body has an extra `error` field: refuseWhileClosing (below) answers with the standard one.
    return503OnClosing: false,
  }
  const app = Fastify(options) as unknown as FastifyInstance
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.setErrorHandler(handleError)
  // Bodies scanned (depth, values) before JSON.parse, strings checked before any validation (src/input.ts).
  inputRules(app)

  let db = deps.db
  if (!db) {
    db = await createDb(config)
    const opened = db
    app.addHook('onClose', async () => closeDb(opened))
    if (!deps.skipMigrations) {
      try {
        await migrateDb(db)
      } catch (err) {
        await closeDb(opened)
        throw err
      }
    }
  }
  app.decorate('db', db)
  const storage = deps.storage ?? createStorage(config)
  app.decorate('storage', storage)
  const closable = storage as FileStorage & { close?: () => void }
  if (!deps.storage && typeof closable.close === 'function')
    app.addHook('onClose', async () => closable.close?.())
  const ephemeralDb = config.nodeEnv === 'test' || (!config.databaseUrl && config.pgliteDir === 'memory://')
  if (deps.sweepOrphans ?? !ephemeralDb) {
    const swept = db
    let running: Promise<void> | undefined
    // Files left by a crash between a file write and its record's commit (or a record's removal and the file's).
    const sweep = async (when: string) => {
      try {
        if (!(await hasVersions(swept))) return // a fresh database would disown every stored file
        const r = await sweepOrphans(storage, isReferencedInDb(swept), {
          remove: (keys) => deleteFilesLocked(swept, storage, keys),
        })
        if (r.deleted.length || r.tempRemoved)
          app.log.info(
            { examined: r.examined, deleted: r.deleted.length, tempRemoved: r.tempRemoved, when },
            'storage: orphans swept',
          )
      } catch (err) {
        app.log.error({ err, when }, 'storage: orphan sweep failed (retried at the next sweep)')
      }
    }
    let timer: ReturnType<typeof setInterval> | undefined
    app.addHook('onReady', async () => {
      await sweep('start-up')
      // Then every SWEEP_INTERVAL_MS: one sweep at a time; the timer keeps no process alive.
      if (config.sweepIntervalMs > 0) {
        timer = setInterval(() => {
          running ??= sweep('periodic').finally(() => {
            running = undefined
          })
        }, config.sweepIntervalMs)
        timer.unref()
      }
    })
    app.addHook('onClose', async () => {
      clearInterval(timer)
      await running
    })
  }
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  // Prometheus metrics (src/metrics): every answer counted and timed by route pattern; served on METRICS_PORT only.
  await app.register(metricsPlugin, {
    db,
    redisStatus: () => (app.hasDecorator('rateLimitRedisStatus') ? app.rateLimitRedisStatus() : undefined),
  })
  // The CDN purge hook's outbox and its delivery loop (one per instance; stopped before the database closes).
  const purger = createFilePurger({
    db,
    storage,
    publicUrl: config.publicUrl,
    hook: config.filesPurge,
    log: app.log,
    registry: app.metrics.registry,
    ...deps.filePurge,
  })
  app.decorate('filePurge', purger)
  app.addHook('onReady', async () => purger.start())
  app.addHook('onClose', async () => purger.close())
  // OpenTelemetry request spans (plugins/telemetry.ts), only when the OTEL_* variables turn tracing on.
  await app.register(tracingPlugin, { env: config.telemetry })

  // CORS first (preflights and 401 answers carry CORS headers), then authentication, then throttling
  // (its per-route hooks run after authentication so callers are keyed by `sub`).
  await app.register(securityPlugin, securitySettings(config))
  refuseWhileClosing(app)
  if (deps.authPlugin) await app.register(deps.authPlugin)
  else if (config.oidc.issuer) {
    await app.register(authPlugin, {
      oidc: config.oidc,
      db,
      authEventsRetentionDays: config.authEventsRetentionDays,
      routes: false, // registered below, after swagger, so that they are documented
    })
  }
  if (!app.hasDecorator('authenticate')) failClosedAuth(app)
  await app.register(rateLimitPlugin, {
    redisUrl: config.redisUrl,
    maxFactor: config.rateLimitMaxFactor,
    redis: deps.redis,
    ...deps.rateLimit,
  })
  // The 404 handler is not a route (`onRoute` never sees it): it gets its own limiter, keyed like the rest.
  app.setNotFoundHandler({ preHandler: app.throttleHook(undefined, 'not-found') }, handleNotFound)

  if (!config.isProduction) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'spkg platform API',
          version: '1.0.0',
          description:
            'Stories, profiles, reports, catalog and reading-state sync. Errors always have the body `{statusCode, code?, message}`. ' +
            'Decisions where the SPEC is silent: slugs are 3-100 characters of lower-case words joined by single hyphens; ' +
            'lists are newest first and clamp `page` >= 1 and `limit` 1-100; instruction records never appear in lists or the catalog; ' +
            'at most 10 reports per user in 24 hours (409 REPORT_RATE_LIMITED, database-enforced); reading state writes use `If-Match` ' +
            '(412 on a stale revision, 428 when overwriting without it).',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    })
    await app.register(swaggerUi, { routePrefix: '/api/docs' })
  }

  const opts = { db }
  await app.register(healthRoutes, opts)
  if (app.hasDecorator('revokeAuthSession')) await app.register(authRoutes, opts)
  await app.register(storiesRoutes, opts)
  await app.register(profileRoutes, opts)
  await app.register(reportRoutes, opts)
  await app.register(catalogRoutes, { db, publicUrl: config.publicUrl })
  await app.register(cspReportRoutes, opts)
  await app.register(progressRoutes, opts)
  await registerPublishing(
    app,
    {
      publishing: config.publishing,
      publicUrl: config.publicUrl,
      repo: config.repo,
      storage: config.storage,
    },
    db,
    deps.publishing,
  )
  await app.register(filesRoutes, {
    storage,
    canReadFile: deps.canReadFile ?? canReadFileFromDb(db),
    cacheOf: fileCacheFromDb(db),
  })
  await app.register(playerRoutes, {
    dir: config.playerDir,
    isProduction: config.isProduction,
    repo: config.repo,
  }) // the web player at `/` (apps/player/dist, PLAYER_DIR), after the API's routes
  return app
}
