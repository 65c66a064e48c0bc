/**
 * The player's cloud driver over a progress collection speaking the API's protocol: saves go to the account online,
 * are queued offline (and when the session ended) and sent on reconnection, a reload offline resumes from the queue,
 * and the next save after the offline ones builds on what the API then holds.
 */
import { createClient } from '@spkg/client'
import type { ReadingState } from '@spkg/manifest'
import { createStateStore } from '@spkg/state'
import { createMemoryDriver } from '@spkg/state/drivers/memory'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type ProgressServer, startProgressServer } from '../../test/account/progress-server'
import { baseOfQueued, createSyncingCloudDriver, queuedRevision } from './syncing-driver'

const ID = '6f1c2d9a-7b1e-4c55-9a51-3c2e8f0b9d10'
let clock = Date.parse('2026-11-27T01:00:00Z')
const state = (paragraph: number): ReadingState => {
  clock += 1000
  return {
    format: 1,
    id: ID,
    savedAt: new Date(clock).toISOString(),
    variables: { gold: paragraph },
    choices: {},
    visitedChoiceGroups: [],
    rng: { algorithm: 'mulberry32', seed: 42, state: 1 },
    visitedParts: [],
    renderedParagraph: paragraph,
  } as ReadingState
}

let server: ProgressServer
beforeAll(async () => {
  server = await startProgressServer()
})
afterAll(async () => {
  await server?.close()
})

/** A tab: a client whose network can be cut, with its connectivity events, over a shared queue storage. */
function tab(queue = createMemoryDriver(), signedIn = () => true) {
  const net = { down: false }
  const connectivity = Object.assign(new EventTarget(), { navigator: { onLine: true } })
  const client = createClient({
    baseUrl: server.origin,
    getToken: () => 'token',
    retry: 0,
    storage: queue,
    connectivity: connectivity as never,
    fetch: (input, init) =>
      net.down ? Promise.reject(new TypeError('Failed to fetch')) : globalThis.fetch(input, init),
  })
  const setOnline = (online: boolean) => {
    connectivity.navigator.onLine = online
    net.down = !online
    connectivity.dispatchEvent(new Event(online ? 'online' : 'offline'))
  }
  const driver = createSyncingCloudDriver(client, { signedIn })
  return { client, driver, net, setOnline, queue }
}

const stored = (key: string) => JSON.parse(server.states.get(key)?.text ?? 'null') as ReadingState | null

beforeEach(() => {
  server.states.clear()
  server.refuseTokens = false
})

describe('the cloud driver of the player', () => {
  it('saves to the account online, with compare-and-set', async () => {
    const { driver, client } = tab()
    const store = createStateStore(driver, { storyId: ID })
    expect((await store.load('inn')).state).toBeUndefined()
    expect(await store.save('inn', state(3))).toEqual({ revision: '1' })
    expect(await store.save('inn', state(5))).toEqual({ revision: '2' })
    expect(stored('inn')?.renderedParagraph).toBe(5)
    const other = createStateStore(tab().driver, { storyId: ID })
    await expect(other.save('inn', state(1))).rejects.toMatchObject({ code: 'state/conflict' })
    expect(await driver.keys()).toEqual(['inn'])
    client.close()
  })

  it('queues saves made offline, resumes from them offline, and sends them on reconnection', async () => {
    const t = tab()
    const store = createStateStore(t.driver, { storyId: ID })
    await store.save('inn', state(2))
    t.setOnline(false)
    const r1 = await store.save('inn', state(4))
    expect(r1.revision).toBe(queuedRevision(1))
    await store.save('inn', state(6))
    expect(await t.client.offline.pending()).toHaveLength(2)
    expect(stored('inn')?.renderedParagraph).toBe(2)
    // A reload offline: a new store resumes from the last queued save.
    const reopened = createStateStore(t.driver, { storyId: ID })
    expect((await reopened.load('inn')).state?.renderedParagraph).toBe(6)

    const reconnected = new Promise((resolve) => t.client.events.addEventListener('reconnected', resolve))
    t.setOnline(true)
    await reconnected
    await t.client.offline.replay()
    expect(await t.client.offline.pending()).toHaveLength(0)
    expect(stored('inn')?.renderedParagraph).toBe(6)
    // The next save builds on what the API holds now, not on the revision before going offline.
    await store.save('inn', state(8))
    expect(stored('inn')?.renderedParagraph).toBe(8)
    t.client.close()
  })

  it('queues a save that gets no answer, and one refused because the session ended', async () => {
    const t = tab()
    const store = createStateStore(t.driver, { storyId: ID })
    t.net.down = true
    const r = await store.save('inn', state(1))
    expect(baseOfQueued(r.revision)).toBeNull()
    expect(t.client.offline.online).toBe(false)
    t.net.down = false
    server.refuseTokens = true
    t.setOnline(true)
    await t.client.offline.replay()
    const refused = await store.save('inn', state(2))
    expect(baseOfQueued(refused.revision)).not.toBeUndefined()
    server.refuseTokens = false
    await t.client.offline.replay()
    expect(stored('inn')?.renderedParagraph).toBe(2)
    t.client.close()
  })

  it('refuses to overwrite a later save of another device made while this one was offline', async () => {
    const phone = tab()
    const tablet = tab()
    const phoneStore = createStateStore(phone.driver, { storyId: ID })
    await phoneStore.save('inn', state(1))
    phone.setOnline(false)
    const early = state(3)
    await phoneStore.save('inn', early)
    const tabletStore = createStateStore(tablet.driver, { storyId: ID })
    await tabletStore.load('inn')
    await tabletStore.save('inn', state(9))
    phone.setOnline(true)
    // The replay merges by savedAt: the tablet's later state stays.
    await phone.client.offline.replay()
    expect(stored('inn')?.renderedParagraph).toBe(9)
    await expect(phoneStore.save('inn', { ...early, renderedParagraph: 4 })).rejects.toMatchObject({
      code: 'state/conflict',
    })
    phone.client.close()
    tablet.client.close()
  })

  it('saves nothing for a signed-out reader', async () => {
    const t = tab(createMemoryDriver(), () => false)
    await expect(t.driver.set('inn', JSON.stringify(state(1)))).rejects.toMatchObject({
      code: 'state/storage-failed',
    })
    expect(server.log.filter((l) => l.startsWith('PUT'))).not.toContain('PUT /api/progress/x')
    t.client.close()
  })
})
