import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { closeDb, createDb, queryRows } from '../src/db/connection'
import { insertReport } from '../src/db/reports'
import { bearer, testAuthPlugin, useTestApp } from './helpers/app'

const t = useTestApp()

const report = (sub: string, body: unknown = { reason: 'spam', storySlug: 'some-story', details: 'x' }) =>
  t.app.inject({
    method: 'POST',
    url: '/me/reports',
    headers: bearer(sub, 'reader'),
    payload: body as object,
  })

describe('POST /me/reports', () => {
  it('records a report and refuses bad bodies', async () => {
    const ok = await report('rep-a')
    expect(ok.statusCode).toBe(201)
    expect(ok.json()).toMatchObject({ reason: 'spam', storySlug: 'some-story' })
    expect(ok.json().id).toMatch(/^[0-9a-f-]{36}$/)
    for (const body of [
      { reason: 'nope' },
      { reason: 'spam', extra: 1 },
      { reason: 'spam', details: 'x'.repeat(2001) },
    ]) {
      const res = await report('rep-a', body)
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('VALIDATION_FAILED')
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/me/reports', payload: { reason: 'spam' } })).statusCode,
    ).toBe(401)
  })

  it('has no /api prefix', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/me/reports',
      headers: bearer('x', 'reader'),
      payload: {},
    })
    expect(res.statusCode).toBe(404)
  })

  it('answers the 11th report in 24 hours with 409 REPORT_RATE_LIMITED', async () => {
    for (let i = 0; i < 10; i++) expect((await report('rep-b')).statusCode).toBe(201)
    const res = await report('rep-b')
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      statusCode: 409,
      code: 'REPORT_RATE_LIMITED',
      message: 'Report rate limit exceeded: at most 10 reports in 24 hours',
    })
    // another user is not affected
    expect((await report('rep-c')).statusCode).toBe(201)
  })

  it('counts only the last 24 hours', async () => {
    await t.tdb.db.execute(
      sql`insert into reports (user_sub, reason, created_at) select 'rep-old', 'spam', now() - interval '25 hours' from generate_series(1, 10)`,
    )
    expect((await report('rep-old')).statusCode).toBe(201)
  })

  it('lets exactly 10 of 30 concurrent requests through (database-enforced)', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => report('rep-concurrent')))
    const codes = results.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 201)).toHaveLength(10)
    expect(codes.filter((c) => c === 409)).toHaveLength(20)
    const [row] = await queryRows<{ n: number }>(
      t.tdb.db,
      sql`select count(*)::int as n from reports where user_sub = 'rep-concurrent'`,
    )
    expect(row?.n).toBe(10)
  })

  it('holds under 30 concurrent inserts on separate connections', async () => {
    // Through the repository directly, so PostgreSQL runs them on up to 10 pooled connections at once.
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () =>
        insertReport(t.tdb.db, { userSub: 'rep-pool', reason: 'spam', storySlug: null, details: '' }),
      ),
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10)
    const [row] = await queryRows<{ n: number }>(
      t.tdb.db,
      sql`select count(*)::int as n from reports where user_sub = 'rep-pool'`,
    )
    expect(row?.n).toBe(10)
  })

  it('holds across two app instances in one process (15 + 15 concurrent -> exactly 10)', async () => {
    // PostgreSQL: the second instance has its own connection pool; PGlite: both use the one embedded database.
    // Two server processes on one PostgreSQL database: test/e2e/api.e2e.test.ts.
    const second = t.tdb.url ? await createDb({ databaseUrl: t.tdb.url, pgliteDir: 'memory://' }) : t.tdb.db
    const app2 = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), {
      db: second,
      authPlugin: testAuthPlugin,
      rateLimit: { maxFactor: 1000 },
    })
    try {
      const send = (app: typeof app2) =>
        app.inject({
          method: 'POST',
          url: '/me/reports',
          headers: bearer('rep-two-instances', 'reader'),
          payload: { reason: 'spam' },
        })
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => send(i % 2 ? app2 : t.app)))
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10)
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(20)
    } finally {
      await app2.close()
      if (second !== t.tdb.db) await closeDb(second)
    }
  }, 60_000)
})
