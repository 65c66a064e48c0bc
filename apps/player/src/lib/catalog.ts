/**
 * The public catalog from the API of the same origin. `@spkg/client`'s typed `catalog.stories` validates against the
 * base catalog schema, which drops the package fields (metadata, package, cover) the home page needs, and would load
 * zod; the player reads `/catalog/stories` with `fetch` and checks each record by hand (catalog-model.ts).
 */
import { type CatalogStory, toCatalogStory } from './catalog-model'
import { API_BASE } from './config'

function apiUrl(path: string): string {
  return `${API_BASE}${path}`
}

async function getJson(path: string, signal?: AbortSignal): Promise<unknown> {
  let lastError: unknown
  for (const wait of [0, 1000, 2000]) {
    if (wait) await new Promise((r) => setTimeout(r, wait))
    try {
      const res = await fetch(apiUrl(path), {
        headers: { accept: 'application/json' },
        signal: signal ?? null,
      })
      if (res.ok) return await res.json()
      if (res.status === 429) {
        const wait = res.headers.get('retry-after')
        throw Object.assign(
          new Error(`Too many requests just now (429): try again in ${wait ? `${wait} s` : 'a moment'}.`),
          { code: 'player/catalog-failed' },
        )
      }
      if (![408, 502, 503, 504].includes(res.status)) {
        throw Object.assign(new Error(`The catalog answered ${res.status}.`), {
          code: 'player/catalog-failed',
        })
      }
      lastError = new Error(`The catalog answered ${res.status}.`)
    } catch (e) {
      if (signal?.aborted || (e as { code?: string }).code) throw e
      lastError = e
    }
  }
  throw Object.assign(new Error(`The catalog could not be reached (${String(lastError)}).`), {
    code: 'player/catalog-failed',
  })
}

/** Every published story (pages of 100, at most 1,000). */
export async function fetchCatalog(signal?: AbortSignal): Promise<CatalogStory[]> {
  const out: CatalogStory[] = []
  for (let page = 1; page <= 10; page++) {
    const body = (await getJson(`/catalog/stories?page=${page}&limit=100`, signal)) as {
      items?: unknown[]
      total?: number
    }
    const items = Array.isArray(body?.items) ? body.items : []
    for (const raw of items) {
      const s = toCatalogStory(raw)
      if (s) out.push(s)
    }
    if (items.length < 100 || (typeof body.total === 'number' && page * 100 >= body.total)) break
  }
  return out
}

/** One published story by slug. */
export async function fetchCatalogStory(slug: string, signal?: AbortSignal): Promise<CatalogStory> {
  const s = toCatalogStory(await getJson(`/catalog/stories/${encodeURIComponent(slug)}`, signal))
  if (!s)
    throw Object.assign(new Error(`The catalog has no story "${slug}".`), { code: 'player/catalog-failed' })
  return s
}

/**
 * The address the package is read from. The API names its files by its configured public address; when that is
 * a loopback address other than the page's (a dev server proxying the API), the page's own origin is used.
 */
export function packageUrlOf(story: CatalogStory, origin: string = location.origin): string | undefined {
  if (!story.packageUrl) return undefined
  try {
    const u = new URL(story.packageUrl, origin)
    const loopback = /^(127\.0\.0\.1|localhost|\[::1\])$/
    if (u.origin !== origin && loopback.test(u.hostname) && loopback.test(new URL(origin).hostname))
      return new URL(u.pathname + u.search, origin).href
    return u.href
  } catch {
    return undefined
  }
}
