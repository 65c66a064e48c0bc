/**
 * Every error code a route can answer with fits that route's response schema for its status: a
 * 422 VALIDATION_TIMEOUT on the upload route was refused by its 422 schema (PACKAGE_INVALID only) and reached the
 * client as 500 FST_ERR_RESPONSE_SERIALIZATION. "Can answer" is decided per status: a route that declares a status
 * may meet any code of that status (`API_ERROR_STATUS`), so its schema for that status must admit every one.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { API_ERROR_CODES, API_ERROR_STATUS, type ApiErrorCode } from '@spkg/api-contract'
import type { FastifyInstance, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { testAuthPlugin } from './helpers/app'
import { createTestDb, type TestDb } from './helpers/db'
import { storyPackage, upload, usePublishingApp } from './helpers/publishing'

/**
 * Route statuses answered with the route's own body, never an error body: the health checks' 503 (`status`, and
 * what is down). Their handlers catch what fails; the shutdown 503 is serialised before any route schema.
 */
const OWN_BODY = new Set(['/api/health 503', '/api/health/ready 503', '/api/health/auth 503'])

/** Fields a code's body carries besides `statusCode`, `code` and `message`. */
const EXTRA: Partial<Record<ApiErrorCode, Record<string, unknown>>> = { PACKAGE_INVALID: { diagnostics: [] } }

describe('the response schemas of every route', () => {
  let app: FastifyInstance
  let tdb: TestDb
  let dir: string
  const routes: RouteOptions[] = []
  beforeAll(async () => {
    tdb = await createTestDb()
    dir = await mkdtemp(join(tmpdir(), 'spkg-error-schemas-'))
    const collect = fp(
      async (a) => {
        await a.register(testAuthPlugin)
        a.addHook('onRoute', (route) => {
          routes.push(route)
        })
      },
      { name: 'collect-routes' },
    )
    app = await buildApp(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FILES_DIR: join(dir, 'files') }),
      { db: tdb.db, authPlugin: collect, sweepOrphans: false },
    )
    await app.ready()
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await tdb?.dispose()
    await rm(dir, { recursive: true, force: true })
  }, 60_000)

  it('gives every code a status', () => {
    expect(Object.keys(API_ERROR_STATUS).sort()).toEqual(Object.keys(API_ERROR_CODES).sort())
  })

  it('admit, for each declared error status, every code of that status', () => {
    const refused: string[] = []
    let checked = 0
    for (const route of routes) {
      const response = (route.schema as { response?: Record<string, z.ZodType> } | undefined)?.response
      if (!response) continue
      for (const [status, schema] of Object.entries(response)) {
        if (Number(status) < 400 || typeof schema?.safeParse !== 'function') continue
        if (OWN_BODY.has(`${route.url} ${status}`)) continue
        for (const [code, statuses] of Object.entries(API_ERROR_STATUS) as [
          ApiErrorCode,
          readonly number[],
        ][]) {
          if (!statuses.includes(Number(status))) continue
          const body = { statusCode: Number(status), code, message: 'm', ...EXTRA[code] }
          checked++
          if (!schema.safeParse(body).success) refused.push(`${route.method} ${route.url} ${status} ${code}`)
        }
      }
    }
    expect(checked).toBeGreaterThan(100)
    expect(refused).toEqual([])
  })
})

describe('an upload whose validation runs out of time', () => {
  const t = usePublishingApp({ settings: { timeoutMs: 1 } }, 'slow-inn')

  it('is answered 422 VALIDATION_TIMEOUT with the standard body, not 500', async () => {
    const res = await upload(t.app, 'slow-inn', storyPackage())
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({
      statusCode: 422,
      code: 'VALIDATION_TIMEOUT',
      message: 'Checking this package took longer than the 1 ms a validation may take',
    })
  })
})
