import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type ClientEventDetail, createClient, isApiClientError } from '../src/index'
import { scriptedFetch } from './scripted-fetch'

const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
const RETRIED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Every status the SPEC names, and neighbours that must not be retried. */
const STATUSES = [0, 400, 401, 403, 404, 408, 409, 412, 429, 500, 501, 502, 503, 504] as const
const RETRIED_STATUSES = new Set([0, 408, 502, 503, 504])

const errorAnswer = (status: number) =>
  status === 0
    ? ('network' as const)
    : { status, body: { statusCode: status, message: `status ${status}` }, headers: { 'retry-after': '7' } }

function client(...script: Parameters<typeof scriptedFetch>) {
  const f = scriptedFetch(...script)
  const c = createClient({
    baseUrl: 'http://api.test',
    fetch: f.fetch,
    getToken: () => 'tok',
    connectivity: null,
  })
  return { c, calls: f.calls }
}

/** Advances the fake clock by each step's milliseconds, then checks how many requests were made by then. */
async function expectCallsOverTime(calls: unknown[], steps: Array<[ms: number, requests: number]>) {
  for (const [ms, requests] of steps) {
    await vi.advanceTimersByTimeAsync(ms)
    expect(calls).toHaveLength(requests)
  }
}

describe('retry: method x status', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  for (const method of METHODS) {
    for (const status of STATUSES) {
      const retried = RETRIED_METHODS.has(method) && RETRIED_STATUSES.has(status)
      it(`${method} ${status}: ${retried ? '2 retries after 1 s and 2 s' : 'no retry'}`, async () => {
        const { c, calls } = client(errorAnswer(status))
        const p = c.request(method, '/api/x').then(
          () => undefined,
          (e: unknown) => e,
        )
        const schedule: Array<[number, number]> = retried
          ? [
              [0, 1],
              [999, 1],
              [1, 2],
              [1999, 2],
              [1, 3],
              [10_000, 3],
            ]
          : [
              [0, 1],
              [10_000, 1],
            ]
        await expectCallsOverTime(calls, schedule)
        const error = await p
        expect(isApiClientError(error)).toBe(true)
        expect((error as { status: number }).status).toBe(status)
        expect((error as { code: string }).code).toBe(status === 0 ? 'client/network' : 'client/http')
      })
    }
  }
})

describe('retry options', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('succeeds on a retry and resolves to the parsed body', async () => {
    const { c, calls } = client(errorAnswer(503), { status: 200, body: { ok: 1 } })
    const p = c.request('GET', '/api/x')
    await vi.advanceTimersByTimeAsync(1000)
    await expect(p).resolves.toEqual({ ok: 1 })
    expect(calls).toHaveLength(2)
  })

  it('retry: 0 turns retries off for one request', async () => {
    const { c, calls } = client(errorAnswer(503))
    await expect(c.request('GET', '/api/x', { retry: 0 })).rejects.toMatchObject({ status: 503 })
    expect(calls).toHaveLength(1)
  })

  it('retry: {count, delays} sets the schedule; the last delay repeats', async () => {
    const { c, calls } = client(errorAnswer(504))
    const p = c.request('GET', '/api/x', { retry: { count: 3, delays: [100] } }).catch((e: unknown) => e)
    await expectCallsOverTime(calls, [
      [99, 1],
      [1, 2],
      [200, 4],
    ])
    expect(await p).toMatchObject({ status: 504 })
  })

  it('the client-wide retry option is the default of each request', async () => {
    const f = scriptedFetch(errorAnswer(502))
    const c = createClient({ baseUrl: 'http://api.test', fetch: f.fetch, retry: 0, connectivity: null })
    await expect(c.request('GET', '/api/x')).rejects.toMatchObject({ status: 502 })
    expect(f.calls).toHaveLength(1)
  })

  it('never retries POST even when asked to', async () => {
    const { c, calls } = client(errorAnswer(503))
    await expect(c.request('POST', '/api/x', { body: {}, retry: 5 })).rejects.toMatchObject({ status: 503 })
    expect(calls).toHaveLength(1)
  })

  it('does not retry an aborted request, and rejects with client/aborted', async () => {
    const { c, calls } = client(errorAnswer(503))
    const ac = new AbortController()
    const p = c.request('GET', '/api/x', { signal: ac.signal }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(500)
    ac.abort()
    await vi.advanceTimersByTimeAsync(5000)
    expect(calls).toHaveLength(1)
    expect(await p).toMatchObject({ code: 'client/aborted' })
  })

  it('surfaces Retry-After of a 429 without retrying', async () => {
    const { c, calls } = client({
      status: 429,
      body: { statusCode: 429, message: 'slow down' },
      headers: { 'retry-after': '30' },
    })
    const events: ClientEventDetail[] = []
    c.events.addEventListener('rate-limited', (e) =>
      events.push((e as CustomEvent<ClientEventDetail>).detail),
    )
    await expect(c.request('GET', '/api/x')).rejects.toMatchObject({ status: 429, retryAfter: 30 })
    expect(calls).toHaveLength(1)
    expect(events).toEqual([
      { status: 429, method: 'GET', path: '/api/x', retryAfter: 30, message: 'slow down' },
    ])
  })
})
