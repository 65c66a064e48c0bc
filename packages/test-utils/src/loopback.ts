/**
 * Loopback helpers for tests that run real servers (the API's processes, the player's platform): a port to start
 * one on, and a request sent byte for byte as written, which no HTTP client does.
 */
import { connect, createServer } from 'node:net'

/** A loopback port that was free a moment ago (another process may take it before the caller does). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

/**
 * One HTTP/1.1 `GET path` to `127.0.0.1:port` with the path exactly as written: `fetch` and `inject` resolve `..`
 * and `%2e%2e` before sending, so a test of path traversal through them tests nothing. Resolves with the whole
 * answer as text, status line first, once the server closes the connection (`Connection: close`).
 *
 * @example
 * const answer = await rawGet(port, '/assets/..%2F..%2Fpackage.json')
 * answer.split('\r\n')[0] // 'HTTP/1.1 404 Not Found'
 */
export function rawGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    )
    let data = ''
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => {
      data += d
    })
    socket.on('error', reject)
    socket.on('end', () => resolve(data))
  })
}
