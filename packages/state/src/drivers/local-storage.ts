/**
 * The `localStorage` driver. Each key is one item holding `<revision>\n<value>`: `setItem` either
 * stores the whole string or throws (quota) and leaves the old item, so an interrupted save never
 * leaves a half-written state, and value and revision can never disagree. No pointer switch is
 * needed because a single item is already the unit of atomicity.
 */
import { conflictError, revisionMatches, storageError, throwIfAborted } from '../errors'
import { newRevision } from '../revision'
import type { StateDriver, StoredValue } from '../types'

/** Options of {@link createLocalStorageDriver}. */
export interface LocalStorageDriverOptions {
  /** The storage object. @default globalThis.localStorage */
  storage?: Storage
  /** Item-name prefix that keeps these items apart from the page's own. @default 'spkg-state:' */
  prefix?: string
}

/**
 * Creates a driver over `localStorage` (or any Web `Storage`, such as `sessionStorage`).
 *
 * @throws SpkgError `state/storage-failed` from each operation when the storage is missing or refuses it
 * @example
 * import { createLocalStorageDriver } from '@spkg/state/drivers/local-storage'
 * const store = createStateStore(createLocalStorageDriver())
 */
export function createLocalStorageDriver(options: LocalStorageDriverOptions = {}): StateDriver {
  const prefix = options.prefix ?? 'spkg-state:'
  const storage = (): Storage => {
    const s = options.storage ?? (globalThis as { localStorage?: Storage }).localStorage
    if (!s) throw new Error('localStorage is not available')
    return s
  }
  const read = (key: string): StoredValue | undefined => {
    const raw = storage().getItem(prefix + key)
    if (raw === null) return undefined
    const cut = raw.indexOf('\n')
    // An item without the revision line was not written by this driver; treat its text as the value.
    if (cut < 0) return { value: raw, revision: '' }
    return { value: raw.slice(cut + 1), revision: raw.slice(0, cut) }
  }
  return {
    name: 'local-storage',
    async get(key, opts) {
      throwIfAborted(opts?.signal)
      try {
        return read(key)
      } catch (cause) {
        throw storageError('local-storage', 'read', key, cause)
      }
    },
    async set(key, value, opts) {
      throwIfAborted(opts?.signal)
      let current: string | undefined
      try {
        current = read(key)?.revision
      } catch (cause) {
        throw storageError('local-storage', 'read', key, cause)
      }
      if (!revisionMatches(opts?.ifRevision, current)) {
        throw conflictError('local-storage', key, opts?.ifRevision ?? null, current)
      }
      const revision = newRevision()
      try {
        storage().setItem(prefix + key, `${revision}\n${value}`)
      } catch (cause) {
        throw storageError('local-storage', 'write', key, cause)
      }
      return { revision }
    },
    async remove(key, opts) {
      throwIfAborted(opts?.signal)
      try {
        storage().removeItem(prefix + key)
      } catch (cause) {
        throw storageError('local-storage', 'remove', key, cause)
      }
    },
    async keys(opts) {
      throwIfAborted(opts?.signal)
      try {
        const s = storage()
        const out: string[] = []
        for (let i = 0; i < s.length; i++) {
          const name = s.key(i)
          if (name?.startsWith(prefix)) out.push(name.slice(prefix.length))
        }
        return out
      } catch (cause) {
        throw storageError('local-storage', 'list keys', undefined, cause)
      }
    },
  }
}
