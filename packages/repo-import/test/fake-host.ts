/**
 * A fake repository host for tests: HTTPS servers on 127.0.0.1 (API, download, and a hostile one
 * no request should ever reach) with a certificate made by `openssl` for `localhost` and
 * `127.0.0.1`, each answering from a route table the test fills, and recording every request.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type Handler = (req: IncomingMessage, res: ServerResponse) => void

export interface Recorded {
  path: string
  authorization: string | undefined
}

export interface FakeServer {
  /** `localhost:<port>`, the host name tests configure. */
  host: string
  port: number
  routes: Map<string, Handler>
  requests: Recorded[]
}

export interface FakeHost {
  /** The CA (self-signed certificate) to trust, PEM. */
  ca: string
  /** Its file, for `NODE_EXTRA_CA_CERTS`. */
  caFile: string
  api: FakeServer
  download: FakeServer
  hostile: FakeServer
  /** Forgets every route and request. */
  reset(): void
  close(): Promise<void>
}

/** A certificate for localhost and 127.0.0.1, made once per call in a fresh folder. */
function makeCertificate(): { key: string; cert: string; certFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-repo-cert-'))
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,DNS:*.test.example,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  )
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    certFile: join(dir, 'cert.pem'),
  }
}

async function serve(key: string, cert: string): Promise<{ server: Server; fake: FakeServer }> {
  const fake: FakeServer = { host: '', port: 0, routes: new Map(), requests: [] }
  const server = createServer({ key, cert }, (req, res) => {
    const path = req.url ?? '/'
    // The CORS headers GitHub sends, so a browser page can call the fake host too.
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader(
      'access-control-expose-headers',
      'location, retry-after, x-ratelimit-remaining, x-ratelimit-reset',
    )
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': 'accept, authorization, x-github-api-version' })
      res.end()
      return
    }
    fake.requests.push({ path, authorization: req.headers.authorization })
    const handler = fake.routes.get(path)
    if (handler) handler(req, res)
    else {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"message":"Not Found"}')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.port = (server.address() as AddressInfo).port
  fake.host = `localhost:${fake.port}`
  return { server, fake }
}

/** Starts the three servers. */
export async function startFakeHost(): Promise<FakeHost> {
  const { key, cert, certFile } = makeCertificate()
  const servers = await Promise.all([serve(key, cert), serve(key, cert), serve(key, cert)])
  const [api, download, hostile] = servers.map((s) => s.fake) as [FakeServer, FakeServer, FakeServer]
  return {
    ca: cert,
    caFile: certFile,
    api,
    download,
    hostile,
    reset() {
      for (const f of [api, download, hostile]) {
        f.routes.clear()
        f.requests.length = 0
      }
    },
    async close() {
      for (const { server } of servers) {
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
    },
  }
}

/** A handler answering with `bytes` (with a Content-Length unless `chunked`). */
export function sendBytes(bytes: Uint8Array, options: { chunked?: boolean; type?: string } = {}): Handler {
  return (_req, res) => {
    const headers: Record<string, string | number> = { 'content-type': options.type ?? 'application/zip' }
    if (!options.chunked) headers['content-length'] = bytes.length
    res.writeHead(200, headers)
    res.end(bytes)
  }
}

/** A handler redirecting to `location`. */
export function redirectTo(location: string, status = 302): Handler {
  return (_req, res) => {
    res.writeHead(status, { location })
    res.end()
  }
}

/** A handler answering `status` with `headers` and a small JSON body. */
export function answer(status: number, headers: Record<string, string> = {}, body = '{}'): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(body)
  }
}
