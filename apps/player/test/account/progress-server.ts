/**
 * A progress collection over HTTP in the protocol of the API's `/api/progress` (revisions in `ETag`, `If-Match`,
 * `If-None-Match: *`, 412 on a stale revision, 428 on an overwrite without a precondition, 401 without a token), for
 * the unit tests of the player's cloud driver. The e2e tests run the real API.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ProgressServer {
  origin: string
  /** Stored states by key. */
  states: Map<string, { text: string; revision: number }>
  /** Requests seen, as `METHOD path`. */
  log: string[]
  /** While true every request is answered 401. */
  refuseTokens: boolean
  close(): Promise<void>
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = ''
    req.on('data', (c) => {
      s += c
    })
    req.on('end', () => resolve(s))
  })

export async function startProgressServer(): Promise<ProgressServer> {
  const states = new Map<string, { text: string; revision: number }>()
  const log: string[] = []
  const ps: ProgressServer = { origin: '', states, log, refuseTokens: false, close: async () => {} }
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    log.push(`${req.method} ${url.pathname}`)
    const send = (status: number, json?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(json === undefined ? '' : JSON.stringify(json))
    }
    const text = await body(req)
    if (ps.refuseTokens || !req.headers.authorization) {
      return send(401, { statusCode: 401, code: 'AUTH_REQUIRED', message: 'sign in' })
    }
    if (url.pathname === '/api/progress' && req.method === 'GET') {
      return send(200, {
        items: [...states].map(([key, s]) => ({
          key,
          revision: s.revision,
          updatedAt: new Date(0).toISOString(),
        })),
      })
    }
    const m = /^\/api\/progress\/([^/]+)$/.exec(url.pathname)
    if (!m) return send(404, { statusCode: 404, code: 'NOT_FOUND', message: 'no route' })
    const key = decodeURIComponent(m[1] as string)
    const cur = states.get(key)
    const etag = (r: number) => ({ etag: `"${r}"` })
    if (req.method === 'GET') {
      if (!cur) return send(404, { statusCode: 404, code: 'NOT_FOUND', message: 'none' })
      res.writeHead(200, { 'content-type': 'application/json', ...etag(cur.revision) })
      return res.end(cur.text)
    }
    if (req.method === 'PUT') {
      const ifMatch = req.headers['if-match']
      const ifNone = req.headers['if-none-match']
      if (ifNone === '*' && cur) return send(412, { statusCode: 412, message: 'exists' }, etag(cur.revision))
      if (ifMatch === undefined && ifNone === undefined && cur) {
        return send(428, { statusCode: 428, message: 'If-Match required' }, etag(cur.revision))
      }
      if (ifMatch !== undefined && (!cur || ifMatch !== `"${cur.revision}"`)) {
        return send(412, { statusCode: 412, message: 'stale' }, cur ? etag(cur.revision) : {})
      }
      const revision = (cur?.revision ?? 0) + 1
      states.set(key, { text, revision })
      return send(
        cur ? 200 : 201,
        { storyId: key, revision, updatedAt: new Date().toISOString() },
        etag(revision),
      )
    }
    if (req.method === 'DELETE') {
      states.delete(key)
      return send(204)
    }
    return send(405, { statusCode: 405, message: 'method' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  ps.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  ps.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return ps
}
