import { StorySummarySchema } from '@spkg/api-contract'
import { describe, expect, it } from 'vitest'
import { type ClientEventDetail, type ClientEventType, createClient, type Interceptor } from '../src/index'
import { scriptedFetch } from './scripted-fetch'

const TYPES: ClientEventType[] = [
  'auth-required',
  'forbidden',
  'rate-limited',
  'network-error',
  'server-error',
]

function setup(...script: Parameters<typeof scriptedFetch>) {
  const f = scriptedFetch(...script)
  const c = createClient({
    baseUrl: 'http://api.test/base/',
    fetch: f.fetch,
    getToken: () => 'tok-1',
    retry: 0,
    connectivity: null,
  })
  const seen: Array<[string, ClientEventDetail]> = []
  for (const t of TYPES)
    c.events.addEventListener(t, (e) => seen.push([t, (e as CustomEvent<ClientEventDetail>).detail]))
  return { c, calls: f.calls, seen }
}

const err = (status: number, code?: string, message = `m${status}`) => ({
  status,
  body: { statusCode: status, ...(code && { code }), message },
})

describe('auth-error events', () => {
  it.each([
    [401, 'auth-required'],
    [403, 'forbidden'],
    [500, 'server-error'],
    [503, 'server-error'],
  ] as const)('%i gives %s with the detail of the error body', async (status, type) => {
    const { c, seen } = setup(err(status, 'SOME_CODE', 'the detail'))
    await expect(c.request('GET', '/api/x')).rejects.toMatchObject({
      status,
      body: { statusCode: status, code: 'SOME_CODE', message: 'the detail' },
    })
    expect(seen).toEqual([
      [type, { status, method: 'GET', path: '/api/x', code: 'SOME_CODE', message: 'the detail' }],
    ])
  })

  it('gives no event for other client errors (400, 404, 409, 412)', async () => {
    for (const s of [400, 404, 409, 412]) {
      const { c, seen } = setup(err(s))
      await expect(c.request('PUT', '/api/x', { body: {} })).rejects.toMatchObject({ status: s })
      expect(seen).toEqual([])
    }
  })

  it('network-error for status 0, suppressed while the offline banner shows', async () => {
    const { c, seen } = setup('network')
    await expect(c.request('GET', '/api/x')).rejects.toMatchObject({ code: 'client/network', status: 0 })
    c.setOfflineBannerShown(true)
    await expect(c.request('GET', '/api/x')).rejects.toMatchObject({ code: 'client/network' })
    expect(seen).toEqual([['network-error', { status: 0, method: 'GET', path: '/api/x' }]])
  })

  it('reports a retried failure once, after the last attempt', async () => {
    const f = scriptedFetch(err(503))
    const c = createClient({
      baseUrl: 'http://api.test',
      fetch: f.fetch,
      sleep: async () => undefined,
      connectivity: null,
    })
    let n = 0
    c.events.addEventListener('server-error', () => n++)
    await expect(c.request('GET', '/api/x')).rejects.toMatchObject({ status: 503 })
    expect(f.calls).toHaveLength(3)
    expect(n).toBe(1)
  })
})

describe('token and interceptors', () => {
  it('injects the bearer token, except for anonymous requests, and keeps the base path', async () => {
    const { c, calls } = setup({ status: 200, body: {} })
    await c.request('GET', '/api/x', { query: { page: 2, skip: undefined } })
    await c.request('GET', '/catalog/genres', { anonymous: true })
    expect(calls[0]?.url).toBe('http://api.test/base/api/x?page=2')
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer tok-1')
    expect(calls[1]?.headers.get('authorization')).toBeNull()
  })

  it('reads the token from session storage by default in a browser', async () => {
    const f = scriptedFetch({ status: 200, body: {} })
    const items = new Map([['spkg.access-token', 'from-session']])
    const g = globalThis as { sessionStorage?: unknown }
    g.sessionStorage = { getItem: (k: string) => items.get(k) ?? null }
    try {
      const c = createClient({ baseUrl: 'http://api.test', fetch: f.fetch, connectivity: null })
      await c.request('GET', '/api/x')
      expect(f.calls[0]?.headers.get('authorization')).toBe('Bearer from-session')
    } finally {
      delete g.sessionStorage
    }
  })

  it('runs the chain in the SPEC order and places an embedder interceptor by name', async () => {
    const { c, calls } = setup({ status: 200, body: {} })
    expect(c.interceptors.names()).toEqual(['token', 'retry', 'auth-errors'])
    const order: string[] = []
    const mark =
      (name: string): Interceptor =>
      (ctx, next) => {
        order.push(`${name}:${ctx.headers.get('authorization') ?? '-'}`)
        ctx.headers.set(`x-${name}`, '1')
        return next(ctx)
      }
    c.interceptors.use('first', mark('first'), { before: 'token' })
    c.interceptors.use('after-token', mark('after-token'), { after: 'token' })
    c.interceptors.use('last', mark('last'))
    expect(c.interceptors.names()).toEqual(['first', 'token', 'after-token', 'retry', 'auth-errors', 'last'])
    await c.request('GET', '/api/x')
    expect(order).toEqual(['first:-', 'after-token:Bearer tok-1', 'last:Bearer tok-1'])
    expect(calls[0]?.headers.get('x-last')).toBe('1')
    expect(() => c.interceptors.use('x', mark('x'), { before: 'nope' })).toThrow(
      /no interceptor named "nope"/,
    )
    expect(c.interceptors.remove('first')).toBe(true)
    expect(c.interceptors.names()[0]).toBe('token')
  })
})

describe('typed methods', () => {
  /** The contract's own example of a story in a list. */
  const [story] = (StorySummarySchema.meta()?.examples ?? []) as unknown[]

  it('validates answers with the shared schemas', async () => {
    const { c, calls } = setup({ status: 200, body: { items: [story], page: 1, limit: 5, total: 1 } })
    const page = await c.stories.list({ page: 1, limit: 5 })
    expect(page.items[0]?.slug).toBe('the-lighthouse')
    expect(calls[0]?.url).toBe('http://api.test/base/api/stories?page=1&limit=5')
  })

  it('an answer outside the contract is client/invalid-response, not a crash later', async () => {
    const { c } = setup({ status: 200, body: { items: [{ slug: 1 }], page: 1 } })
    await expect(c.stories.list()).rejects.toMatchObject({ code: 'client/invalid-response' })
    const { c: c2 } = setup({ status: 200, body: 'not json {' })
    await expect(c2.request('GET', '/api/x')).rejects.toMatchObject({ code: 'client/invalid-response' })
  })

  it('refuses a path without a leading slash', async () => {
    const { c, calls } = setup({ status: 200, body: {} })
    await expect(c.request('GET', 'api/x')).rejects.toMatchObject({ code: 'client/bad-request' })
    await expect(c.request('GET', '//evil.example/x')).rejects.toMatchObject({ code: 'client/bad-request' })
    expect(calls).toHaveLength(0)
  })

  it('sends reading-state saves with If-Match or If-None-Match', async () => {
    const saved = { storyId: 's', revision: 4, updatedAt: '2026-11-23T10:00:00.000Z' }
    const { c, calls } = setup({ status: 200, body: saved })
    const state = {
      format: 1,
      id: '6f1c2d9a-7b1e-4c55-9a51-3c2e8f0b9d10',
      savedAt: '2026-11-23T10:00:00.000Z',
      variables: {},
      choices: {},
      visitedChoiceGroups: [],
      rng: { algorithm: 'mulberry32', seed: 1, state: 1 },
      visitedParts: [],
      renderedParagraph: 0,
    } as never
    await expect(c.progress.save('s', state, { revision: 3 })).resolves.toEqual(saved)
    await c.progress.save('s', state, { revision: null })
    expect(calls[0]?.headers.get('if-match')).toBe('"3"')
    expect(calls[1]?.headers.get('if-none-match')).toBe('*')
  })
})
