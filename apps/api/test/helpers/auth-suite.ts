/**
 * The identity provider (oidc-provider on loopback), the auth database and, when asked, the test app one test file
 * shares: {@link authSuite} registers the file's `beforeAll`, which starts them, and its `afterAll`, which closes them.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import { buildTestApp, createAuthDb, startTestIdp, type TestAppOptions, type TestIdp } from './auth.ts'

/** What the file's tests use; read it inside a test or a later hook (all are started by then). */
export interface AuthSuite {
  readonly idp: TestIdp
  readonly database: Awaited<ReturnType<typeof createAuthDb>>
  /** The app of {@link buildTestApp} on this provider and database (only with the `app` option). */
  readonly app: FastifyInstance
}

/**
 * Starts the provider with `clients` (user → roles) and a fresh auth database for the tests of this file, and with
 * `app` the test app over both (its options but the issuer and the database).
 */
export function authSuite(
  clients: Record<string, string[]> = {},
  options: { app?: Omit<TestAppOptions, 'issuer' | 'db'> } = {},
): AuthSuite {
  let idp: TestIdp | undefined
  let database: AuthSuite['database'] | undefined
  let app: FastifyInstance | undefined
  beforeAll(async () => {
    idp = await startTestIdp(clients)
    database = await createAuthDb()
    if (options.app) app = await buildTestApp({ issuer: idp.issuer, db: database.db, ...options.app })
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await database?.close()
    await idp?.close()
  })
  const started = <T>(what: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`the ${what} is not started: read it inside a test`)
    return value
  }
  return {
    get idp() {
      return started('identity provider', idp)
    },
    get database() {
      return started('auth database', database)
    },
    get app() {
      return started('test app (the app option)', app)
    },
  }
}
