/**
 * The API process: reads the configuration once, builds the app (migrating the database under its
 * advisory lock), listens on HOST:PORT and shuts down gracefully on SIGTERM/SIGINT: stop accepting,
 * let in-flight requests finish, close the database pool; forced exit after `SHUTDOWN_TIMEOUT_MS`.
 * Logs are pino JSON lines on stdout with request ids and no tokens.
 *
 * Logging never blocks the exit nor kills the process: stdout is written synchronously (nothing is left to flush at
 * exit), and once its reader is gone (`pnpm start | tee api.log`, then Ctrl-C: `tee` dies first) the write error
 * stops logging instead of being thrown. pino's default asynchronous destination flushed at exit in a loop that
 * retries EPIPE forever, so the process closed its port and never exited.
 */
import { writeSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import pino from 'pino'
import { buildApp, loggerOptions } from './app'
import { type Config, ConfigError, loadConfig, TIMEOUT_DEFAULTS } from './config'
import { DbStartError } from './db/connection'
import type { StartedDevIdp } from './dev-idp/dev-idp'
import { survivePoolRejections } from './errors'
import { listenMetrics } from './plugins/metrics'

/** How long a graceful shutdown may take by default before the process exits anyway (`SHUTDOWN_TIMEOUT_MS`). */
export const SHUTDOWN_TIMEOUT_MS = TIMEOUT_DEFAULTS.shutdownMs

/** Writes one line to a file descriptor, ignoring every error (a closed pipe, a full disk). */
function writeLine(fd: number, line: string): void {
  try {
    writeSync(fd, `${line}\n`)
  } catch {
    // Nowhere left to say it.
  }
}

/**
 * Exits at once with `code`: `process.reallyExit` skips the `exit` listeners (a logger's flush among them), so
 * nothing the process still holds can keep it alive.
 */
export function exitNow(code: number): never {
  const really = (process as unknown as { reallyExit?: (code: number) => never }).reallyExit
  if (typeof really === 'function') really.call(process, code)
  process.exit(code)
}

/**
 * The log destination: stdout (`fd` 1) written synchronously. A write error (EPIPE once the reader of a pipe is
 * gone) stops logging for good, says so once on stderr, and is never thrown.
 */
export function createLogDestination(fd = 1): pino.DestinationStream {
  const destination = pino.destination({ dest: fd, sync: true })
  let stopped = false
  destination.on('error', (err: NodeJS.ErrnoException) => {
    if (stopped) return
    stopped = true
    const noop = () => true
    Object.assign(destination, { write: noop, flushSync: () => {}, end: () => {} })
    writeLine(
      2,
      JSON.stringify({
        level: 40,
        time: Date.now(),
        code: err.code,
        msg: 'logging stopped: stdout is closed',
      }),
    )
  })
  return destination
}

/** The server's logger: pino with the API's options (no tokens, no addresses) on {@link createLogDestination}. */
export function createLogger(config: Pick<Config, 'logLevel'>, fd = 1): FastifyBaseLogger {
  return pino(loggerOptions(config) as pino.LoggerOptions, createLogDestination(fd)) as FastifyBaseLogger
}

/** Starts the server for a validated configuration; resolves once it listens. */
export async function startServer(
  config: Config,
  /** Runs once the app is built, before it listens: signal handlers go here, so that a signal sent
   * as soon as the 'Server listening at' line appears finds them installed. */
  beforeListen?: (app: FastifyInstance) => void,
): Promise<FastifyInstance> {
  // Without OIDC_ISSUER outside production: a development OpenID provider on loopback (never in production).
  let devIdp: StartedDevIdp | undefined
  // Loaded on demand: oidc-provider is not imported at all when an issuer is configured.
  const devIdpModule =
    !config.oidc.issuer && !config.isProduction ? await import('./dev-idp/dev-idp') : undefined
  if (devIdpModule) {
    devIdp = await devIdpModule.startDevIdp({
      audience: config.oidc.audience,
      rolesClaim: config.oidc.rolesClaim,
    })
    // The player signs in from the page: the provider's origin goes into the CSP's connect-src and frame-src.
    config = {
      ...config,
      oidc: { ...config.oidc, issuer: devIdp.issuer },
      csp: { ...config.csp, authUrl: config.csp.authUrl ?? devIdp.issuer },
    }
  }
  const app = await buildApp(config, { logger: createLogger(config) }).catch(async (err: unknown) => {
    await devIdp?.close()
    throw err
  })
  if (devIdp && devIdpModule) {
    const idp = devIdp
    app.addHook('onClose', async () => idp.close())
    process.stderr.write(`${devIdpModule.devIdpInstructions(idp)}\n`)
  }
  beforeListen?.(app)
  if (config.metricsPort !== undefined) {
    await listenMetrics(app, { host: config.host, port: config.metricsPort }).catch(async (err: unknown) => {
      await app.close()
      throw err
    })
  }
  await app.listen({ host: config.host, port: config.port })
  if (config.seedExamples) await seedCatalog(app)
  app.log.info(
    { catalog: `${config.publicUrl}/catalog/stories` },
    `catalog at ${config.publicUrl}/catalog/stories`,
  )
  if (!config.oidc.issuer) {
    app.log.warn(
      'OIDC_ISSUER is not set: protected routes answer 401 until an identity provider is configured (public routes work)',
    )
  }
  return app
}

/** The development seed (src/publishing/seed.ts): the example stories, published once into an empty catalog. */
async function seedCatalog(app: FastifyInstance): Promise<void> {
  try {
    const { seedExamples } = await import('./publishing/seed')
    const r = await seedExamples(app)
    if (r.seeded.length > 0) app.log.info({ seeded: r.seeded }, 'seeded the catalog with the example stories')
    for (const f of r.failed) app.log.warn(f, 'an example story could not be seeded')
  } catch (err) {
    app.log.error({ err }, 'seeding the example stories failed')
  }
}

/**
 * Closes the app on the first SIGTERM/SIGINT and exits (0, or 1 when closing failed or timed out). A second signal,
 * or `timeoutMs` without the close finishing, exits 1 at once, whatever the logger or anything else is doing.
 */
export function closeOnSignals(app: FastifyInstance, timeoutMs: number): void {
  let closing = false
  const forced = (why: string) => {
    writeLine(2, JSON.stringify({ level: 50, time: Date.now(), msg: `${why}; exiting` }))
    exitNow(1)
  }
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return forced(`${signal} during shutdown`)
    closing = true
    // Armed before anything is logged: the forced exit does not depend on the logger.
    setTimeout(() => forced('shutdown timed out'), timeoutMs).unref()
    app.log.info({ signal }, 'shutting down')
    app.close().then(
      () => {
        app.log.info('closed')
        exitNow(0)
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed')
        exitNow(1)
      },
    )
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}

/** The one line a failed start-up prints on stderr: what failed, with the stable code when there is one. */
export function startupFailureLine(err: unknown): string {
  const code = err instanceof DbStartError ? err.code : undefined
  return JSON.stringify({
    level: 60,
    time: Date.now(),
    msg: 'start-up failed',
    ...(code && { code }),
    err: String((err as Error)?.message ?? err),
  })
}

async function main() {
  // Errors of a closed stdout or stderr (EPIPE) must not crash the process: there is nothing to do about them.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})
  survivePoolRejections()
  let config: Config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  try {
    await startServer(config, (app) => closeOnSignals(app, config.timeouts.shutdownMs))
  } catch (err) {
    writeLine(2, startupFailureLine(err))
    exitNow(1)
  }
}

const entry = process.argv[1] ? pathToFileURL(resolve(process.argv[1])).href : ''
if (import.meta.url === entry) await main()
