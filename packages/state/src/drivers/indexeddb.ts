/**
 * The IndexedDB driver: one object store of `{ key, value, revision }` records. A save reads the
 * current revision and writes the new record inside one `readwrite` transaction, so the
 * compare-and-set is atomic and a save interrupted midway (tab closed, quota) rolls back whole.
 */
import { conflictError, revisionMatches, storageError, throwIfAborted } from '../errors'
import { newRevision } from '../revision'
import type { StateDriver, StoredValue } from '../types'

/** Options of {@link createIndexedDbDriver}. */
export interface IndexedDbDriverOptions {
  /** Database name. @default 'spkg-state' */
  database?: string
  /** The IndexedDB factory. @default globalThis.indexedDB */
  indexedDB?: IDBFactory
}

interface StateRecord extends StoredValue {
  key: string
}

const STORE = 'states'

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'))
    tx.onerror = () => reject(tx.error)
  })
}

/**
 * Creates a driver over IndexedDB; the database opens on first use.
 *
 * @throws SpkgError `state/storage-failed` from each operation when IndexedDB is missing or refuses it
 * @example
 * import { createIndexedDbDriver } from '@spkg/state/drivers/indexeddb'
 * const store = createStateStore(createIndexedDbDriver({ database: 'my-player' }))
 */
export function createIndexedDbDriver(options: IndexedDbDriverOptions = {}): StateDriver {
  const name = options.database ?? 'spkg-state'
  let opening: Promise<IDBDatabase> | undefined
  const open = (): Promise<IDBDatabase> => {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB
      if (!factory) throw new Error('IndexedDB is not available')
      const req = factory.open(name, 1)
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'key' })
      req.onsuccess = () => {
        // Let a newer version of the page upgrade the database instead of blocking it.
        req.result.onversionchange = () => req.result.close()
        resolve(req.result)
      }
      req.onerror = () => reject(req.error)
      req.onblocked = () => reject(new Error('IndexedDB upgrade blocked by another tab'))
    }).catch((cause: unknown) => {
      opening = undefined
      throw cause
    })
    return opening
  }
  const run = async <T>(action: string, key: string | undefined, fn: (db: IDBDatabase) => Promise<T>) => {
    try {
      return await fn(await open())
    } catch (cause) {
      throw storageError('indexeddb', action, key, cause)
    }
  }
  return {
    name: 'indexeddb',
    async get(key, opts) {
      throwIfAborted(opts?.signal)
      return run('read', key, async (db) => {
        const rec = (await request(db.transaction(STORE, 'readonly').objectStore(STORE).get(key))) as
          | StateRecord
          | undefined
        return rec && { value: rec.value, revision: rec.revision }
      })
    },
    async set(key, value, opts) {
      throwIfAborted(opts?.signal)
      return run('write', key, async (db) => {
        const tx = db.transaction(STORE, 'readwrite')
        const finished = done(tx)
        const store = tx.objectStore(STORE)
        const current = ((await request(store.get(key))) as StateRecord | undefined)?.revision
        if (!revisionMatches(opts?.ifRevision, current)) {
          tx.abort()
          await finished.catch(() => undefined)
          throw conflictError('indexeddb', key, opts?.ifRevision ?? null, current)
        }
        const revision = newRevision()
        store.put({ key, value, revision } satisfies StateRecord)
        await finished
        return { revision }
      })
    },
    async remove(key, opts) {
      throwIfAborted(opts?.signal)
      await run('remove', key, async (db) => {
        const tx = db.transaction(STORE, 'readwrite')
        tx.objectStore(STORE).delete(key)
        await done(tx)
      })
    },
    async keys(opts) {
      throwIfAborted(opts?.signal)
      return run('list keys', undefined, async (db) => {
        const keys = await request(db.transaction(STORE, 'readonly').objectStore(STORE).getAllKeys())
        return keys.map(String)
      })
    },
  }
}
