/** The in-memory cache driver: nothing outlives the process or page. For tests and `storage: none`. */
import type { CacheDriver } from './types'

/**
 * Creates a driver that keeps records in a `Map` (copies in and out, so callers cannot change
 * what is stored).
 *
 * @example
 * const cache = createPackageCache(createMemoryCacheDriver())
 */
export function createMemoryCacheDriver(): CacheDriver {
  const data = new Map<string, Uint8Array>()
  return {
    async read(key) {
      const hit = data.get(key)
      return hit?.slice()
    },
    async write(key, bytes) {
      data.set(key, bytes.slice())
    },
    async remove(key) {
      data.delete(key)
    },
    async list(prefix) {
      return [...data.keys()].filter((k) => k.startsWith(prefix))
    },
  }
}
