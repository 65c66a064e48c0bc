import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import { freePort, rawGet } from './loopback.ts'

describe('freePort and rawGet', () => {
  it('gives a port a server can listen on, and sends the path as written', async () => {
    const port = await freePort()
    expect(port).toBeGreaterThan(0)
    const seen: string[] = []
    const server = createServer((req, res) => {
      seen.push(String(req.url))
      res.end('hello')
    })
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    try {
      const answer = await rawGet(port, '/assets/../%2e%2e/x')
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK')
      expect(answer.endsWith('hello')).toBe(true)
      expect(seen).toEqual(['/assets/../%2e%2e/x'])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('rejects when nothing listens', async () => {
    await expect(rawGet(await freePort(), '/')).rejects.toThrow(/ECONNREFUSED/)
  })
})
