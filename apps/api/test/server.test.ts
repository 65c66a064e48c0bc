/**
 * The real server process: start-up, JSON logs without tokens, graceful shutdown on SIGTERM with
 * an in-flight request, and the one-line refusal of a bad configuration.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { request } from 'node:http'
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { createPgDatabase, createTestDb } from './helpers/db'

const API_DIR = fileURLToPath(new URL('..', import.meta.url))
const children: ChildProcess[] = []

function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=@spkg/source', '--import', 'tsx', 'src/server.ts'], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', PGLITE_DIR: 'memory://', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /Server listening at (http:\/\/[^"]+)"/.exec(stdout)
      if (m?.[1]) {
        clearInterval(timer)
        resolve(m[1])
      }
    }, 50)
    exited.then((code) => {
      clearInterval(timer)
      reject(new Error(`server exited with ${code}: ${stderr}`))
    })
  })
  listening.catch(() => {})
  return { child, exited, listening, out: () => stdout, err: () => stderr }
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
})

describe('server process', () => {
  it('serves, logs JSON with request ids and no tokens, and drains in-flight requests on SIGTERM', async () => {
    // With DATABASE_URL: a fresh PostgreSQL database for the process; else embedded PGlite in memory.
    const pg = process.env.DATABASE_URL ? await createPgDatabase() : undefined
    onTestFinished(async () => pg?.drop())
    const s = startProcess({ LOG_LEVEL: 'info', ...(pg && { DATABASE_URL: pg.url }) })
    const base = await s.listening
    const health = await fetch(`${base}/api/health`, {
      headers: { authorization: 'Bearer secret-token-do-not-log', 'x-request-id': 'trace-12345678' },
    })
    expect(health.status).toBe(200)
    expect(health.headers.get('x-request-id')).toBe('trace-12345678')
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' })

    // An upload still in flight when SIGTERM arrives completes before the process exits.
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
          headers: { 'content-type': 'application/csp-report', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      req.write(body.slice(0, 10))
      setTimeout(() => {
        s.child.kill('SIGTERM')
        setTimeout(() => req.end(body.slice(10)), 300)
      }, 200)
    })
    expect(await inFlight).toBe(204)
    expect(await s.exited).toBe(0)
    const lines = s
      .out()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
    expect(lines.some((l) => l.reqId === 'trace-12345678' && l.msg === 'request completed')).toBe(true)
    expect(lines.some((l) => l.msg === 'shutting down')).toBe(true)
    expect(s.out()).not.toContain('secret-token-do-not-log')
    expect(s.out()).not.toContain('remoteAddress')
  }, 90_000)

  it('refuses a bad configuration with one line naming each setting', async () => {
    const s = startProcess({ PORT: 'eighty', OIDC_ROLES_CLAIM: 'bad claim!' })
    expect(await s.exited).toBe(1)
    const lines = s.err().trim().split('\n')
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
    const socket = connect(port, '127.0.0.1')
    let raw = ''
    socket.setEncoding('utf8').on('data', (d) => {
      raw += d
    })
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
    // A report upload in flight: headers and half the body sent.
    socket.write(
      `POST /api/csp-report HTTP/1.1\r\nHost: x\r\nContent-Type: application/csp-report\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    )
    await started
    const closed = app.close()
    await begun
    // The rest of the upload, and a second request pipelined behind it on the same (busy) connection.
    socket.write(
      `${body.slice(10)}GET /api/health HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example.org\r\n\r\n`,
    )
    await closed
    await ended
    const [first, second, ...more] = parseResponses(raw)
    expect(first?.status).toBe(204)
    expect(second?.status).toBe(503)
    expect(more).toEqual([])
    expect(JSON.parse(second?.body ?? '')).toEqual({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The server is shutting down; retry',
    })
    expect(second?.headers.connection).toBe('close')
    expect(second?.headers['access-control-allow-origin']).toBe('https://app.example.org')
  }, 120_000)
})
