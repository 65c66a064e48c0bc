/**
 * The real API on loopback for @spkg/client tests: the app with its real auth plugin, a test database, and the
 * development OpenID provider (oidc-provider) minting tokens per test user.
 */
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { AUDIENCE, startTestIdp, type TestIdp } from '../helpers/auth'
import { createTestDb, type TestDb } from '../helpers/db'

export interface LiveApi {
  origin: string
  idp: TestIdp
  app: FastifyInstance
  token(user: string): Promise<string>
  close(): Promise<void>
}

/** Starts the API with users (client id = `sub`) and their roles; `env` adds settings (FILES_DIR, ...). */
export async function startLiveApi(
  users: Record<string, string[]>,
  env: Record<string, string> = {},
): Promise<LiveApi> {
  const idp = await startTestIdp(users)
  let tdb: TestDb | undefined
  try {
    tdb = await createTestDb()
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: AUDIENCE,
      RATE_LIMIT_MAX_FACTOR: '1000',
      ...env,
    })
    const app = await buildApp(config, { db: tdb.db })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const tokens = new Map<string, string>()
    const db = tdb
    return {
      origin,
      idp,
      app,
      async token(user) {
        const cached = tokens.get(user)
        if (cached) return cached
        const t = await idp.mintToken(user)
        tokens.set(user, t)
        return t
      },
      async close() {
        await app.close()
        await db.dispose()
        await idp.close()
      },
    }
  } catch (error) {
    await tdb?.dispose()
    await idp.close()
    throw error
  }
}
