/**
 * The in-memory driver: nothing outlives the page or process. It backs `storage: "none"` and tests.
 */
import { conflictError, revisionMatches, throwIfAborted } from '../errors'
import type { StateDriver, StoredValue } from '../types'

/**
 * Creates a driver that keeps values in a `Map` for the life of the object.
 *
 * @example
 * import { createMemoryDriver } from '@spkg/state/drivers/memory'
 * const store = createStateStore(createMemoryDriver())
 */
export function createMemoryDriver(): StateDriver {
  const data = new Map<string, StoredValue>()
  let counter = 0
  return {
    name: 'memory',
    async get(key, options) {
      throwIfAborted(options?.signal)
      const hit = data.get(key)
      return hit && { ...hit }
    },
    async set(key, value, options) {
      throwIfAborted(options?.signal)
      const current = data.get(key)?.revision
      if (!revisionMatches(options?.ifRevision, current)) {
        throw conflictError('memory', key, options?.ifRevision ?? null, current)
      }
      counter += 1
      const revision = String(counter)
      data.set(key, { value, revision })
      return { revision }
    },
    async remove(key, options) {
      throwIfAborted(options?.signal)
      data.delete(key)
    },
    async keys(options) {
      throwIfAborted(options?.signal)
      return [...data.keys()]
    },
  }
}
