/**
 * HTTP servers on 127.0.0.1 for the remote-archive tests: a real `@fastify/static` server (range,
 * ETag and If-Range support) and hand-made node:http servers that misbehave in one way each.
 * Every server logs the `Range` header of each request it receives.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll } from 'vitest'
import type { Sleeper } from '../../src/remote/range-source'

export interface LoggedRequest {
  url: string
  range?: string
  ifRange?: string
}

/** A running server: its base URL, the requests it saw, and `close()`. */
export interface TestServer {
  base: string
  log: LoggedRequest[]
  close(): Promise<void>
}

/** A real static file server (`@fastify/static`) over a temporary folder with `files`. */
export async function staticServer(files: Record<string, Uint8Array>): Promise<TestServer & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-range-'))
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes)
  const app: FastifyInstance = Fastify({ forceCloseConnections: true })
  const log: LoggedRequest[] = []
  app.addHook('onRequest', async (req) => {
    log.push({
      url: req.url,
      range: req.headers.range,
      ifRange: req.headers['if-range'] as string | undefined,
    })
  })
  await app.register(fastifyStatic, { root: dir, etag: true, lastModified: true })
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  return {
    base,
    dir,
    log,
    close: async () => {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A node:http server whose every request goes to `handle` (after being logged). */
export async function handServer(
  handle: (req: IncomingMessage, res: ServerResponse, n: number) => void,
): Promise<TestServer> {
  const log: LoggedRequest[] = []
  const sockets = new Set<import('node:net').Socket>()
  const server: Server = createServer((req, res) => {
    log.push({
      url: req.url ?? '',
      range: req.headers.range,
      ifRange: req.headers['if-range'] as string | undefined,
    })
    res.on('error', () => {})
    handle(req, res, log.length)
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

/**
 * {@link handServer} for the tests of one `describe` block: every server it starts is closed after
 * the block's last test.
 */
export function handServersOfBlock(): typeof handServer {
  const servers: TestServer[] = []
  afterAll(() => Promise.all(servers.map((s) => s.close())))
  return async (handle) => {
    const s = await handServer(handle)
    servers.push(s)
    return s
  }
}

/** Answers a `Range` request for `bytes` correctly (suffix or start-end), with `etag`. */
export function answerRange(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Uint8Array,
  etag: string,
): void {
  const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '')
  const ifRange = req.headers['if-range']
  if (!m || (ifRange !== undefined && ifRange !== etag)) {
    res.writeHead(200, { etag, 'content-length': bytes.length }).end(bytes)
    return
  }
  let start: number
  let end: number
  if (m[1] === '') {
    start = Math.max(0, bytes.length - Number(m[2]))
    end = bytes.length - 1
  } else {
    start = Number(m[1])
    end = m[2] === '' ? bytes.length - 1 : Math.min(Number(m[2]), bytes.length - 1)
  }
  res
    .writeHead(206, {
      etag,
      'content-range': `bytes ${start}-${end}/${bytes.length}`,
      'content-length': end - start + 1,
    })
    .end(bytes.subarray(start, end + 1))
}

/**
 * Fake time for the range client: backoff waits resolve at once and are recorded in `waits`; a
 * request's timeout (a wait of exactly `timeout` ms) runs out only when the test calls `expire()`.
 */
export function fakeSleeper(timeout: number): Sleeper & { waits: number[]; expire(): void } {
  const pending = new Set<() => void>()
  const sleeper = Object.assign(
    (ms: number, signal?: AbortSignal) => {
      if (ms === timeout)
        return new Promise<void>((resolve, reject) => {
          const done = () => {
            pending.delete(done)
            resolve()
          }
          pending.add(done)
          signal?.addEventListener('abort', () => {
            pending.delete(done)
            reject(signal.reason)
          })
        })
      sleeper.waits.push(ms)
      return Promise.resolve()
    },
    {
      waits: [] as number[],
      expire: () => {
        for (const done of [...pending]) done()
      },
    },
  )
  return sleeper
}
