/**
 * Online/offline tracking and the durable queue of writes made while offline, replayed in order when the
 * connection returns.
 *
 * Conflict rule for a queued reading-state save refused with 412 (the state changed on the server since the
 * revision the save was based on): the client reads the server's state; if the server's `savedAt` is later than the
 * queued state's, the server's state stays and the queued save is reported in a `conflict` event (`detail.queued`
 * holds it: nothing is lost silently); otherwise the queued state, the later one, is written over the server's
 * current revision. Any other refusal (4xx) also leaves the queue with a `conflict` event; no answer (status 0)
 * stops the replay, which resumes on the next reconnection.
 *
 * Tabs: in a browser the replay runs under the Web Lock `spkg-client-queue`, so two tabs never replay one queue
 * twice.
 */
import type { StateDriver } from '@spkg/state'
import { createMemoryDriver } from '@spkg/state/drivers/memory'
import { ApiClientError } from './errors'
import { emit } from './events'
import type { RawAnswer, RequestOptions } from './request-types'

/** A write waiting for the connection. */
export interface QueuedWrite {
  /** Order of the write; replay goes by it. */
  seq: number
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  body?: unknown
  headers?: Record<string, string>
  /** A reading-state save: the key, and the revision it was based on (`null`: a first save). */
  progress?: { storyId: string; revision: number | null | undefined }
}

/** What a replay did. */
export interface ReplayReport {
  /** Writes the server took. */
  sent: number
  /** Writes left in the queue (the connection failed again). */
  pending: number
  /** Writes not applied and reported in `conflict` events. */
  conflicts: QueuedWrite[]
}

/** Online state and the durable write queue of a client (`client.offline`). */
export interface OfflineQueue {
  /** Whether the client thinks it is online. */
  readonly online: boolean
  /** Stores a write for the next replay. */
  enqueue(write: Omit<QueuedWrite, 'seq'>): Promise<QueuedWrite>
  /** The queued writes in order. */
  pending(): Promise<QueuedWrite[]>
  /** Sends the queued writes in order (see the module note for conflicts). */
  replay(): Promise<ReplayReport>
  /** @internal called by the client when a request got no answer */
  noteNetworkFailure(): void
  /** @internal called by the client when a request got an answer */
  noteAnswer(): void
  close(): void
}

const PREFIX = 'spkg-queue/'
const keyOf = (seq: number) => `${PREFIX}${String(seq).padStart(12, '0')}`

interface Deps {
  storage: StateDriver | undefined
  events: EventTarget
  connectivity: {
    addEventListener(type: 'online' | 'offline', l: () => void): void
    removeEventListener(type: 'online' | 'offline', l: () => void): void
    readonly navigator?: { readonly onLine?: boolean }
  } | null
  send(method: string, path: string, options?: RequestOptions): Promise<RawAnswer>
}

type Locks = {
  request(
    name: string,
    o: { ifAvailable: boolean },
    cb: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>
}

const savedAtOf = (state: unknown) => {
  const t = Date.parse(String((state as { savedAt?: unknown } | undefined)?.savedAt ?? ''))
  return Number.isNaN(t) ? 0 : t
}

export function createOfflineQueue(deps: Deps): OfflineQueue {
  const storage = deps.storage ?? createMemoryDriver()
  let online = deps.connectivity?.navigator?.onLine ?? true
  let replaying: Promise<ReplayReport> | undefined

  const goOffline = () => {
    if (!online) return
    online = false
    emit(deps.events, 'offline', { status: 0, method: '', path: '' })
  }
  const goOnline = () => {
    if (online) return
    online = true
    emit(deps.events, 'reconnected', { status: 0, method: '', path: '' })
    void queue.replay().catch(() => undefined)
  }
  deps.connectivity?.addEventListener('offline', goOffline)
  deps.connectivity?.addEventListener('online', goOnline)

  async function pending(): Promise<QueuedWrite[]> {
    const keys = (await storage.keys()).filter((k) => k.startsWith(PREFIX)).sort()
    const writes: QueuedWrite[] = []
    for (const k of keys) {
      const v = await storage.get(k)
      if (v) writes.push(JSON.parse(v.value) as QueuedWrite)
    }
    return writes
  }

  const etagRevision = (h: Headers) => {
    const m = /^(?:W\/)?"?(\d+)"?$/.exec(h.get('etag')?.trim() ?? '')
    return m ? Number(m[1]) : undefined
  }

  /** Sends one write; true when it leaves the queue, `'stop'` when there was no answer. */
  async function sendOne(w: QueuedWrite, report: ReplayReport): Promise<'done' | 'stop'> {
    const headers = { ...w.headers }
    if (w.progress) {
      delete headers['if-match']
      delete headers['if-none-match']
      if (w.progress.revision === null) headers['if-none-match'] = '*'
      else if (w.progress.revision !== undefined) headers['if-match'] = `"${w.progress.revision}"`
    }
    try {
      await deps.send(w.method, w.path, { body: w.body, headers })
      report.sent++
      return 'done'
    } catch (error) {
      if (!(error instanceof ApiClientError)) throw error
      if (error.code === 'client/network') return 'stop'
      if (error.status === 412 && w.progress && w.method === 'PUT') {
        const merged = await mergeProgress(w)
        if (merged === 'stop') return 'stop'
        if (merged) {
          report.sent++
          return 'done'
        }
      }
      report.conflicts.push(w)
      emit(deps.events, 'conflict', {
        status: error.status,
        method: w.method,
        path: w.path,
        ...(error.body?.code && { code: error.body.code }),
        message: error.body?.message ?? error.message,
        queued: w,
      })
      return 'done'
    }
  }

  /** The 412 rule: the later `savedAt` wins. True when the queued state was written. */
  async function mergeProgress(w: QueuedWrite): Promise<boolean | 'stop'> {
    try {
      let current: RawAnswer | undefined
      try {
        current = await deps.send('GET', w.path, { retry: 0 })
      } catch (e) {
        if (!(e instanceof ApiClientError) || e.status !== 404) throw e
      }
      if (current && savedAtOf(current.body) > savedAtOf(w.body)) return false
      const revision = current ? etagRevision(current.headers) : undefined
      const headers: Record<string, string> =
        revision === undefined ? { 'if-none-match': '*' } : { 'if-match': `"${revision}"` }
      await deps.send('PUT', w.path, { body: w.body, headers })
      return true
    } catch (e) {
      if (e instanceof ApiClientError && e.code === 'client/network') return 'stop'
      return false
    }
  }

  async function runReplay(): Promise<ReplayReport> {
    const report: ReplayReport = { sent: 0, pending: 0, conflicts: [] }
    const writes = await pending()
    for (let i = 0; i < writes.length; i++) {
      const w = writes[i] as QueuedWrite
      if ((await sendOne(w, report)) === 'stop') {
        report.pending = writes.length - i
        goOffline()
        return report
      }
      await storage.remove(keyOf(w.seq))
    }
    return report
  }

  const queue: OfflineQueue = {
    get online() {
      return online
    },
    async enqueue(write) {
      const keys = (await storage.keys()).filter((k) => k.startsWith(PREFIX)).sort()
      const last = keys.at(-1)
      const seq = last ? Number(last.slice(PREFIX.length)) + 1 : 1
      const queued: QueuedWrite = { ...write, seq }
      // Compare-and-set on a new key: two writers (tabs) never take the same number.
      await storage.set(keyOf(seq), JSON.stringify(queued), { ifRevision: null })
      return queued
    },
    pending,
    replay() {
      if (replaying) return replaying
      const locks = (globalThis as { navigator?: { locks?: Locks } }).navigator?.locks
      const run = locks
        ? (locks.request('spkg-client-queue', { ifAvailable: true }, async (lock) =>
            lock ? runReplay() : { sent: 0, pending: (await pending()).length, conflicts: [] },
          ) as Promise<ReplayReport>)
        : runReplay()
      replaying = run.finally(() => {
        replaying = undefined
      })
      return replaying
    },
    noteNetworkFailure: goOffline,
    noteAnswer() {
      if (!online && !replaying) goOnline()
    },
    close() {
      deps.connectivity?.removeEventListener('offline', goOffline)
      deps.connectivity?.removeEventListener('online', goOnline)
    },
  }
  return queue
}
