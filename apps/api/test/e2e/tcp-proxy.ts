/**
 * A TCP proxy on loopback that a test can stop and start again on the same port: put between a server process
 * and Redis, stopping it is what the server sees when Redis stops (open connections dropped, new ones refused),
 * without touching the Redis other tests and engineers share.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

/** A running proxy. */
export interface TcpProxy {
  /** The loopback port it listens on (kept across stop/start). */
  port: number
  /** Stops listening and drops every open connection (both sides). */
  stop(): Promise<void>
  /** Listens again on the same port. */
  start(): Promise<void>
}

/** Starts a proxy from a free loopback port to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0

  const listen = async () => {
    const s = createServer((client) => {
      const upstream = connect(target.port, target.host)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject)
      s.listen(port, '127.0.0.1', () => resolve())
    })
    port = (s.address() as { port: number }).port
    server = s
  }

  await listen()
  return {
    get port() {
      return port
    },
    stop: async () => {
      const s = server
      server = undefined
      if (!s) return
      const closed = new Promise<void>((resolve) => s.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    },
    start: async () => {
      if (!server) await listen()
    },
  }
}
