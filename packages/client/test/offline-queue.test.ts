/**
 * The offline queue with a scripted API: connectivity events, saves queued while offline and on a failed request,
 * replay in order with a reconnected event, and a file-backed queue (the @spkg/state fs driver) that survives a new
 * client, as after a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReadingState } from '@spkg/manifest'
import { createFsDriver } from '@spkg/state/node'
import { afterEach, describe, expect, it } from 'vitest'
import { type ConnectivitySource, createClient } from '../src/index'
import { scriptedFetch } from './scripted-fetch'

const state = (gold: number) =>
  ({
    format: 1,
    id: '6f1c2d9a-7b1e-4c55-9a51-3c2e8f0b9d10',
    savedAt: '2026-11-23T10:00:00.000Z',
    variables: { gold },
    choices: {},
    visitedChoiceGroups: [],
    rng: { algorithm: 'mulberry32', seed: 1, state: 1 },
    visitedParts: [],
    renderedParagraph: 0,
  }) as unknown as ReadingState

function fakeConnectivity(onLine: boolean) {
  const target = new EventTarget()
  const nav = { onLine }
  const source: ConnectivitySource & { go(online: boolean): void } = {
    navigator: nav,
    addEventListener: (t, l) => target.addEventListener(t, l),
    removeEventListener: (t, l) => target.removeEventListener(t, l),
    go(online) {
      nav.onLine = online
      target.dispatchEvent(new Event(online ? 'online' : 'offline'))
    },
  }
  return source
}

const saved = (revision: number) => ({
  status: 200,
  body: { storyId: 's', revision, updatedAt: '2026-11-23T10:00:00.000Z' },
})

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('offline queue', () => {
  it('queues saves while offline and replays them in order on reconnection', async () => {
    const f = scriptedFetch(saved(2), saved(3))
    const net = fakeConnectivity(true)
    const c = createClient({
      baseUrl: 'http://api.test',
      fetch: f.fetch,
      connectivity: net,
      getToken: () => 't',
    })
    const seen: string[] = []
    for (const t of ['offline', 'reconnected']) c.events.addEventListener(t, () => seen.push(t))
    net.go(false)
    expect(c.offline.online).toBe(false)
    const a = await c.progress.save('s', state(1), { revision: 1 })
    const b = await c.progress.save('s', state(2), { revision: 1 })
    expect([a.queued?.seq, b.queued?.seq]).toEqual([1, 2])
    expect(f.calls).toHaveLength(0)
    net.go(true)
    await expect.poll(async () => (await c.offline.pending()).length).toBe(0)
    expect(seen).toEqual(['offline', 'reconnected'])
    expect(c.offline.online).toBe(true)
    expect(f.calls.map((r) => [r.method, r.headers.get('if-match')])).toEqual([
      ['PUT', '"1"'],
      ['PUT', '"1"'],
    ])
    c.close()
  })

  it('queues a save whose request got no answer, and marks the client offline', async () => {
    const f = scriptedFetch('network')
    const c = createClient({ baseUrl: 'http://api.test', fetch: f.fetch, connectivity: null })
    const r = await c.progress.save('s', state(1), { revision: null })
    expect(r.queued).toMatchObject({
      seq: 1,
      method: 'PUT',
      path: '/api/progress/s',
      progress: { revision: null },
    })
    expect(c.offline.online).toBe(false)
    await expect(c.progress.save('s', state(1), { whenOffline: 'reject' })).rejects.toMatchObject({
      code: 'client/network',
    })
  })

  it('stops a replay without an answer and keeps the rest for later', async () => {
    const f = scriptedFetch(saved(2), 'network')
    const c = createClient({ baseUrl: 'http://api.test', fetch: f.fetch, connectivity: null })
    for (let i = 0; i < 3; i++)
      await c.offline.enqueue({ method: 'PUT', path: `/api/progress/k${i}`, body: {} })
    expect(await c.offline.replay()).toEqual({ sent: 1, pending: 2, conflicts: [] })
    expect((await c.offline.pending()).map((w) => w.path)).toEqual(['/api/progress/k1', '/api/progress/k2'])
  })

  it('keeps a file-backed queue across clients (a restart)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-client-queue-'))
    dirs.push(dir)
    const first = createClient({
      baseUrl: 'http://api.test',
      fetch: scriptedFetch('network').fetch,
      connectivity: null,
      storage: createFsDriver({ dir }),
    })
    await first.progress.save('s', state(1), { revision: 4 })
    await first.progress.save('s', state(2), { revision: 4 })
    const f = scriptedFetch(saved(5), saved(6))
    const second = createClient({
      baseUrl: 'http://api.test',
      fetch: f.fetch,
      connectivity: null,
      storage: createFsDriver({ dir }),
    })
    expect((await second.offline.pending()).map((w) => w.seq)).toEqual([1, 2])
    expect(await second.offline.replay()).toEqual({ sent: 2, pending: 0, conflicts: [] })
    expect(await Promise.all(f.calls.map((r) => r.json()))).toMatchObject([
      { variables: { gold: 1 } },
      { variables: { gold: 2 } },
    ])
  })
})
