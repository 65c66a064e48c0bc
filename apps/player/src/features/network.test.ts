import { createServer, type Server } from 'node:http'
import type { AllowedUrl } from '@spkg/manifest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNetworkGuard, isFetchableUrl, NET_NAMESPACE, resolveAllowed } from './network'

const allowed: AllowedUrl[] = [
  {
    alias: 'weather',
    url: 'https://api.example.org/weather?units=metric',
    params: { city: 'Oslo', days: 1 },
  },
  { alias: 'plain', url: 'https://example.org/ping' },
  { alias: 'insecure', url: 'http://example.org/x' },
]

describe('resolveAllowed', () => {
  it('lets only listed aliases through, to the manifest’s address', () => {
    expect(resolveAllowed(allowed, 'plain')).toEqual({
      ok: true,
      alias: 'plain',
      url: 'https://example.org/ping',
    })
    expect(resolveAllowed(allowed, 'weather')).toMatchObject({
      ok: true,
      url: 'https://api.example.org/weather?units=metric&city=Oslo&days=1',
    })
    expect(resolveAllowed(allowed, 'weather', { city: 'Bergen & co' })).toMatchObject({
      ok: true,
      url: 'https://api.example.org/weather?units=metric&city=Bergen+%26+co&days=1',
    })
  })

  it('blocks anything else with a stable code', () => {
    expect(resolveAllowed(allowed, 'https://evil.example/steal')).toMatchObject({
      ok: false,
      code: 'net/unknown-alias',
    })
    expect(resolveAllowed(undefined, 'plain')).toMatchObject({ ok: false, code: 'net/unknown-alias' })
    expect(resolveAllowed(allowed, '')).toMatchObject({ ok: false, code: 'net/bad-alias' })
    expect(resolveAllowed(allowed, 42)).toMatchObject({ ok: false, code: 'net/bad-alias' })
    expect(resolveAllowed(allowed, 'insecure')).toMatchObject({ ok: false, code: 'net/bad-url' })
    expect(resolveAllowed(allowed, 'weather', { token: 'x' })).toMatchObject({
      ok: false,
      code: 'net/param-not-allowed',
    })
    expect(resolveAllowed(allowed, 'weather', { city: ['a'] })).toMatchObject({
      ok: false,
      code: 'net/bad-params',
    })
    expect(resolveAllowed(allowed, 'weather', 'city=x')).toMatchObject({ ok: false, code: 'net/bad-params' })
    // Aliases are exact: no case folding, no prefix match.
    expect(resolveAllowed(allowed, 'Plain')).toMatchObject({ ok: false })
    expect(resolveAllowed(allowed, 'pla')).toMatchObject({ ok: false })
    expect(resolveAllowed(allowed, '__proto__')).toMatchObject({ ok: false, code: 'net/unknown-alias' })
  })

  it('fetches https, and http only on loopback', () => {
    expect(isFetchableUrl('https://example.org/')).toBeDefined()
    expect(isFetchableUrl('http://127.0.0.1:3000/x')).toBeDefined()
    expect(isFetchableUrl('http://localhost/x')).toBeDefined()
    expect(isFetchableUrl('http://10.0.0.1/x')).toBeUndefined()
    expect(isFetchableUrl('https://user:pw@example.org/')).toBeUndefined()
    expect(isFetchableUrl('javascript:alert(1)')).toBeUndefined()
    expect(isFetchableUrl('file:///etc/passwd')).toBeUndefined()
    expect(isFetchableUrl('not a url')).toBeUndefined()
  })
})

describe('the net host functions over a real server', () => {
  let server: Server
  let base = ''
  const hits: string[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '')
      if (req.url?.startsWith('/redirect')) {
        res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end()
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ score: 7, q: req.url }))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('sends listed aliases, keeps the answer, blocks and logs the rest', async () => {
    const log: string[] = []
    const guard = createNetworkGuard({
      allowed: [
        { alias: 'score', url: `${base}/score`, params: { n: 0 } },
        { alias: 'bounce', url: `${base}/redirect` },
      ],
      onLog: (e) => log.push(`${e.outcome} ${e.alias}${e.code ? ` ${e.code}` : ''}`),
    })
    const net = guard.host[NET_NAMESPACE]!
    expect(net.allowed!('score')).toBe(true)
    expect(net.allowed!('other')).toBe(false)
    expect(net.last!('score')).toBe(false)
    expect(net.send!('score', { n: 3 })).toBe(true)
    expect(net.send!('other')).toBe(false)
    await expect.poll(() => net.last!('score')).toEqual({ score: 7, q: '/score?n=3' })
    expect(hits).toContain('/score?n=3')
    // A redirect is refused: the allowed address cannot send the story elsewhere.
    await expect(guard.fetchAllowed('bounce')).rejects.toMatchObject({ code: 'net/failed' })
    await expect(guard.fetchAllowed('nope')).rejects.toMatchObject({ code: 'net/unknown-alias' })
    expect(log).toEqual([
      'sent score',
      'blocked other net/unknown-alias',
      'done score',
      'sent bounce',
      'failed bounce net/failed',
      'blocked nope net/unknown-alias',
    ])
    guard.close()
  })
})
