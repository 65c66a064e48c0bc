import { describe, expect, it } from 'vitest'
import {
  type CatalogStory,
  facets,
  filterCatalog,
  filtersFromQuery,
  filtersToQuery,
  formatAge,
  formatDuration,
  NO_FILTERS,
  toCatalogStory,
} from './catalog-model'

const record = (over: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  slug: 'crooked-inn',
  title: 'Record title',
  author: 'Record Author',
  genre: 'record-genre',
  instruction: null,
  series: null,
  seriesPosition: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  metadata: {
    title: 'The Crooked Inn',
    author: [{ name: 'Ann Author' }, { name: 'Bo Writer' }],
    genre: 'fantasy',
    language: 'en',
    intro: 'Dawn at the inn.',
    duration: 5,
    age: { min: 10 },
    content_warnings: ['violence'],
    tags: ['inn', 'road'],
    license: 'CC-BY-4.0',
    ...meta,
  },
  package: { url: 'http://127.0.0.1:3000/files/packages/x.spkg', signature: 'unsigned' },
  cover: 'http://127.0.0.1:3000/files/covers/x.svg',
  instructionPackage: null,
  ...over,
})

const stories = (): CatalogStory[] =>
  [
    record(),
    record(
      { slug: 'nuit' },
      {
        title: 'La Nuit Étoilée',
        intro: 'Une nuit.',
        language: 'fr-FR',
        genre: 'mystery',
        age: { min: 16 },
        author: [{ name: 'Élise' }],
        tags: [],
      },
    ),
    record({ slug: 'sea', metadata: null, title: 'Sea', genre: 'adventure' }),
  ].map((r) => toCatalogStory(r) as CatalogStory)

describe('toCatalogStory', () => {
  it('reads the manifest metadata over the record, with every field the home page shows', () => {
    const s = toCatalogStory(record())!
    expect(s).toMatchObject({
      slug: 'crooked-inn',
      title: 'The Crooked Inn',
      author: 'Ann Author, Bo Writer',
      genre: 'fantasy',
      language: 'en',
      duration: 5,
      ageMin: 10,
      contentWarnings: ['violence'],
      license: 'CC-BY-4.0',
      cover: 'http://127.0.0.1:3000/files/covers/x.svg',
      packageUrl: 'http://127.0.0.1:3000/files/packages/x.spkg',
      direction: 'ltr',
    })
  })
  it('falls back to the record without metadata, and refuses records without slug or title', () => {
    expect(toCatalogStory(record({ metadata: null }))).toMatchObject({
      title: 'Record title',
      author: 'Record Author',
      genre: 'record-genre',
      language: '',
      contentWarnings: [],
    })
    expect(toCatalogStory({ title: 'x' })).toBeUndefined()
    expect(toCatalogStory(null)).toBeUndefined()
    expect(toCatalogStory('nope')).toBeUndefined()
    expect(
      toCatalogStory(record({ metadata: { title: 5, age: 'x', duration: 'long', tags: 'no' } })),
    ).toMatchObject({ title: 'Record title', tags: [] })
  })
})

describe('filterCatalog', () => {
  it('keeps everything without filters', () => {
    expect(filterCatalog(stories(), NO_FILTERS).map((s) => s.slug)).toEqual(['crooked-inn', 'nuit', 'sea'])
  })
  it('matches every word of the text, case and accents folded, across title, author, intro and tags', () => {
    const f = (text: string) => filterCatalog(stories(), { ...NO_FILTERS, text }).map((s) => s.slug)
    expect(f('etoilee')).toEqual(['nuit'])
    expect(f('ELISE nuit')).toEqual(['nuit'])
    expect(f('inn dawn')).toEqual(['crooked-inn'])
    expect(f('road')).toEqual(['crooked-inn'])
    expect(f('inn nuit')).toEqual([])
  })
  it('filters by genre, by language (primary subtag) and by the reader’s age', () => {
    const all = stories()
    expect(filterCatalog(all, { ...NO_FILTERS, genre: 'Mystery' }).map((s) => s.slug)).toEqual(['nuit'])
    expect(filterCatalog(all, { ...NO_FILTERS, language: 'fr' }).map((s) => s.slug)).toEqual(['nuit'])
    expect(filterCatalog(all, { ...NO_FILTERS, age: '12' }).map((s) => s.slug)).toEqual([
      'crooked-inn',
      'sea',
    ])
    expect(filterCatalog(all, { ...NO_FILTERS, age: '9' }).map((s) => s.slug)).toEqual(['sea'])
    expect(filterCatalog(all, { text: 'inn', genre: 'fantasy', language: 'en', age: '10' })).toHaveLength(1)
  })
  it('lists the facets sorted and distinct', () => {
    expect(facets(stories())).toEqual({
      genres: ['adventure', 'fantasy', 'mystery'],
      languages: ['en', 'fr-FR'],
    })
  })
  it('round-trips filters through the address', () => {
    const f = { text: 'dark night', genre: 'mystery', language: 'fr', age: '12' }
    expect(filtersFromQuery(new URLSearchParams(filtersToQuery(f)))).toEqual(f)
    expect(filtersToQuery(NO_FILTERS)).toBe('')
  })
})

describe('formatting', () => {
  it('formats durations and ages', () => {
    expect(formatDuration(5)).toBe('5 min')
    expect(formatDuration(65)).toBe('1 h 5 min')
    expect(formatDuration(120)).toBe('2 h')
    expect(formatAge(12)).toBe('12+')
    expect(formatAge(8, 12)).toBe('8–12')
    expect(formatAge(undefined, 10)).toBe('up to 10')
    expect(formatAge()).toBe('')
  })
})
