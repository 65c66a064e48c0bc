/**
 * Where a story's reading state is kept: `none` when the manifest says so, the account (`cloud`) when the reader is
 * signed in (ACCOUNT's `cloudDriver()`), else this device (IndexedDB through @spkg/state).
 */
import type { ReadingState } from '@spkg/manifest'
import { createStateStore, type StateDriver, type StateStore, selectStateDriver } from '@spkg/state'

/** The storage a story's state goes to. */
export type StorageChoice = 'none' | 'local' | 'cloud'

/** Pure choice: manifest `storage` and whether a cloud driver is available (signed in). */
export function chooseStorage(manifestStorage: string | undefined, cloudAvailable: boolean): StorageChoice {
  if (manifestStorage === 'none') return 'none'
  return cloudAvailable ? 'cloud' : 'local'
}

/** The key a story's state is stored under: the story id (manifest `id`; a flat story's entry file name). */
export function stateKey(storyId: string): string {
  return storyId
}

/**
 * Saves states one at a time, in order, and only the newest one when saves pile up (a reader clicking fast never
 * queues a backlog). A conflict (another device saved meanwhile) is resolved in favour of this device's newer
 * progress: the reader is reading here, now.
 */
export interface StateKeeper {
  readonly mode: StorageChoice
  /** The saved state, if any (undefined for `none`). */
  load(): Promise<ReadingState | undefined>
  /** Saves (queued behind a save in flight; only the newest waiting state is written). */
  save(state: ReadingState): Promise<void>
  /** Forgets the saved state (start again). */
  clear(): Promise<void>
  /** Resolves when no save is in flight or waiting. */
  idle(): Promise<void>
  /** Number of states written so far (tests, diagnostics). */
  readonly writes: number
  /** The last save error's message, if the last save failed. */
  readonly lastError: string | undefined
}

export interface KeeperOptions {
  storyId: string
  version?: string
  manifestStorage?: string
  /** The account's cloud driver when signed in. */
  cloud?: StateDriver | null
  /** Replaces the device driver (tests). */
  local?: StateDriver
}

/** Makes the keeper of one story's state. */
export function createStateKeeper(options: KeeperOptions): StateKeeper {
  const mode = chooseStorage(options.manifestStorage, !!options.cloud)
  const key = stateKey(options.storyId)
  let store: StateStore | undefined
  if (mode !== 'none') {
    const { driver } = selectStateDriver(mode, {
      ...(options.cloud ? { cloud: options.cloud } : {}),
      ...(options.local ? { local: options.local } : {}),
      database: 'spkg-player',
    })
    store = createStateStore(driver, {
      storyId: options.storyId,
      ...(options.version ? { version: options.version } : {}),
    })
  }
  let pending: ReadingState | undefined
  let running: Promise<void> | undefined
  let writes = 0
  let lastError: string | undefined

  async function write(state: ReadingState): Promise<void> {
    if (!store) return
    try {
      await store.save(key, state)
    } catch (e) {
      if ((e as { code?: string }).code !== 'state/conflict') throw e
      await store.save(key, state, { force: true })
    }
    writes++
  }

  async function drain(): Promise<void> {
    while (pending) {
      const next = pending
      pending = undefined
      try {
        await write(next)
        lastError = undefined
      } catch (e) {
        lastError = e instanceof Error ? e.message : String(e)
        console.warn('saving the reading state failed', e)
      }
    }
    running = undefined
  }

  return {
    mode,
    get writes() {
      return writes
    },
    get lastError() {
      return lastError
    },
    async load() {
      if (!store) return undefined
      const r = await store.load(key)
      return r.state
    },
    save(state) {
      if (!store) return Promise.resolve()
      pending = state
      running ??= drain()
      return running
    },
    async clear() {
      pending = undefined
      await running
      await store?.remove(key).catch((e) => console.warn('removing the reading state failed', e))
    },
    async idle() {
      await running
    },
  }
}
