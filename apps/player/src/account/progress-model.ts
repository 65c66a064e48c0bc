/**
 * The list of stories in progress (`#/progress`), pure: the saved states (the account's, or the device's), the saves
 * still waiting for the connection, and which catalog story each state belongs to. States are keyed by the story id
 * (the manifest `id`, src/state/storage.ts); the catalog names stories by slug, and a version's canonical manifest
 * gives its id, so the player maps ids to slugs through the catalog and remembers the mapping.
 */

/** A saved state as a source lists it. */
export interface SavedEntry {
  key: string
  /** When it was saved (ISO 8601), when known. */
  savedAt?: string
}

/** A catalog story the list can link to. */
export interface KnownStory {
  slug: string
  title: string
}

/** One line of the list. */
export interface ProgressEntry {
  key: string
  /** The story's title, or a plain description when the catalog does not have it. */
  title: string
  where: 'account' | 'device'
  savedAt?: string
  /** Saves made offline are still waiting to be sent. */
  waiting: boolean
  /** The route that resumes the story (`#/story/<slug>/play`); undefined when it cannot be opened from here. */
  resume?: string
}

/**
 * The entries, newest first: every saved key (and every key with waiting saves), named through `known`.
 *
 * @example
 * progressEntries({ where: 'account', saved: [{ key: 'id-1', savedAt: '2026-11-27T01:00:00Z' }], waiting: [],
 *   known: new Map([['id-1', { slug: 'tide-bell', title: 'The Tide Bell' }]]) })
 * // [{ key: 'id-1', title: 'The Tide Bell', where: 'account', savedAt: '…', waiting: false,
 * //    resume: '#/story/tide-bell/play' }]
 */
export function progressEntries(input: {
  where: 'account' | 'device'
  saved: readonly SavedEntry[]
  /** Keys with saves waiting for the connection. */
  waiting: readonly string[]
  known: ReadonlyMap<string, KnownStory>
  /** Whether the catalog was read (else an unknown story may well be in it). @default true */
  catalogRead?: boolean
}): ProgressEntry[] {
  const unknown =
    input.catalogRead === false ? 'A story (the catalog could not be read)' : 'A story not in the catalog'
  const byKey = new Map<string, SavedEntry>()
  for (const s of input.saved) byKey.set(s.key, s)
  for (const k of input.waiting) if (!byKey.has(k)) byKey.set(k, { key: k })
  const waiting = new Set(input.waiting)
  const entries = [...byKey.values()].map((s): ProgressEntry => {
    const story = input.known.get(s.key)
    return {
      key: s.key,
      title: story?.title ?? unknown,
      where: input.where,
      ...(s.savedAt && { savedAt: s.savedAt }),
      waiting: waiting.has(s.key),
      ...(story && { resume: `#/story/${encodeURIComponent(story.slug)}/play` }),
    }
  })
  const time = (e: ProgressEntry) => (e.savedAt ? Date.parse(e.savedAt) || 0 : Number.MAX_SAFE_INTEGER)
  return entries.sort((a, b) => time(b) - time(a) || a.title.localeCompare(b.title))
}

/** The key of a queued save's path (`/api/progress/<key>`), or undefined for other writes. */
export function keyOfProgressPath(path: string): string | undefined {
  const m = /^\/api\/progress\/([^/]+)$/.exec(path)
  if (!m) return undefined
  try {
    return decodeURIComponent(m[1] as string)
  } catch {
    return undefined
  }
}

/** A catalog record with what the mapping needs; undefined when the record lacks it. */
export interface CatalogRef {
  slug: string
  title: string
  version: string
  sha256: string
}

/** Reads the catalog records the mapping needs from a `GET /catalog/stories` answer. */
export function catalogRefs(body: unknown): CatalogRef[] {
  const items = (body as { items?: unknown } | null)?.items
  if (!Array.isArray(items)) return []
  const out: CatalogRef[] = []
  for (const raw of items) {
    const r = (raw ?? {}) as Record<string, unknown>
    const pkg = (r.package ?? {}) as Record<string, unknown>
    if (
      typeof r.slug === 'string' &&
      typeof r.title === 'string' &&
      typeof pkg.version === 'string' &&
      typeof pkg.sha256 === 'string'
    ) {
      out.push({ slug: r.slug, title: r.title, version: pkg.version, sha256: pkg.sha256 })
    }
  }
  return out
}
