/**
 * The API process: reads the configuration once, builds the app (migrating the database under its
 * advisory lock), listens on HOST:PORT and shuts down gracefully on SIGTERM/SIGINT: stop accepting,
 * let in-flight requests finish, close the database pool; forced exit after 10 seconds.
 * Logs are pino JSON lines on stdout with request ids and no tokens.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app'
import { type Config, ConfigError, loadConfig } from './config'
import type { StartedDevIdp } from './dev-idp/index'

/** How long a graceful shutdown may take before the process exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 10_000

/** Starts the server for a validated configuration; resolves once it listens. */
export async function startServer(config: Config): Promise<FastifyInstance> {
  // Without OIDC_ISSUER outside production: a development OpenID provider on loopback (never in production).
  let devIdp: StartedDevIdp | undefined
  // Loaded on demand: oidc-provider is not imported at all when an issuer is configured.
  const devIdpModule =
    !config.oidc.issuer && !config.isProduction ? await import('./dev-idp/index') : undefined
  if (devIdpModule) {
    devIdp = await devIdpModule.startDevIdp({
      audience: config.oidc.audience,
      rolesClaim: config.oidc.rolesClaim,
    })
    config = { ...config, oidc: { ...config.oidc, issuer: devIdp.issuer } }
  }
  const app = await buildApp(config).catch(async (err: unknown) => {
    await devIdp?.close()
    throw err
  })
  if (devIdp && devIdpModule) {
    const idp = devIdp
    app.addHook('onClose', async () => idp.close())
    process.stderr.write(`${devIdpModule.devIdpInstructions(idp)}\n`)
  }
  await app.listen({ host: config.host, port: config.port })
  if (!config.oidc.issuer) {
    app.log.warn(
      'OIDC_ISSUER is not set: protected routes answer 401 until an identity provider is configured (public routes work)',
    )
  }
  return app
}

/** Closes the app once on the first SIGTERM/SIGINT and exits (0, or 1 when closing failed or timed out). */
export function closeOnSignals(app: FastifyInstance): void {
  let closing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    setTimeout(() => {
      app.log.error('shutdown timed out; exiting')
      process.exit(1)
    }, SHUTDOWN_TIMEOUT_MS).unref()
    app.close().then(
      () => {
        app.log.info('closed')
        process.exit(0)
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', shutdown)
  process.once('SIGINT', shutdown)
}

async function main() {
  let config: Config
  try {
    config = loadConfig(process.env)
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  try {
    const app = await startServer(config)
    closeOnSignals(app)
  } catch (err) {
    console.error(
      JSON.stringify({ level: 60, msg: 'start-up failed', err: String((err as Error)?.message ?? err) }),
    )
    process.exit(1)
  }
}

const entry = process.argv[1] ? pathToFileURL(resolve(process.argv[1])).href : ''
if (import.meta.url === entry) await main()
