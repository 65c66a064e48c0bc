/**
 * The catalog as the home page shows it: records of `GET /catalog/stories` read defensively (the answer is JSON from
 * the network), and the search and filters, all pure.
 */

/** A catalog story with what the home page shows. */
export interface CatalogStory {
  slug: string
  title: string
  author: string
  genre: string
  /** Manifest language (BCP-47), '' when unknown. */
  language: string
  direction: 'ltr' | 'rtl'
  intro: string
  description: string
  tags: string[]
  /** Minutes, when the manifest says. */
  duration?: number
  ageMin?: number
  ageMax?: number
  contentWarnings: string[]
  license: string
  cover?: string
  packageUrl?: string
  signature?: string
  preview: boolean
}

/** The filters of the home page ('' = any). */
export interface CatalogFilters {
  text: string
  genre: string
  language: string
  /** The reader's age: stories whose minimum age is above it are left out ('' = any). */
  age: string
}

export const NO_FILTERS: CatalogFilters = { text: '', genre: '', language: '', age: '' }

const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []

function authorsOf(v: unknown): string {
  if (typeof v === 'string') return v
  if (Array.isArray(v))
    return v
      .map((a) => (typeof a === 'string' ? a : str((a as { name?: unknown } | null)?.name)))
      .filter(Boolean)
      .join(', ')
  return ''
}

/** One record of the API's answer as the player uses it; undefined when it lacks a slug or title. */
export function toCatalogStory(raw: unknown): CatalogStory | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const r = raw as Record<string, unknown>
  const meta = (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Record<string, unknown>
  const pkg = (r.package && typeof r.package === 'object' ? r.package : {}) as Record<string, unknown>
  const slug = str(r.slug)
  const title = str(meta.title) || str(r.title)
  if (!slug || !title) return undefined
  const age = (meta.age && typeof meta.age === 'object' ? meta.age : {}) as Record<string, unknown>
  const story: CatalogStory = {
    slug,
    title,
    author: authorsOf(meta.author) || str(r.author),
    genre: str(meta.genre) || str(r.genre),
    language: str(meta.language),
    direction: meta.direction === 'rtl' ? 'rtl' : 'ltr',
    intro: str(meta.intro),
    description: str(meta.description),
    tags: strs(meta.tags),
    contentWarnings: strs(meta.content_warnings),
    license: str(meta.license),
    preview: meta.preview === true,
  }
  const duration = num(meta.duration)
  if (duration !== undefined) story.duration = duration
  const min = num(age.min)
  const max = num(age.max)
  if (min !== undefined) story.ageMin = min
  if (max !== undefined) story.ageMax = max
  if (str(r.cover)) story.cover = str(r.cover)
  if (str(pkg.url)) story.packageUrl = str(pkg.url)
  if (str(pkg.signature)) story.signature = str(pkg.signature)
  return story
}

/** Lower case, accents removed: what search compares. */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Whether a story passes the filters. Text matches every word against title, author, intro, description, tags. */
export function matches(story: CatalogStory, f: CatalogFilters): boolean {
  if (f.genre && fold(story.genre) !== fold(f.genre)) return false
  if (f.language && fold(story.language).split('-')[0] !== fold(f.language).split('-')[0]) return false
  if (f.age) {
    const age = Number(f.age)
    if (Number.isFinite(age) && story.ageMin !== undefined && story.ageMin > age) return false
  }
  const words = fold(f.text).split(/\s+/).filter(Boolean)
  if (words.length) {
    const hay = fold(
      [story.title, story.author, story.intro, story.description, story.genre, ...story.tags].join(' '),
    )
    if (!words.every((w) => hay.includes(w))) return false
  }
  return true
}

/** The stories that pass the filters, in catalog order. */
export function filterCatalog(stories: readonly CatalogStory[], f: CatalogFilters): CatalogStory[] {
  return stories.filter((s) => matches(s, f))
}

/** The distinct genres and languages of the catalog, sorted, for the filter menus. */
export function facets(stories: readonly CatalogStory[]): { genres: string[]; languages: string[] } {
  const genres = new Set<string>()
  const languages = new Set<string>()
  for (const s of stories) {
    if (s.genre) genres.add(s.genre)
    if (s.language) languages.add(s.language)
  }
  return { genres: [...genres].sort(), languages: [...languages].sort() }
}

/** `"1 h 5 min"`, `"12 min"`. */
export function formatDuration(minutes: number): string {
  const m = Math.round(minutes)
  if (m < 60) return `${m} min`
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`
}

/** `"12+"`, `"8–12"`, `"up to 10"`; '' when the story gives no age. */
export function formatAge(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return `${min}–${max}`
  if (min !== undefined) return `${min}+`
  if (max !== undefined) return `up to ${max}`
  return ''
}

/** Filters from a hash query (`#/?q=inn&genre=fantasy`), and back. */
export function filtersFromQuery(q: URLSearchParams): CatalogFilters {
  return {
    text: q.get('q') ?? '',
    genre: q.get('genre') ?? '',
    language: q.get('lang') ?? '',
    age: q.get('age') ?? '',
  }
}

export function filtersToQuery(f: CatalogFilters): string {
  const q = new URLSearchParams()
  if (f.text) q.set('q', f.text)
  if (f.genre) q.set('genre', f.genre)
  if (f.language) q.set('lang', f.language)
  if (f.age) q.set('age', f.age)
  return q.toString()
}
