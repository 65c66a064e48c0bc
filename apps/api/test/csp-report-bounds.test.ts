/**
 * CSP report storage bounds: identical reports are counted in one row, and one client address
 * holds at most CSP_REPORTS_PER_SOURCE distinct reports, so one anonymous caller cannot replace the history.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '../src/db/connection'
import { CSP_REPORTS_PER_SOURCE } from '../src/db/csp-reports'
import { useTestApp } from './helpers/app'

const t = useTestApp()

const report = (i: number | string) => ({
  type: 'csp-violation',
  url: 'https://app.example.org/',
  body: {
    documentURL: 'https://app.example.org/',
    blockedURL: `https://evil.example/${i}.js`,
    effectiveDirective: 'script-src',
  },
})
const send = (reports: unknown[], ip = '203.0.113.7') =>
  t.app.inject({
    method: 'POST',
    url: '/api/csp-report',
    remoteAddress: ip,
    headers: { 'content-type': 'application/reports+json' },
    payload: JSON.stringify(reports),
  })
const stored = () =>
  queryRows<{ blocked_uri: string; count: number; source: string | null }>(
    t.tdb.db,
    sql`select blocked_uri, count, source from csp_reports order by id`,
  )

describe('CSP report storage', () => {
  it('counts identical reports in one row', async () => {
    for (let i = 0; i < 20; i++)
      expect((await send(Array.from({ length: 50 }, () => report('same')))).statusCode).toBe(204)
    const rows = (await stored()).filter((r) => r.blocked_uri === 'https://evil.example/same.js')
    expect(rows).toHaveLength(1)
    expect(Number(rows[0]?.count)).toBe(1000)
    expect(rows[0]?.source).toMatch(/^[0-9a-f]{32}$/)
    expect(JSON.stringify(await stored())).not.toContain('203.0.113.7')
  })

  it(`keeps at most ${CSP_REPORTS_PER_SOURCE} distinct reports of one source; others still get in`, async () => {
    for (let r = 0; r < 6; r++) {
      expect(
        (
          await send(
            Array.from({ length: 50 }, (_, i) => report(`flood-${r}-${i}`)),
            '198.51.100.9',
          )
        ).statusCode,
      ).toBe(204)
    }
    const flood = (await stored()).filter((x) => x.blocked_uri.includes('flood-'))
    expect(flood).toHaveLength(CSP_REPORTS_PER_SOURCE)
    // a repeat of a stored report is still counted
    await send([report('flood-0-0')], '198.51.100.9')
    const first = (await stored()).find((x) => x.blocked_uri === 'https://evil.example/flood-0-0.js')
    expect(Number(first?.count)).toBe(2)
    expect((await send([report('other-source')], '192.0.2.1')).statusCode).toBe(204)
    expect((await stored()).some((x) => x.blocked_uri === 'https://evil.example/other-source.js')).toBe(true)
  })
})
