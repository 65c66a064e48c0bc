/**
 * The real server process: start-up, JSON logs without tokens, graceful shutdown on SIGTERM with
 * an in-flight request, and the one-line refusal of a bad configuration.
 */
import { request } from 'node:http'
import { connect } from 'node:net'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { createPgDatabase, createTestDb } from './helpers/db'
import { ServerStartError, startServerProcess, stopAllServerProcesses } from './helpers/server-process'

afterAll(() => stopAllServerProcesses())

/** Resolves once `check` holds for the process's output (polled; the test's own timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20))
}

describe('server process', () => {
  it('serves, logs JSON with request ids and no tokens, and drains in-flight requests on SIGTERM', async () => {
    // With DATABASE_URL: a fresh PostgreSQL database for the process; else embedded PGlite in memory.
    const pg = process.env.DATABASE_URL ? await createPgDatabase() : undefined
    onTestFinished(async () => pg?.drop())
    const s = await startServerProcess({
      name: 'api',
      env: { LOG_LEVEL: 'info', ...(pg && { DATABASE_URL: pg.url }) },
    })
    const base = s.base
    const health = await fetch(`${base}/api/health`, {
      headers: { authorization: 'Bearer secret-token-do-not-log', 'x-request-id': 'trace-12345678' },
    })
    expect(health.status).toBe(200)
    expect(health.headers.get('x-request-id')).toBe('trace-12345678')
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' })

    // An upload still in flight when SIGTERM arrives completes before the process exits: SIGTERM once the server
    // has logged the request's arrival, the rest of the body once it has logged that it is shutting down.
    const url = new URL(`${base}/api/csp-report`)
    const body = JSON.stringify({
      'csp-report': { 'document-uri': 'https://app.example.org/', 'blocked-uri': 'inline' },
    })
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/csp-report',
            'content-length': Buffer.byteLength(body),
            'x-request-id': 'upload-in-flight',
          },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      req.write(body.slice(0, 10))
      void (async () => {
        await until(() => s.logs().some((l) => l.reqId === 'upload-in-flight'))
        s.child.kill('SIGTERM')
        await until(() => s.logs().some((l) => l.msg === 'shutting down'))
        req.end(body.slice(10))
      })().catch(reject)
    })
    expect(await inFlight).toBe(204)
    expect((await s.exited).code).toBe(0)
    const lines = s.logs()
    expect(lines.some((l) => l.reqId === 'trace-12345678' && l.msg === 'request completed')).toBe(true)
    expect(lines.some((l) => l.msg === 'shutting down')).toBe(true)
    expect(s.stdout()).not.toContain('secret-token-do-not-log')
    expect(s.stdout()).not.toContain('remoteAddress')
  }, 90_000)

  it('refuses a bad configuration with one line naming each setting', async () => {
    const refused = await startServerProcess({
      name: 'bad-config',
      env: { PORT: 'eighty', OIDC_ROLES_CLAIM: 'bad claim!' },
    })
      .then(() => undefined)
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ServerStartError)
    const error = refused as ServerStartError
    expect(error.exit.code).toBe(1)
    const lines = error.stderr.trim().split('\n')
    expect(lines[0]).toBe('Invalid configuration:')
    expect(lines.some((l) => /^ {2}PORT: must be an integer/.test(l))).toBe(true)
    expect(lines.some((l) => /^ {2}OIDC_ROLES_CLAIM: /.test(l))).toBe(true)
  }, 60_000)
})

/** Splits raw HTTP/1.1 responses read from one socket into status, headers and body. */
function parseResponses(raw: string) {
  const out: { status: number; headers: Record<string, string>; body: string }[] = []
  let rest = raw
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n')
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n')
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    )
    const length = Number(headers['content-length'] ?? 0)
    out.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    })
    rest = rest.slice(end + 4 + length)
  }
  return out
}

describe('while closing', () => {
  it('finishes the in-flight request and answers a request arriving during the drain with the standard 503 body', async () => {
    const tdb = await createTestDb()
    onTestFinished(() => tdb.dispose())
    const app = await buildApp(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CORS_ORIGINS: 'https://app.example.org' }),
      {
        db: tdb.db,
      },
    )
    // Observers only (registered after the app's own hooks): when the upload is past onRequest and waiting for its
    // body, and when closing has begun.
    let uploadStarted = () => {}
    const started = new Promise<void>((resolve) => {
      uploadStarted = resolve
    })
    app.addHook('preParsing', async (request) => {
      if (request.url === '/api/csp-report') uploadStarted()
    })
    let closingBegun = () => {}
    const begun = new Promise<void>((resolve) => {
      closingBegun = resolve
    })
    app.addHook('preClose', async () => closingBegun())
    await app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = app.server.address() as { port: number }
    const body = JSON.stringify({
      'csp-report': { 'document-uri': 'https://app.example.org/', 'blocked-uri': 'inline' },
    })
    const open = async () => {
      const socket = connect(port, '127.0.0.1')
      let raw = ''
      socket.setEncoding('utf8').on('data', (d) => {
        raw += d
      })
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
      return { socket, raw: () => raw, ended }
    }
    // A second connection whose request headers are on their way when the close begins (a connection in the middle
    // of a request is not idle: the close does not drop it).
    const late = await open()
    late.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example.org\r\n')
    // A report upload in flight: headers and half the body sent.
    const upload = await open()
    upload.socket.write(
      `POST /api/csp-report HTTP/1.1\r\nHost: x\r\nContent-Type: application/csp-report\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    )
    await started
    const closed = app.close()
    await begun
    // The rest of the upload, and the end of the late request's headers.
    upload.socket.write(body.slice(10))
    late.socket.write('\r\n')
    await closed
    await Promise.all([upload.ended, late.ended])
    const [first, ...more] = parseResponses(upload.raw())
    expect(first?.status).toBe(204)
    // Closed after the answer: a kept-alive connection would hold the close until the client let it go.
    expect(first?.headers.connection).toBe('close')
    expect(more).toEqual([])
    const [second] = parseResponses(late.raw())
    expect(second?.status).toBe(503)
    expect(JSON.parse(second?.body ?? '')).toEqual({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The server is shutting down; retry',
    })
    expect(second?.headers.connection).toBe('close')
    expect(second?.headers['access-control-allow-origin']).toBe('https://app.example.org')
  }, 120_000)
})
