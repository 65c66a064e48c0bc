import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDb } from '../src/db/index'
import { buildTestApp, type TestApp } from './helpers/app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
}, 60_000)
afterAll(async () => t?.close())

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
})
