/**
 * Browser side of cache.browser.test.ts: the cache contract on Cache Storage, and an offline
 * package kept in Cache Storage then opened with the network gone.
 */
import { createCacheStorageDriver } from '../../src/cache/cache-storage-driver'
import { createPackageCache, openCachedPackage, openPackage, savePackageOffline } from '../../src/index'
import { CACHE_CASES } from '../helpers/cache-contract'

async function runCacheContract() {
  const results: Array<{ name: string; error?: string }> = []
  let n = 0
  for (const c of CACHE_CASES) {
    const name = `contract-${n++}`
    await caches.delete(name)
    try {
      await c.run(createCacheStorageDriver(name))
      results.push({ name: c.name })
    } catch (e) {
      results.push({ name: c.name, error: String((e as Error)?.stack ?? e) })
    }
  }
  return results
}

const cache = createPackageCache(createCacheStorageDriver('offline-test'))

async function saveOffline(url: string) {
  const opened = await openPackage(new Uint8Array(await (await fetch(url)).arrayBuffer()))
  if (!opened.ok) return { ok: false, codes: opened.diagnostics.map((d) => d.code) }
  const saved = await savePackageOffline(cache, opened.package)
  return { ok: true, ref: saved.ref, files: saved.files.length }
}

async function playOffline(id: string, version: string) {
  let online = true
  try {
    await fetch('/the-inn.spkg')
  } catch {
    online = false
  }
  const opened = await openCachedPackage(cache, { id, version })
  if (!opened.ok) return { online, ok: false, codes: opened.diagnostics.map((d) => d.code) }
  return { online, ok: true, text: await opened.package.readText(opened.package.entry) }
}

Object.assign(globalThis, { runCacheContract, saveOffline, playOffline })
