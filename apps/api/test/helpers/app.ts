/**
 * Route unit tests: the app over a test database with the auth plugin replaced by a test token
 * check (`Bearer test:<sub>:<role,role>`). Only route tests use this; the e2e suite uses real tokens.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { afterAll, beforeAll } from 'vitest'
import { buildApp } from '../../src/app'
import { type Config, loadConfig } from '../../src/config'
import { ApiError } from '../../src/errors'
import { createTestDb, type TestDb } from './db'

/** The fake auth plugin: decorates `authenticate` and `requireRole` like the real one. */
export const testAuthPlugin = fp(
  async (app) => {
    app.decorateRequest('user', null as never)
    const events: Array<{ kind: string; sessionId: string | null; detail?: Record<string, unknown> }> = []
    app.decorate('testAuthEvents', events)
    app.decorate(
      'recordAuthEvent',
      (kind: string, sessionId: string | null, detail?: Record<string, unknown>) => {
        events.push({ kind, sessionId, detail })
      },
    )
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const h = request.headers.authorization
      const m = typeof h === 'string' ? /^Bearer test:([^:\s]+):([a-z,]*)$/.exec(h) : null
      if (!m) throw new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid bearer token')
      ;(request as unknown as { user: unknown }).user = {
        sub: m[1],
        roles: m[2] ? m[2].split(',') : [],
        sid: '00000000-0000-4000-8000-000000000001',
      }
    })
    app.decorate(
      'requireRole',
      (...roles: string[]) =>
        async (request: FastifyRequest, _reply: FastifyReply) => {
          const user = (request as unknown as { user?: { roles: string[] } }).user
          if (!user?.roles.some((r) => roles.includes(r))) {
            throw new ApiError(403, 'FORBIDDEN', `Requires one of the roles: ${roles.join(', ')}`)
          }
        },
    )
  },
  { name: 'test-auth' },
)

/** `Authorization` header of a test caller. */
export const bearer = (sub: string, ...roles: string[]) => ({
  authorization: `Bearer test:${sub}:${roles.join(',')}`,
})

/** A test app and its database. */
export interface TestApp {
  app: FastifyInstance
  tdb: TestDb
  close: () => Promise<void>
}

/**
 * Marks every route `throttle: false` before the rate-limit plugin (registered after the auth
 * slot) sees it: route tests send bursts from one address; throttling has its own suite
 * (test/security/rate-limit.test.ts).
 */
const withoutThrottling = fp(
  async (app) => {
    await app.register(testAuthPlugin)
    app.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), throttle: false } as typeof route.config
    })
  },
  { name: 'test-auth-unthrottled' },
)

/** Builds the app on a fresh test database (silent logs). */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: { throttle?: boolean } = {},
): Promise<TestApp> {
  const tdb = await createTestDb()
  const config: Config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env })
  const app = await buildApp(config, {
    db: tdb.db,
    authPlugin: options.throttle ? testAuthPlugin : withoutThrottling,
  })
  await app.ready()
  return {
    app,
    tdb,
    close: async () => {
      await app.close()
      await tdb.dispose()
    },
  }
}

/**
 * The route-test app of a test file or `describe` block: a `beforeAll` that builds it with {@link buildTestApp}'s
 * arguments and an `afterAll` that closes it. The returned object is filled in by that `beforeAll`.
 *
 * @example
 * const t = useTestApp()
 * it('answers', async () => expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200))
 */
export function useTestApp(...args: Parameters<typeof buildTestApp>): TestApp {
  const t = {} as TestApp
  beforeAll(async () => {
    Object.assign(t, await buildTestApp(...args))
  }, 60_000)
  afterAll(async () => t.close?.())
  return t
}
