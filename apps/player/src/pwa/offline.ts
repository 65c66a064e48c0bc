/**
 * Stories kept for offline play (docs/offline.md). The service worker keeps the app shell and the catalog; the
 * package bytes are kept by the reader's own offline cache (`@spkg/reader`: `createPackageCache` over
 * `createCacheStorageDriver`), every file checked against the manifest's `integrity` on the way in and every
 * check of a normal open on the way out (`openCachedPackage`).
 *
 * {@link openPackageUrlOffline} is what the player calls instead of `openPackageUrl`: online it opens the URL as
 * usual (an `offline: true` package is then kept by the reader itself, `pkg.offlineReady`) and keeps ANY package
 * that has an `id` and a `version` in the background, so a story opened once stays playable offline; with the
 * network gone (or the download failing) it opens the copy kept for that URL.
 */
import {
  createCacheStorageDriver,
  createPackageCache,
  type OpenResult,
  type OpenUrlOptions,
  openCachedPackage,
  openPackageUrl,
  type PackageCache,
  type PackageRef,
  type SavedPackage,
  type SpkgPackage,
  savePackageOffline,
} from '@spkg/reader'
import { PACKAGE_CACHE_NAME } from './constants'

const INDEX_KEY = 'spkg.offline.packages'

/** How a package was opened by {@link openPackageUrlOffline}. */
export type OfflineOpenResult = OpenResult & {
  /** True when the package came from the offline copy (no network). */
  fromCache?: boolean
}

/** One package kept for offline play, by the address it was opened from. */
export interface KeptPackage {
  url: string
  ref: PackageRef
  /** Bytes of its files (uncompressed). */
  bytes: number
  /** When it was kept (ms since the epoch). */
  savedAt: number
}

let cache: PackageCache | null | undefined

/** The reader's offline cache over Cache Storage; null where Cache Storage is missing (not a secure context). */
export function offlinePackageCache(): PackageCache | null {
  if (cache === undefined)
    cache =
      typeof caches === 'undefined' ? null : createPackageCache(createCacheStorageDriver(PACKAGE_CACHE_NAME))
  return cache
}

function readIndex(): Record<string, KeptPackage> {
  try {
    const raw = localStorage.getItem(INDEX_KEY)
    const parsed = raw ? (JSON.parse(raw) as unknown) : {}
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, KeptPackage>) : {}
  } catch {
    return {}
  }
}

function writeIndex(index: Record<string, KeptPackage>): void {
  try {
    localStorage.setItem(INDEX_KEY, JSON.stringify(index))
  } catch {
    // Storage full or refused: the package stays in the cache, only the address is forgotten.
  }
}

/** The offline copy kept for `url`, if any. */
export function keptPackage(url: string): KeptPackage | undefined {
  return readIndex()[url]
}

/** Every package kept for offline play. */
export function keptPackages(): KeptPackage[] {
  return Object.values(readIndex())
}

const saving = new Map<string, Promise<SavedPackage | undefined>>()

/**
 * Keeps an opened package for offline play under the address it came from (in the background: call it and go
 * on). A package without `id` and `version` in its manifest (a flat archive) cannot be kept: resolves undefined.
 * Asks the browser once to keep the storage from eviction (`navigator.storage.persist()`).
 */
export function keepPackageOffline(url: string, pkg: SpkgPackage): Promise<SavedPackage | undefined> {
  const store = offlinePackageCache()
  const id = pkg.manifest?.id
  const version = pkg.manifest?.version
  if (!store || typeof id !== 'string' || typeof version !== 'string') return Promise.resolve(undefined)
  const key = `${url}\n${id}\n${version}`
  const running = saving.get(key)
  if (running) return running
  const ready = (pkg as { offlineReady?: Promise<SavedPackage | undefined> }).offlineReady
  const done = (async () => {
    const kept = readIndex()[url]
    if (kept && kept.ref.id === id && kept.ref.version === version) {
      const v = (await store.versions(id)).find((x) => x.version === version)
      if (v?.complete) return undefined
    }
    const saved = (await ready) ?? (await savePackageOffline(store, pkg))
    writeIndex({ ...readIndex(), [url]: { url, ref: saved.ref, bytes: saved.bytes, savedAt: Date.now() } })
    // The copy of an older version at this address is no longer needed (files it shares stay).
    const stillUsed = keptPackages().some(
      (k) => k.ref.id === kept?.ref.id && k.ref.version === kept?.ref.version,
    )
    if (kept && (kept.ref.id !== id || kept.ref.version !== version) && !stillUsed)
      await store.removeVersion(kept.ref).catch(() => undefined)
    void navigator.storage?.persist?.().catch(() => false)
    return saved
  })()
  saving.set(key, done)
  return done.finally(() => saving.delete(key))
}

/** Whether an open failed for want of a network (so the offline copy may stand in). */
function networkFailure(result: OpenResult): boolean {
  return !result.ok && result.diagnostics.some((d) => d.code === 'pkg/fetch-failed')
}

/**
 * Opens a package URL, online when possible (and keeps it for offline play), else from its offline copy. Never
 * rejects on bad input (only when `options.signal` aborts). A refused package (bad signature, hostile archive) is
 * never replaced by an old copy: only a failed download is.
 *
 * @example
 * const result = await openPackageUrlOffline(url, { wasm: false })
 * if (result.ok && result.fromCache) showNotice('Opened from the copy kept on this device')
 */
export async function openPackageUrlOffline(
  url: string,
  options: OpenUrlOptions = {},
): Promise<OfflineOpenResult> {
  const store = offlinePackageCache()
  const kept = store ? keptPackage(url) : undefined
  const fromCache = async (): Promise<OfflineOpenResult | undefined> => {
    if (!store || !kept) return undefined
    const r = await openCachedPackage(store, kept.ref, options)
    return r.ok ? { ...r, fromCache: true } : undefined
  }
  // Known offline: no request (the reader would retry for seconds before failing).
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    const cached = await fromCache()
    if (cached) return cached
  }
  const online = await openPackageUrl(url, store ? { ...options, cache: store } : options)
  if (online.ok) {
    keepPackageOffline(url, online.package).catch((e: unknown) =>
      console.warn('spkg player: the story could not be kept for offline play', e),
    )
    return online
  }
  if (networkFailure(online)) return (await fromCache()) ?? online
  return online
}
