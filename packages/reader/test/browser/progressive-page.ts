/**
 * Browser side of progressive.browser.test.ts, one function per step of its scenario: a
 * progressive open played into its second part; an `offline: true` package kept in Cache Storage
 * and played with the network gone; its delta update; the new version played offline.
 */
import { createCacheStorageDriver } from '../../src/cache/cache-storage-driver'
import {
  createPackageCache,
  isProgressivePackage,
  openCachedPackage,
  openPackageUrl,
  updatePackage,
} from '../../src/index'

/** Opens `url` progressively, reads the entry part, then the second part as the engine does. */
async function runProgressive(url: string) {
  const r = await openPackageUrl(url)
  if (!r.ok) return { ok: false, codes: r.diagnostics.map((d) => `${d.code} ${d.message}`) }
  const pkg = r.package
  if (!isProgressivePackage(pkg)) return { ok: true, progressive: false }
  const events: string[] = []
  pkg.onPartLoad((e) => events.push(`${e.type} ${e.part}`))
  const atOpen = [...pkg.loadedParts].sort()
  const source = pkg.storySource()
  const entry = (await source.readPart(pkg.entry))?.split('\n')[0]
  const second = (await source.readPart(pkg.parts[1]!))?.split('\n')[0]
  pkg.close()
  return { ok: true, progressive: true, atOpen, entry, second, events }
}

const cache = createPackageCache(createCacheStorageDriver('progressive-offline'))

/** Opens an `offline: true` package progressively with the cache; resolves when it is kept. */
async function keepOffline(url: string) {
  const r = await openPackageUrl(url, { cache })
  if (!r.ok) return { ok: false, codes: r.diagnostics.map((d) => `${d.code} ${d.message}`) }
  const pkg = r.package
  if (!isProgressivePackage(pkg)) return { ok: true, progressive: false }
  const atOpen = [...pkg.loadedParts].sort()
  const entry = (await pkg.storySource().readPart(pkg.entry))?.split('\n')[0]
  const saved = await pkg.offlineReady
  pkg.close()
  return { ok: true, progressive: true, atOpen, entry, saved: saved?.ref, files: saved?.files.length }
}

/** Whether the network answers, and the first line of every part of a cached version. */
async function playCached(id: string, version: string, probe: string) {
  let online = true
  try {
    await fetch(probe)
  } catch {
    online = false
  }
  const r = await openCachedPackage(cache, { id, version })
  if (!r.ok) return { online, ok: false, codes: r.diagnostics.map((d) => d.code) }
  const source = r.package.storySource()
  const lines: string[] = []
  for (const part of r.package.parts) lines.push((await source.readPart(part))?.split('\n')[0] ?? '')
  r.package.close()
  return { online, ok: true, lines }
}

/** A delta update of the cached package from `url`. */
async function update(id: string, url: string) {
  const r = await updatePackage({ cache, id }, url)
  if (!r.ok) return { ok: false, codes: r.diagnostics.map((d) => `${d.code} ${d.message}`) }
  return {
    ok: true,
    mode: r.mode,
    to: r.to,
    downloaded: [...r.downloaded].sort(),
    bytesFetched: r.bytesFetched,
    archiveBytes: r.archiveBytes,
    versions: await cache.versions(id),
  }
}

Object.assign(globalThis, { runProgressive, keepOffline, playCached, update })
