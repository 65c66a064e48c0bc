import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '../src/db/connection'
import { storeCspViolations } from '../src/db/csp-reports'
import { useTestApp } from './helpers/app'

const t = useTestApp()

const send = (contentType: string, payload: string) =>
  t.app.inject({ method: 'POST', url: '/api/csp-report', headers: { 'content-type': contentType }, payload })

const rows = () =>
  queryRows<Record<string, unknown>>(
    t.tdb.db,
    sql`select format, document_uri, blocked_uri, effective_directive, line_number from csp_reports order by id`,
  )

describe('POST /api/csp-report', () => {
  it('accepts the report-uri format (application/csp-report) without a token', async () => {
    const res = await send(
      'application/csp-report',
      JSON.stringify({
        'csp-report': {
          'document-uri': 'https://app.example.org/read',
          'blocked-uri': 'https://evil.example.com/x.js',
          'violated-directive': 'script-src-elem',
          'effective-directive': 'script-src-elem',
          'original-policy': "default-src 'self'",
          disposition: 'enforce',
          'line-number': 12,
          'status-code': 200,
        },
      }),
    )
    expect(res.statusCode).toBe(204)
    expect((await rows()).at(-1)).toMatchObject({
      format: 'report-uri',
      document_uri: 'https://app.example.org/read',
      blocked_uri: 'https://evil.example.com/x.js',
      effective_directive: 'script-src-elem',
      line_number: 12,
    })
  })

  it('accepts the Reporting API format (application/reports+json) and keeps only csp-violation reports', async () => {
    const res = await send(
      'application/reports+json',
      JSON.stringify([
        {
          type: 'csp-violation',
          age: 10,
          url: 'https://app.example.org/',
          user_agent: 'Mozilla/5.0',
          body: {
            documentURL: 'https://app.example.org/',
            blockedURL: 'inline',
            effectiveDirective: 'style-src',
            disposition: 'enforce',
          },
        },
        { type: 'deprecation', body: { id: 'x' } },
      ]),
    )
    expect(res.statusCode).toBe(204)
    const last = (await rows()).at(-1)
    expect(last).toMatchObject({
      format: 'report-to',
      blocked_uri: 'inline',
      effective_directive: 'style-src',
    })
  })

  it('refuses invalid bodies with 400 and other content types with 415', async () => {
    expect((await send('application/csp-report', '{"not":"a report"}')).statusCode).toBe(400)
    expect((await send('application/csp-report', '{broken')).statusCode).toBe(400)
    expect((await send('application/reports+json', '[]')).statusCode).toBe(400)
    const tooMany = JSON.stringify(Array.from({ length: 51 }, () => ({ type: 'csp-violation', body: {} })))
    expect((await send('application/reports+json', tooMany)).statusCode).toBe(400)
    const longField = JSON.stringify({ 'csp-report': { 'blocked-uri': 'x'.repeat(5000) } })
    expect((await send('application/csp-report', longField)).statusCode).toBe(400)
    const res = await send('application/xml', '<report/>')
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
  })

  it('refuses a report body over 64 KiB with 413', async () => {
    const big = JSON.stringify({ 'csp-report': { 'original-policy': 'x'.repeat(70_000) } })
    const res = await send('application/csp-report', big)
    expect(res.statusCode).toBe(413)
    expect(res.json().statusCode).toBe(413)
  })

  it('keeps the table bounded to the newest rows', async () => {
    await storeCspViolations(
      t.tdb.db,
      Array.from({ length: 30 }, (_, i) => ({
        format: 'report-uri' as const,
        documentUri: `https://x/${i}`,
      })),
      { kept: 5 },
    )
    const all = await rows()
    expect(all.length).toBeLessThanOrEqual(6)
    expect(all.at(-1)?.document_uri).toBe('https://x/29')
  })
})
