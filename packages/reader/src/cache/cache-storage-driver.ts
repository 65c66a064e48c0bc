/**
 * The browser cache driver on Cache Storage (`caches.open(name)`): one response per record under
 * a fixed synthetic URL (`https://spkg.invalid/<key>`), so records never collide with the page's
 * own requests. Chosen over OPFS because Cache Storage is in every current browser, in pages and
 * workers alike, with atomic `put` (the new record replaces the old only once its body is whole);
 * OPFS writes from a page (`createWritable`) came late to Safari, and its sync handles are
 * worker-only. The browser may evict the cache under storage pressure unless the host asks for
 * `navigator.storage.persist()`; an evicted record is simply absent, never wrong.
 */
import type { CacheDriver } from './types'

const BASE = 'https://spkg.invalid/'

/**
 * Creates a driver storing records in the Cache Storage cache `name`.
 *
 * @example
 * const cache = createPackageCache(createCacheStorageDriver('spkg-packages'))
 */
export function createCacheStorageDriver(name = 'spkg-packages'): CacheDriver {
  let opened: Promise<Cache> | undefined
  const store = () => {
    if (typeof caches === 'undefined')
      throw new Error('Cache Storage is not available (not a secure context?)')
    opened ??= caches.open(name)
    return opened
  }
  return {
    async read(key) {
      const hit = await (await store()).match(BASE + key)
      return hit ? new Uint8Array(await hit.arrayBuffer()) : undefined
    },
    async write(key, bytes) {
      await (await store()).put(
        BASE + key,
        new Response(bytes.slice(), { headers: { 'content-type': 'application/octet-stream' } }),
      )
    },
    async remove(key) {
      await (await store()).delete(BASE + key)
    },
    async list(prefix) {
      const out: string[] = []
      for (const request of await (await store()).keys()) {
        const key = request.url.slice(BASE.length)
        if (request.url.startsWith(BASE) && key.startsWith(prefix)) out.push(key)
      }
      return out
    },
  }
}
