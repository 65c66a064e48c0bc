import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { closeDb } from '../src/db/connection'
import { buildTestApp, useTestApp } from './helpers/app'

const t = useTestApp()

describe('health', () => {
  it('reports process and database without a token', async () => {
    const res = await t.app.inject({ url: '/api/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' })
  })

  it('reports the auth state without fetching (unconfigured without the auth plugin)', async () => {
    const res = await t.app.inject({ url: '/api/health/auth' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ status: 'unconfigured', discovery: 'unconfigured' })
  })

  it('answers 503 when the database is gone', async () => {
    const extra = await buildTestApp()
    await closeDb(extra.tdb.db)
    const res = await extra.app.inject({ url: '/api/health' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ status: 'error', database: 'unavailable' })
    await extra.app.close()
    await extra.tdb.dispose()
  }, 60_000)

  it('reports what the real auth plugin recorded: 503 while the issuer is unreachable', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', OIDC_ISSUER: 'http://127.0.0.1:9' })
    const app = await buildApp(config, { db: t.tdb.db })
    try {
      const res = await app.inject({ url: '/api/health/auth' })
      expect(res.statusCode).toBe(503)
      const body = res.json()
      expect(body.status).toBe('error')
      expect(body.discovery.status).not.toBe('ok')
      expect(body.healthy).toBeUndefined()
    } finally {
      await app.close()
    }
  }, 60_000)
})
