/**
 * Connection timeouts with real sockets (short settings so that the suite runs in seconds): an idle connection that
 * never sends a request, headers that never finish, a body trickled a byte at a time, and an idle kept-alive
 * connection are each closed after their own timeout.
 */
import { connect, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { createTestDb, type TestDb } from './helpers/db'

const TIMEOUTS = {
  REQUEST_TIMEOUT_MS: '4000',
  HEADERS_TIMEOUT_MS: '2500',
  CONNECTION_TIMEOUT_MS: '2500',
  KEEP_ALIVE_TIMEOUT_MS: '300',
  // The connection timeout must exceed an upload's wait for and time of validation (config.ts).
  VALIDATION_QUEUE_WAIT_MS: '1000',
  VALIDATION_TIMEOUT_MS: '1000',
  // An import's download would need room in the connection timeout too: no import here.
  REPO_IMPORT: 'false',
}

let tdb: TestDb
let app: FastifyInstance
let port: number

beforeAll(async () => {
  tdb = await createTestDb()
  app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...TIMEOUTS }), { db: tdb.db })
  await app.listen({ host: '127.0.0.1', port: 0 })
  port = (app.server.address() as { port: number }).port
}, 60_000)

afterAll(async () => {
  await app?.close()
  await tdb?.dispose()
})

/** A raw connection: what it received, and when (ms after `start`) the server closed it, within `limitMs`. */
async function open(): Promise<{
  socket: Socket
  received: () => string
  closedAfter: (limitMs: number) => Promise<number>
}> {
  const socket = connect(port, '127.0.0.1')
  let data = ''
  socket.setEncoding('latin1').on('data', (d: string) => {
    data += d
  })
  socket.on('error', () => {})
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())))
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  return {
    socket,
    received: () => data,
    closedAfter: async (limitMs) => {
      const start = Date.now()
      const limit = new Promise<number>((resolve) =>
        setTimeout(() => resolve(Number.POSITIVE_INFINITY), limitMs),
      )
      const at = await Promise.race([closed, limit])
      socket.destroy()
      return at - start
    },
  }
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let i = 0
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer)
    socket.write(text[i++] as string)
  }, everyMs)
  socket.once('close', () => clearInterval(timer))
}

describe('connection timeouts', () => {
  it('closes a connection that never sends anything after CONNECTION_TIMEOUT_MS', async () => {
    const c = await open()
    const after = await c.closedAfter(6000)
    expect(after).toBeGreaterThanOrEqual(2200)
    expect(after).toBeLessThan(4000)
  }, 10_000)

  it('answers 408 and closes when the headers do not finish within HEADERS_TIMEOUT_MS', async () => {
    const c = await open()
    // A byte every 400 ms: the connection is never idle for CONNECTION_TIMEOUT_MS.
    trickle(c.socket, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(100)}`, 400)
    const after = await c.closedAfter(6000)
    expect(after).toBeGreaterThanOrEqual(2000)
    expect(after).toBeLessThan(4000)
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /)
  }, 10_000)

  it('answers 408 and closes when a trickled body does not finish within REQUEST_TIMEOUT_MS', async () => {
    const c = await open()
    c.socket.write(
      'POST /api/csp-report HTTP/1.1\r\nHost: x\r\nContent-Type: application/csp-report\r\nContent-Length: 200\r\n\r\n',
    )
    trickle(c.socket, `{"csp-report":{"document-uri":"https://a.example/${'b'.repeat(150)}"}}`, 400)
    const after = await c.closedAfter(8000)
    expect(after).toBeGreaterThanOrEqual(3500)
    expect(after).toBeLessThan(6000)
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /)
  }, 12_000)

  it('closes an idle kept-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const c = await open()
    c.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n')
    const started = Date.now()
    while (!c.received().includes('\r\n\r\n') && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 10))
    }
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /)
    const after = await c.closedAfter(5000)
    // Well before CONNECTION_TIMEOUT_MS (2500 ms): the keep-alive timeout closed it (Node 20 adds one second to it).
    expect(after).toBeLessThan(2000)
  }, 10_000)
})
