import { describe, expect, it } from 'vitest'
import { packageUrlOf } from './catalog'
import type { CatalogStory } from './catalog-model'

const story = (packageUrl?: string): CatalogStory => ({
  slug: 's',
  title: 'S',
  author: '',
  genre: '',
  language: '',
  direction: 'ltr',
  intro: '',
  description: '',
  tags: [],
  contentWarnings: [],
  license: '',
  preview: false,
  ...(packageUrl ? { packageUrl } : {}),
})

describe('packageUrlOf', () => {
  it('keeps the files address the API names', () => {
    expect(packageUrlOf(story('https://files.example/packages/a.spkg'), 'https://spkg.example')).toBe(
      'https://files.example/packages/a.spkg',
    )
    expect(packageUrlOf(story('http://127.0.0.1:3000/files/packages/a.spkg'), 'http://127.0.0.1:3000')).toBe(
      'http://127.0.0.1:3000/files/packages/a.spkg',
    )
  })
  it('reads through the page’s own origin when both are loopback addresses (a dev server proxying the API)', () => {
    expect(
      packageUrlOf(story('http://127.0.0.1:3000/files/packages/a.spkg?v=1'), 'http://localhost:5173'),
    ).toBe('http://localhost:5173/files/packages/a.spkg?v=1')
  })
  it('has no address without a package, or with one that is not a URL', () => {
    expect(packageUrlOf(story(), 'https://spkg.example')).toBeUndefined()
    expect(packageUrlOf(story('http://[bad'), 'https://spkg.example')).toBeUndefined()
  })
})
