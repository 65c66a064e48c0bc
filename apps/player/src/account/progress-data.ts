/**
 * Where the list of stories in progress comes from: the account's saved states (`GET /api/progress`), the device's
 * (the IndexedDB database `spkg-player` that src/state/storage.ts saves to), the client's queue of saves made offline,
 * and the catalog, whose canonical manifests name each story's id (fetched once per package version, one at a time,
 * and remembered in `localStorage`, since catalog reads are rate-limited).
 */
import { isApiClientError } from '@spkg/client'
import type { StateDriver } from '@spkg/state'
import { createIndexedDbDriver } from '@spkg/state/drivers/indexeddb'
import type { Account } from './account'
import {
  type CatalogRef,
  catalogRefs,
  type KnownStory,
  keyOfProgressPath,
  type ProgressEntry,
  progressEntries,
  type SavedEntry,
} from './progress-model'

/** `localStorage` item of the package-to-story mapping (`{ [sha256]: { id, slug, title } }`). */
export const ID_CACHE_KEY = 'spkg-player.story-ids'

/** The device's saved states: the database the player's local storage writes. */
export function deviceDriver(): StateDriver {
  return createIndexedDbDriver({ database: 'spkg-player' })
}

type Cached = { id: string; slug: string; title: string }

function readCache(): Record<string, Cached> {
  try {
    const v = JSON.parse(localStorage.getItem(ID_CACHE_KEY) ?? '{}') as unknown
    return v && typeof v === 'object' ? (v as Record<string, Cached>) : {}
  } catch {
    return {}
  }
}

function writeCache(cache: Record<string, Cached>) {
  try {
    localStorage.setItem(ID_CACHE_KEY, JSON.stringify(cache))
  } catch {
    // A full or blocked localStorage only costs a few requests next time.
  }
}

/** Maps the story ids in `keys` to catalog stories; stops looking once every key is found. */
export async function resolveStories(
  account: Account,
  keys: readonly string[],
  signal?: AbortSignal,
): Promise<{ known: Map<string, KnownStory>; catalogRead: boolean }> {
  const known = new Map<string, KnownStory>()
  if (keys.length === 0) return { known, catalogRead: true }
  const wanted = new Set(keys)
  const cache = readCache()
  let refs: CatalogRef[] = []
  try {
    if (!account.client.offline.online) throw new Error('offline')
    refs = catalogRefs(
      await account.client.request('GET', '/catalog/stories', {
        query: { page: 1, limit: 100 },
        anonymous: true,
        retry: 0,
        signal,
      }),
    )
  } catch {
    // Offline: the stories seen before.
    for (const c of Object.values(cache)) {
      if (wanted.has(c?.id)) known.set(c.id, { slug: c.slug, title: c.title })
    }
    return { known, catalogRead: false }
  }
  const note = (ref: CatalogRef, id: string) => {
    if (wanted.has(id)) known.set(id, { slug: ref.slug, title: ref.title })
  }
  const unknown: CatalogRef[] = []
  for (const ref of refs) {
    const id = cache[ref.sha256]?.id
    if (id) note(ref, id)
    else unknown.push(ref)
  }
  for (const ref of unknown) {
    if (known.size === wanted.size) break
    try {
      const manifest = await account.client.request<{ id?: unknown }>(
        'GET',
        `/catalog/stories/${encodeURIComponent(ref.slug)}/versions/${encodeURIComponent(ref.version)}/manifest`,
        { anonymous: true, signal, retry: 0 },
      )
      if (typeof manifest?.id === 'string') {
        cache[ref.sha256] = { id: manifest.id, slug: ref.slug, title: ref.title }
        note(ref, manifest.id)
      }
    } catch (e) {
      // Rate-limited or offline: what was found so far is shown; the rest is looked up next time.
      if (isApiClientError(e) && (e.status === 429 || e.code === 'client/network')) break
    }
  }
  writeCache(cache)
  return { known, catalogRead: true }
}

/** The list of the signed-in reader's stories (the account's) or the device's, with waiting saves. */
export async function loadProgress(
  account: Account,
  signal?: AbortSignal,
): Promise<{ entries: ProgressEntry[]; where: 'account' | 'device'; offline: boolean }> {
  const signedIn = account.state().status === 'signed-in'
  const waiting = signedIn
    ? [
        ...new Set(
          (await account.client.offline.pending())
            .map((w) => (w.method === 'PUT' ? keyOfProgressPath(w.path) : undefined))
            .filter((k): k is string => k !== undefined),
        ),
      ]
    : []
  let saved: SavedEntry[] = []
  let offline = false
  if (signedIn && !account.client.offline.online) offline = true
  else if (signedIn) {
    try {
      const list = await account.client.request<{ items?: { key: string; updatedAt?: string }[] }>(
        'GET',
        '/api/progress',
        { signal, retry: 0 },
      )
      saved = (list.items ?? []).map((i) => ({ key: i.key, ...(i.updatedAt && { savedAt: i.updatedAt }) }))
    } catch (e) {
      if (!(isApiClientError(e) && e.code === 'client/network')) throw e
      offline = true
    }
  } else {
    const driver = deviceDriver()
    for (const key of await driver.keys()) {
      const v = await driver.get(key).catch(() => undefined)
      let savedAt: string | undefined
      try {
        const s = (JSON.parse(v?.value ?? 'null') as { savedAt?: unknown } | null)?.savedAt
        savedAt = typeof s === 'string' ? s : undefined
      } catch {
        savedAt = undefined
      }
      saved.push({ key, ...(savedAt && { savedAt }) })
    }
  }
  const keys = [...new Set([...saved.map((s) => s.key), ...waiting])]
  const { known, catalogRead } = await resolveStories(account, keys, signal)
  return {
    entries: progressEntries({ where: signedIn ? 'account' : 'device', saved, waiting, known, catalogRead }),
    where: signedIn ? 'account' : 'device',
    offline,
  }
}
