/**
 * The README's `POST /api/stories` row says which fields are required, and the API agrees: each field the README
 * lists as required is refused when missing (400 naming it), and a body with only the required fields is accepted.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { bearer, useTestApp } from './helpers/app'

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

/** The field names in backticks between `required:` and `optional:` of the POST /api/stories row. */
function requiredFields(): string[] {
  const row = README.split('\n').find((l) => l.startsWith('| POST | `/api/stories` |'))
  const part = row && /required: (.*?); optional:/.exec(row)?.[1]
  if (!part) throw new Error('the README row of POST /api/stories does not mark its required fields')
  return [...part.replace(/\(.*?\)/g, '').matchAll(/`([a-z]+)`/g)].map((m) => m[1] as string)
}

const t = useTestApp()

const full = { slug: 'readme-story', title: 'T', author: 'A', genre: 'g', content: 'c' }
const post = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/stories', headers: bearer('creator-1', 'creator'), payload })

describe('README: required story fields', () => {
  it('lists slug, title, author, genre and content as required', () => {
    expect(requiredFields()).toEqual(['slug', 'title', 'author', 'genre', 'content'])
  })

  it('a creator posting only slug and title gets a 400 naming author, genre and content', async () => {
    const res = await post({ slug: 'readme-partial', title: 'T' })
    expect(res.statusCode).toBe(400)
    for (const f of ['author', 'genre', 'content']) expect(res.json().message).toContain(`body.${f}`)
  })

  it('refuses each required field when missing, and accepts the required fields alone', async () => {
    for (const field of requiredFields()) {
      const { [field]: _, ...rest } = full as Record<string, unknown>
      const res = await post(field === 'slug' ? rest : { ...rest, slug: `readme-no-${field}` })
      expect(res.statusCode, field).toBe(400)
      expect(res.json().message, field).toContain(`body.${field}`)
    }
    expect((await post(full)).statusCode).toBe(201)
  })
})
