/**
 * @spkg/client against the real API on loopback, with tokens from the development OpenID provider: typed methods,
 * auth-error events, the cloud driver under @spkg/state's driver contract, and the offline queue's replay with the
 * 412 merge rule.
 */
import { type ClientEventDetail, createClient, createCloudDriver } from '@spkg/client'
import type { ReadingState } from '@spkg/manifest'
import type { StateDriver } from '@spkg/state'
import { createStateStore } from '@spkg/state'
import { DRIVER_CASES } from '@spkg/state/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiveApi, startLiveApi } from './harness'

let api: LiveApi

beforeAll(async () => {
  api = await startLiveApi({ 'ada-creator': ['creator'], 'rex-reader': ['reader'], 'cloud-user': ['reader'] })
}, 60_000)
afterAll(async () => {
  await api?.close()
})

const clientOf = (user: string | undefined, fetchImpl?: typeof fetch) =>
  createClient({
    baseUrl: api.origin,
    getToken: user ? () => api.token(user) : () => undefined,
    connectivity: null,
    retry: 0,
    ...(fetchImpl && { fetch: fetchImpl }),
  })

function eventsOf(c: ReturnType<typeof clientOf>) {
  const seen: Array<[string, ClientEventDetail]> = []
  for (const t of ['auth-required', 'forbidden', 'rate-limited', 'server-error', 'network-error', 'conflict'])
    c.events.addEventListener(t, (e) => seen.push([t, (e as CustomEvent<ClientEventDetail>).detail]))
  return seen
}

/** A state of story `id`, saved at `/api/progress/<id>` (the API refuses it under another key). */
const state = (savedAt: string, gold: number, id = '6f1c2d9a-7b1e-4c55-9a51-3c2e8f0b9d10'): ReadingState =>
  ({
    format: 1,
    id,
    savedAt,
    variables: { gold },
    choices: {},
    visitedChoiceGroups: [],
    rng: { algorithm: 'mulberry32', seed: 1, state: 1 },
    visitedParts: [],
    renderedParagraph: 0,
  }) as ReadingState

describe('typed methods on the real API', () => {
  it('creates, lists, reads, updates and deletes a story; answers pass the shared schemas', async () => {
    const c = clientOf('ada-creator')
    const created = await c.stories.create({
      slug: 'client-story',
      title: 'Client Story',
      author: 'Ada',
      genre: 'mystery',
      content: '# Hi',
    })
    expect(created).toMatchObject({ slug: 'client-story', owner: 'ada-creator', type: 'story' })
    const page = await c.stories.list({ page: 1, limit: 5 })
    expect(page.items.map((s) => s.slug)).toContain('client-story')
    expect((await c.stories.update('client-story', { title: 'Renamed' })).title).toBe('Renamed')
    expect((await c.stories.get('client-story')).content).toBe('# Hi')
    await c.stories.remove('client-story')
    await expect(c.stories.get('client-story')).rejects.toMatchObject({
      code: 'client/http',
      status: 404,
      body: { code: 'NOT_FOUND' },
    })
    await expect(c.catalog.genres()).resolves.toEqual({ items: expect.any(Array) })
  })

  it('401 gives auth-required and 403 forbidden, with the status, method and path', async () => {
    const anonymous = clientOf(undefined)
    const seenA = eventsOf(anonymous)
    await expect(anonymous.stories.list()).rejects.toMatchObject({ status: 401 })
    expect(seenA).toEqual([
      ['auth-required', expect.objectContaining({ status: 401, method: 'GET', path: '/api/stories' })],
    ])
    const reader = clientOf('rex-reader')
    const seenR = eventsOf(reader)
    await expect(
      reader.stories.create({ slug: 'nope-story', title: 'x', author: 'x', genre: 'x', content: '' }),
    ).rejects.toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } })
    expect(seenR).toEqual([
      [
        'forbidden',
        expect.objectContaining({ status: 403, method: 'POST', path: '/api/stories', code: 'FORBIDDEN' }),
      ],
    ])
  })
})

/**
 * The API stores reading states only, so the contract's free-text values travel inside one (`variables.v`) and come
 * back out; revisions, conflicts and keys are the API's own. Left out: the 2 MB value case, over the API's 700 KiB
 * reading-state bound (READING_STATE_MAX_BYTES, answered 413 by design).
 */
function asTextDriver(inner: StateDriver): StateDriver {
  const wrap = (key: string, value: string) =>
    JSON.stringify(state('2026-11-23T10:00:00.000Z', 0, key)).replace(
      '"gold":0',
      `"v":${JSON.stringify(value)}`,
    )
  const unwrap = (text: string) => (JSON.parse(text) as { variables: { v: string } }).variables.v
  return {
    name: inner.name,
    get: async (key, o) => {
      const got = await inner.get(key, o)
      return got && { value: unwrap(got.value), revision: got.revision }
    },
    set: (key, value, o) => inner.set(key, wrap(key, value), o),
    remove: (key, o) => inner.remove(key, o),
    keys: (o) => inner.keys(o),
  }
}

describe('createCloudDriver on /api/progress', () => {
  const cases = DRIVER_CASES.filter((c) => !c.name.includes('2 MB'))
  it('leaves out exactly the 2 MB case', () => {
    expect(DRIVER_CASES.length - cases.length).toBe(1)
  })
  for (const c of cases) {
    it(c.name, async () => {
      const client = clientOf('cloud-user')
      const driver = createCloudDriver(client)
      expect(driver.name).toBe('cloud')
      for (const key of await driver.keys()) await driver.remove(key)
      await c.run(asTextDriver(driver))
    })
  }

  it('is the cloud storage of a @spkg/state store: save, resume, and a stale device refused', async () => {
    const phone = createStateStore(createCloudDriver(clientOf('cloud-user')))
    const tablet = createStateStore(createCloudDriver(clientOf('cloud-user')))
    await phone.save('inn', state('2026-11-23T10:00:00.000Z', 3, 'inn'))
    const loaded = await tablet.load('inn')
    expect(loaded.diagnostics).toEqual([])
    expect(loaded.state?.variables).toEqual({ gold: 3 })
    await phone.save('inn', state('2026-11-23T10:01:00.000Z', 4, 'inn'))
    await expect(tablet.save('inn', state('2026-11-23T10:02:00.000Z', 9, 'inn'))).rejects.toMatchObject({
      code: 'state/conflict',
    })
  })
})

describe('offline queue replay on the real API', () => {
  /** A fetch that can be cut off: no answer while `down`. */
  function switchableFetch() {
    const s: { down: boolean; fetch: typeof fetch } = {
      down: false,
      fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
        s.down ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init)) as typeof fetch,
    }
    return s
  }

  it('queues saves made offline and replays them in order when the connection returns', async () => {
    const net = switchableFetch()
    const c = clientOf('rex-reader', net.fetch)
    const first = await c.progress.save(
      'queued-story',
      state('2026-11-23T10:00:00.000Z', 1, 'queued-story'),
      {
        revision: null,
      },
    )
    expect(first).toMatchObject({ revision: 1 })
    net.down = true
    const offline = await c.progress.save(
      'queued-story',
      state('2026-11-23T10:05:00.000Z', 2, 'queued-story'),
      {
        revision: 1,
      },
    )
    expect(offline.queued?.seq).toBe(1)
    expect(c.offline.online).toBe(false)
    const second = await c.progress.save(
      'queued-story',
      state('2026-11-23T10:06:00.000Z', 3, 'queued-story'),
      {
        revision: 1,
      },
    )
    expect(second.queued?.seq).toBe(2)
    net.down = false
    const report = await c.offline.replay()
    expect(report).toEqual({ sent: 2, pending: 0, conflicts: [] })
    const saved = await c.progress.get('queued-story')
    expect(saved?.state.variables).toEqual({ gold: 3 })
    expect(saved?.revision).toBe(3)
    expect(await c.offline.pending()).toEqual([])
  })

  it('412: a queued save older than the server state is reported, not lost; a newer one is merged over it', async () => {
    const net = switchableFetch()
    const phone = clientOf('ada-creator', net.fetch)
    const other = clientOf('ada-creator')
    const seen = eventsOf(phone)
    await phone.progress.save('race', state('2026-11-23T10:00:00.000Z', 1, 'race'), { revision: null })
    net.down = true
    await phone.progress.save('race', state('2026-11-23T10:05:00.000Z', 2, 'race'), { revision: 1 })
    // Another device saves later (10:09) while the phone is offline.
    await other.progress.save('race', state('2026-11-23T10:09:00.000Z', 7, 'race'), { revision: 1 })
    net.down = false
    const report = await phone.offline.replay()
    expect(report.sent).toBe(0)
    expect(report.conflicts).toHaveLength(1)
    expect(seen.filter(([t]) => t === 'conflict')).toEqual([
      [
        'conflict',
        expect.objectContaining({
          status: 412,
          method: 'PUT',
          path: '/api/progress/race',
          queued: report.conflicts[0],
        }),
      ],
    ])
    expect((await other.progress.get('race'))?.state.variables).toEqual({ gold: 7 })

    // Now the queued save is the later one: it is written over the server's current revision.
    net.down = true
    await phone.progress.save('race', state('2026-11-23T10:20:00.000Z', 11, 'race'), { revision: 1 })
    net.down = false
    expect(await phone.offline.replay()).toEqual({ sent: 1, pending: 0, conflicts: [] })
    expect(await other.progress.get('race')).toMatchObject({
      state: { variables: { gold: 11 } },
      revision: 3,
    })
  })
})
