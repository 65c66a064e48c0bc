import type { Manifest } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { coveredFromCatalog, instructionFromCatalog, readableUrl } from './instruction'

const origin = 'http://127.0.0.1:5173'
const items = [
  {
    slug: 'crooked-inn',
    title: 'The Crooked Inn',
    metadata: { title: 'The Crooked Inn' },
    instructionPackage: null,
  },
  {
    slug: 'harbour-heist',
    title: 'The Harbour Heist',
    instruction: 'harbour-heist-guide',
    metadata: { title: 'The Harbour Heist', instruction: 'dbda95f1' },
    instructionPackage: {
      slug: 'harbour-heist-guide',
      title: 'Running The Harbour Heist',
      package: { url: 'http://127.0.0.1:3000/files/packages/guide.spkg' },
    },
  },
  'junk',
  null,
]

describe('instruction links from the catalog', () => {
  it('finds a story’s instruction by the manifest’s id or slug', () => {
    const link = instructionFromCatalog(items, 'dbda95f1', origin)
    expect(link).toEqual({
      slug: 'harbour-heist-guide',
      title: 'Running The Harbour Heist',
      // The API's loopback address of another port is read on the page's origin (a dev server's proxy).
      url: 'http://127.0.0.1:5173/files/packages/guide.spkg',
    })
    expect(instructionFromCatalog(items, 'harbour-heist-guide', origin)?.slug).toBe('harbour-heist-guide')
    expect(instructionFromCatalog(items, 'someone-else', origin)).toBeUndefined()
    expect(instructionFromCatalog([], 'dbda95f1', origin)).toBeUndefined()
  })

  it('lists the stories an instruction covers', () => {
    const guide = { id: 'dbda95f1', type: 'instruction', stories: ['ac41'] } as unknown as Manifest
    expect(coveredFromCatalog(items, guide)).toEqual([{ slug: 'harbour-heist', title: 'The Harbour Heist' }])
    const bySlug = { id: 'other', type: 'instruction', stories: ['crooked-inn'] } as unknown as Manifest
    expect(coveredFromCatalog(items, bySlug)).toEqual([{ slug: 'crooked-inn', title: 'The Crooked Inn' }])
  })

  it('reads only http(s) addresses', () => {
    expect(readableUrl('https://files.example.org/a.spkg', origin)).toBe('https://files.example.org/a.spkg')
    expect(readableUrl('javascript:alert(1)', origin)).toBeUndefined()
    expect(readableUrl('/files/a.spkg', origin)).toBe('http://127.0.0.1:5173/files/a.spkg')
  })
})
