/**
 * Error bodies at the edges: every answer has `{ statusCode, code, message }` and says
 * what is true: a 408 from the HTTP layer, the 413 of a route with its own body limit, a forbidden `__proto__` key
 * in a CSP report, and a value the database refuses (SQLSTATE 22021/22P02/22P05: 400, not 500).
 */
import { connect } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { insertReport } from '../src/db/reports'
import { handleError } from '../src/errors'
import { useTestApp } from './helpers/app'
import { createTestDb, type TestDb } from './helpers/db'

const t = useTestApp()

describe('413 and parse errors of the CSP report intake', () => {
  it('names the route limit (64 KiB), not the global 1 MB', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(70_000) } }),
    })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Request body is too large (64 KiB maximum)',
    })
  })

  it('a __proto__ key in application/csp-report says so, without naming application/json', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: '{"csp-report":{"__proto__":{"x":1}}}',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('VALIDATION_FAILED')
    expect(res.json().message).toContain('__proto__')
    expect(res.json().message).not.toContain('application/json')
  })
})

describe('values the database refuses', () => {
  let tdb: TestDb
  let app: FastifyInstance
  beforeAll(async () => {
    tdb = await createTestDb()
    app = Fastify()
    app.setErrorHandler(handleError)
    // The input rules refuse U+0000 before any route; this goes around them to the database, the last line.
    app.get('/nul', async () =>
      insertReport(tdb.db, { userSub: 'u', reason: 'spam', storySlug: null, details: 'a\u0000b' }),
    )
    await app.ready()
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await tdb?.dispose()
  })

  it('U+0000 reaching the database is a 400, not a 500', async () => {
    const res = await app.inject({ url: '/nul' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' })
  })

  it('maps 22P02 and 22P05 the same way, and anything else stays a 500', async () => {
    const local = Fastify()
    local.setErrorHandler(handleError)
    local.get('/:state', async (req) => {
      const code = (req.params as { state: string }).state
      throw Object.assign(new Error('Failed query: insert ...'), {
        cause: Object.assign(new Error('db'), { code }),
      })
    })
    await local.ready()
    for (const [state, status] of [
      ['22P02', 400],
      ['22P05', 400],
      ['22021', 400],
      ['23502', 500],
    ] as const) {
      expect((await local.inject({ url: `/${state}` })).statusCode, state).toBe(status)
    }
    await local.close()
  })
})

describe('408 from the HTTP layer', () => {
  let tdb: TestDb
  let app: FastifyInstance
  beforeAll(async () => {
    tdb = await createTestDb()
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      REQUEST_TIMEOUT_MS: '1500',
      HEADERS_TIMEOUT_MS: '500',
      // Below the 1500 ms connection timeout (config.ts refuses a validation that could outlast it).
      VALIDATION_QUEUE_WAIT_MS: '500',
      VALIDATION_TIMEOUT_MS: '500',
      // An import's download would need room in the connection timeout too: no import here.
      REPO_IMPORT: 'false',
    }
    app = await buildApp(
      loadConfig({ ...env, CONNECTION_TIMEOUT_MS: '1500', KEEP_ALIVE_TIMEOUT_MS: '500' }),
      {
        db: tdb.db,
      },
    )
    await app.listen({ host: '127.0.0.1', port: 0 })
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await tdb?.dispose()
  })

  it('has the error body with its code, on a real socket', async () => {
    const port = (app.server.address() as { port: number }).port
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (d) => {
      received += d.toString()
    })
    socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n') // the headers never end
    await new Promise<void>((resolve) => socket.on('close', () => resolve()))
    expect(received).toMatch(/^HTTP\/1\.1 408 /)
    const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))
    expect(body).toEqual({
      statusCode: 408,
      code: 'REQUEST_TIMEOUT',
      message: 'The request did not arrive in time',
    })
  }, 15_000)
})
