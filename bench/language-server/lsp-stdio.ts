/**
 * A minimal editor side of the Language Server Protocol over a child's stdio: Content-Length
 * framing, requests with ids, notifications, and waiting for a notification that matches.
 */
import { type ChildProcess, spawn } from 'node:child_process'

export interface StdioLsp {
  child: ChildProcess
  request(method: string, params: unknown): Promise<unknown>
  notify(method: string, params: unknown): void
  /** The next notification `method` whose params satisfy `accept`, with the time it arrived. */
  next<T>(method: string, accept: (params: T) => boolean): Promise<{ params: T; at: number }>
  /** Calls `listener` with every notification `method` (before the waiters of `next`). */
  on<T>(method: string, listener: (params: T, at: number) => void): void
  close(): Promise<void>
}

export function spawnLsp(command: string, args: string[], cwd: string): StdioLsp {
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'inherit'] })
  let buffer = Buffer.alloc(0)
  let id = 0
  const pending = new Map<number, (v: unknown) => void>()
  const listeners: Array<{ method: string; listener: (p: unknown, at: number) => void }> = []
  const waiters: Array<{
    method: string
    accept: (p: unknown) => boolean
    resolve: (v: { params: unknown; at: number }) => void
  }> = []
  child.stdout!.on('data', (chunk: Buffer) => {
    const at = performance.now()
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))?.[1])
      if (buffer.length < end + 4 + length) return
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'))
      buffer = buffer.subarray(end + 4 + length)
      if (message.id !== undefined && pending.has(message.id)) {
        pending.get(message.id)!(message.result)
        pending.delete(message.id)
      } else if (message.method) {
        for (const l of listeners) if (l.method === message.method) l.listener(message.params, at)
        const i = waiters.findIndex((w) => w.method === message.method && w.accept(message.params))
        if (i >= 0) waiters.splice(i, 1)[0]!.resolve({ params: message.params, at })
      }
    }
  })
  const send = (message: object) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8')
    child.stdin!.write(`Content-Length: ${body.length}\r\n\r\n`)
    child.stdin!.write(body)
  }
  return {
    child,
    request(method, params) {
      const n = ++id
      send({ id: n, method, params })
      return new Promise((resolve) => pending.set(n, resolve))
    },
    notify(method, params) {
      send({ method, params })
    },
    on<T>(method: string, listener: (params: T, at: number) => void) {
      listeners.push({ method, listener: listener as (p: unknown, at: number) => void })
    },
    next<T>(method: string, accept: (params: T) => boolean) {
      return new Promise<{ params: T; at: number }>((resolve, reject) => {
        const w = {
          method,
          accept: accept as (p: unknown) => boolean,
          resolve: resolve as (v: { params: unknown; at: number }) => void,
        }
        waiters.push(w)
        setTimeout(() => {
          const i = waiters.indexOf(w)
          if (i >= 0) {
            waiters.splice(i, 1)
            reject(new Error(`no ${method} within 60 s`))
          }
        }, 60_000).unref()
      })
    },
    async close() {
      await this.request('shutdown', null)
      this.notify('exit', null)
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}
