/**
 * The `cloud` storage of the player: `@spkg/client`'s `createCloudDriver` (the API's `/api/progress`, with the
 * signed-in reader's token), plus the client's offline queue, so that progress made without a connection is kept and
 * sent when the connection returns (SPEC, Client behaviour 3).
 *
 * - A save made offline, or one that got no answer, or one refused because the session ended (401), is queued in the
 *   client's durable queue (`client.offline`) and the save resolves with a revision `queued:<base>`, `<base>` being
 *   the last revision of the API it builds on. The queue replays in order on reconnection; a queued save refused for a
 *   stale revision is merged by the client's rule (the later `savedAt` wins, nothing is lost silently).
 * - The next save over a `queued:` revision, once online, sends the queue first, then writes over whatever the API
 *   holds when that is not later than the state being saved (else `state/conflict`: another device went further).
 * - A load while offline gives the last queued state of that story, so a reader who reopens a story offline resumes
 *   where they stopped; online, the queue is sent first so the API's answer includes it.
 */
import type { Client } from '@spkg/client'
import { createCloudDriver } from '@spkg/client'
import { SpkgError } from '@spkg/manifest'
import type { DriverSetOptions, StateDriver, StoredValue } from '@spkg/state'

const QUEUED = 'queued:'

/** The revision a queued save resolves with: the API revision it builds on (`none`: the first save). */
export function queuedRevision(base: number | null): string {
  return `${QUEUED}${base ?? 'none'}`
}

/** The API revision under a `queued:` revision (`null`: none yet), or undefined when `revision` is not one. */
export function baseOfQueued(revision: string | null | undefined): number | null | undefined {
  if (typeof revision !== 'string' || !revision.startsWith(QUEUED)) return undefined
  const rest = revision.slice(QUEUED.length)
  return /^\d{1,9}$/.test(rest) ? Number(rest) : null
}

/** The API revision a save builds on, from what the state store passes (`null`: nothing stored). */
function baseOf(ifRevision: string | null | undefined): number | null {
  const queued = baseOfQueued(ifRevision)
  if (queued !== undefined) return queued
  return typeof ifRevision === 'string' && /^\d{1,9}$/.test(ifRevision) ? Number(ifRevision) : null
}

const savedAtOf = (text: string | undefined) => {
  try {
    const t = Date.parse(String((JSON.parse(text ?? 'null') as { savedAt?: unknown } | null)?.savedAt ?? ''))
    return Number.isNaN(t) ? 0 : t
  } catch {
    return 0
  }
}

/** The client parts the driver uses. */
export type SyncClient = Pick<Client, 'fetch' | 'baseUrl' | 'offline' | 'events'>

/**
 * Creates the player's cloud driver over a client.
 *
 * @example
 * const driver = createSyncingCloudDriver(client)
 * const store = createStateStore(driver, { storyId: manifest.id })
 */
/** The player's cloud driver; `idle()` resolves once every save in flight has been sent or queued. */
export interface SyncingCloudDriver extends StateDriver {
  idle(): Promise<void>
}

export function createSyncingCloudDriver(
  client: SyncClient,
  options: { signedIn?: () => boolean } = {},
): SyncingCloudDriver {
  const inFlight = new Set<Promise<unknown>>()
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p)
    const done = () => inFlight.delete(p)
    p.then(done, done)
    return p
  }
  const cloud = createCloudDriver(client)
  const signedIn = options.signedIn ?? (() => true)
  const signedOut = (key: string) =>
    new SpkgError('state/storage-failed', `cloud: signed out, "${key}" is not saved to the account`)
  const pathOf = (key: string) => `/api/progress/${encodeURIComponent(key)}`

  /** The queued saves of `key`, oldest first. */
  const queuedOf = async (key: string) =>
    (await client.offline.pending()).filter((w) => w.method === 'PUT' && w.path === pathOf(key))

  const enqueue = async (key: string, value: string, base: number | null) => {
    await client.offline.enqueue({
      method: 'PUT',
      path: pathOf(key),
      body: JSON.parse(value) as unknown,
      progress: { storyId: key, revision: base },
    })
    return { revision: queuedRevision(base) }
  }

  /** Sends the queue when it holds saves of `key` (online only). */
  const flush = async (key: string) => {
    if ((await queuedOf(key)).length > 0) await client.offline.replay()
  }

  /** Runs `op`, telling whether it failed for want of an answer or of a session. */
  const watch = async <T>(op: () => Promise<T>) => {
    let authEnded = false
    const onAuth = () => {
      authEnded = true
    }
    client.events.addEventListener('auth-required', onAuth)
    try {
      return { ok: true as const, value: await op() }
    } catch (error) {
      return { ok: false as const, error, offline: !client.offline.online, authEnded }
    } finally {
      client.events.removeEventListener('auth-required', onAuth)
    }
  }

  return {
    name: 'cloud',
    async get(key, options): Promise<StoredValue | undefined> {
      if (!signedIn()) throw signedOut(key)
      if (client.offline.online) {
        await flush(key).catch(() => undefined)
        const r = await watch(() => cloud.get(key, options))
        if (r.ok) return r.value
        if (!r.offline) throw r.error
      }
      const last = (await queuedOf(key)).at(-1)
      if (!last) {
        throw new SpkgError(
          'state/storage-failed',
          `cloud: offline, and no progress of "${key}" saved offline`,
        )
      }
      return { value: JSON.stringify(last.body), revision: queuedRevision(last.progress?.revision ?? null) }
    },
    set(key, value, options = {}) {
      return track(save(key, value, options))
    },
    remove: (key, options) => cloud.remove(key, options),
    keys: (options) => cloud.keys(options),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
  }

  async function save(key: string, value: string, options: DriverSetOptions): Promise<{ revision: string }> {
    if (!signedIn()) throw signedOut(key)
    const base = baseOf(options.ifRevision)
    if (!client.offline.online) return enqueue(key, value, base)
    let ifRevision = options.ifRevision
    if (baseOfQueued(ifRevision) !== undefined) {
      // Building on saves made offline: send them, then write over the API's state unless it is later than ours.
      const read = await watch(async () => {
        await flush(key)
        return cloud.get(key, options)
      })
      if (!read.ok) {
        if (read.offline || read.authEnded) return enqueue(key, value, base)
        throw read.error
      }
      const current = read.value
      if (current && savedAtOf(current.value) > savedAtOf(value)) {
        throw new SpkgError('state/conflict', `cloud: "${key}" was saved later on another device`)
      }
      ifRevision = current ? current.revision : null
    }
    const r = await watch(() => cloud.set(key, value, { ...options, ifRevision }))
    if (r.ok) return r.value
    if (r.offline || r.authEnded) return enqueue(key, value, baseOf(ifRevision))
    throw r.error
  }
}
