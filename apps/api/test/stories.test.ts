import { describe, expect, it } from 'vitest'
import { bearer, useTestApp } from './helpers/app'

const t = useTestApp()

const creator = bearer('alice', 'creator')
const other = bearer('bob', 'creator')
const admin = bearer('root', 'administrator')
const reader = bearer('carol', 'reader')

const story = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  title: `Title of ${slug}`,
  author: 'Alice',
  genre: 'mystery',
  content: 'Once upon a time.',
  ...extra,
})

const post = (body: unknown, headers = creator) =>
  t.app.inject({ method: 'POST', url: '/api/stories', headers, payload: body as object })
const put = (slug: string, payload: object, headers = creator) =>
  t.app.inject({ method: 'PUT', url: `/api/stories/${slug}`, headers, payload })
const del = (slug: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'DELETE', url: `/api/stories/${slug}`, headers })

describe('POST /api/stories', () => {
  it('creates a story owned by the caller', async () => {
    const res = await post(story('the-lighthouse'))
    expect(res.statusCode).toBe(201)
    expect(res.headers.location).toBe('/api/stories/the-lighthouse')
    const body = res.json()
    expect(body).toMatchObject({ slug: 'the-lighthouse', owner: 'alice', type: 'story', instruction: null })
    expect(body.content).toBe('Once upon a time.')
  })

  it('refuses a duplicate slug with 409 STORY_EXISTS', async () => {
    await post(story('dup-story'))
    const res = await post(story('dup-story'), other)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      statusCode: 409,
      code: 'STORY_EXISTS',
      message: 'Story "dup-story" exists already',
    })
  })

  it('needs creator or administrator', async () => {
    expect((await post(story('by-reader'), reader)).statusCode).toBe(403)
    expect((await post(story('by-admin'), admin)).statusCode).toBe(201)
    const anon = await t.app.inject({ method: 'POST', url: '/api/stories', payload: story('anon') })
    expect(anon.statusCode).toBe(401)
    expect(anon.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' })
  })

  it('authenticates before it reads the body: no token and a bad body is 401, a reader with a bad body 403', async () => {
    const bad = { title: 5, isAdmin: true }
    const anon = await t.app.inject({ method: 'POST', url: '/api/stories', payload: bad })
    expect(anon.statusCode).toBe(401)
    expect((await post(bad, reader)).statusCode).toBe(403)
    expect((await post(bad, creator)).statusCode).toBe(400)
    const put = await t.app.inject({ method: 'PUT', url: '/api/progress/some-story', payload: { nope: 1 } })
    expect(put.statusCode).toBe(401)
  })

  it.each([
    ['unknown property', { ...story('x-unknown'), isAdmin: true }, 'Unrecognized key: "isAdmin"'],
    ['wrong type', { ...story('x-type'), title: 5 }, 'body.title'],
    ['bad slug', story('Bad_Slug'), 'Invalid slug'],
    ['traversal slug', story('../etc'), 'Invalid slug'],
    ['over-long title', story('x-long', { title: 'x'.repeat(201) }), 'body.title'],
    ['over-long author', story('x-author', { author: 'x'.repeat(101) }), 'body.author'],
    ['over-long genre', story('x-genre', { genre: 'x'.repeat(51) }), 'body.genre'],
    ['content over 500,000 characters', story('x-big', { content: 'x'.repeat(500_001) }), '500000'],
    ['missing field', { slug: 'x-missing', title: 't' }, 'body.author'],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_name, body, fragment) => {
    const res = await post(body)
    expect(res.statusCode).toBe(400)
    const json = res.json()
    expect(json.code).toBe('VALIDATION_FAILED')
    expect(json.statusCode).toBe(400)
    expect(json.message).toContain(fragment)
    expect(json.message).not.toMatch(/\/work|node_modules|\.ts/)
  })

  it('accepts content of exactly 500,000 characters', async () => {
    const res = await post(story('x-max', { content: 'y'.repeat(500_000) }))
    expect(res.statusCode).toBe(201)
  })

  it('refuses a body over 1 MB with 413', async () => {
    const res = await post(story('x-huge', { content: 'é'.repeat(600_000) }))
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' })
  })

  it('refuses a __proto__ body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stories',
      headers: { ...creator, 'content-type': 'application/json' },
      payload: `{"slug":"proto-x","title":"t","author":"a","genre":"g","content":"c","__proto__":{"x":1}}`,
    })
    expect(res.statusCode).toBe(400)
  })

  it('links an instruction package, which never appears in lists', async () => {
    const howto = await post(story('lighthouse-howto', { type: 'instruction' }))
    expect(howto.statusCode).toBe(201)
    const linked = await post(story('lighthouse-two', { instruction: 'lighthouse-howto' }))
    expect(linked.statusCode).toBe(201)
    expect(linked.json().instruction).toBe('lighthouse-howto')
    const notInstr = await post(story('bad-link', { instruction: 'the-lighthouse' }))
    expect(notInstr.statusCode).toBe(400)
    expect(notInstr.json().code).toBe('INSTRUCTION_NOT_FOUND')
    const list = await t.app.inject({ url: '/api/stories?limit=100', headers: reader })
    const slugs = list.json().items.map((s: { slug: string }) => s.slug)
    expect(slugs).toContain('lighthouse-two')
    expect(slugs).not.toContain('lighthouse-howto')
    // reachable by slug through the link
    const direct = await t.app.inject({ url: '/api/stories/lighthouse-howto', headers: reader })
    expect(direct.json().type).toBe('instruction')
  })
})

describe('GET /api/stories', () => {
  it('pages with clamping and a total', async () => {
    for (let i = 0; i < 3; i++) await post(story(`page-${i}`))
    const all = await t.app.inject({ url: '/api/stories?limit=100', headers: reader })
    const total = all.json().total
    expect(total).toBeGreaterThanOrEqual(3)
    const clamped = await t.app.inject({ url: '/api/stories?page=-4&limit=500', headers: reader })
    expect(clamped.statusCode).toBe(200)
    expect(clamped.json()).toMatchObject({ page: 1, limit: 100, total })
    const junk = await t.app.inject({ url: '/api/stories?page=abc&limit=0', headers: reader })
    expect(junk.json()).toMatchObject({ page: 1, limit: 1, total })
    expect(junk.json().items).toHaveLength(1)
    expect(junk.json().items[0].content).toBeUndefined()
    const p2 = await t.app.inject({ url: '/api/stories?page=2&limit=1', headers: reader })
    expect(p2.json().items[0].slug).not.toBe(junk.json().items[0].slug)
  })

  it('needs a token', async () => {
    expect((await t.app.inject({ url: '/api/stories' })).statusCode).toBe(401)
  })
})

describe('GET/PUT/DELETE /api/stories/:slug', () => {
  it('answers 404 with the error body for an unknown slug', async () => {
    const res = await t.app.inject({ url: '/api/stories/no-such-story', headers: reader })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'Story not found' })
  })

  it.each(['..%2F..%2Fetc%2Fpasswd', '..%2F', 'UPPER', 'a%00b', 'x'])(
    'refuses the slug %s with 400',
    async (slug) => {
      const res = await t.app.inject({ url: `/api/stories/${slug}`, headers: reader })
      expect(res.statusCode).toBe(400)
      expect(res.json().statusCode).toBe(400)
    },
  )

  it('lets the owner update, refuses others, lets an administrator', async () => {
    await post(story('owned-story'))
    const mine = await put('owned-story', { title: 'New title' })
    expect(mine.statusCode).toBe(200)
    expect(mine.json()).toMatchObject({ title: 'New title', author: 'Alice', owner: 'alice' })
    const theirs = await put('owned-story', { title: 'Hijack' }, other)
    expect(theirs.statusCode).toBe(403)
    expect(theirs.json().code).toBe('FORBIDDEN')
    const byAdmin = await put('owned-story', { genre: 'horror' }, admin)
    expect(byAdmin.statusCode).toBe(200)
    expect(byAdmin.json().genre).toBe('horror')
  })

  it('refuses slug or unknown fields in an update', async () => {
    await post(story('fixed-slug'))
    for (const payload of [{ slug: 'other-slug' }, { owner: 'bob' }, {}, { content: 'x'.repeat(500_001) }]) {
      expect((await put('fixed-slug', payload)).statusCode).toBe(400)
    }
  })

  it('deletes for the owner or an administrator only', async () => {
    await post(story('to-delete'))
    await post(story('to-delete-2'))
    expect((await del('to-delete', other)).statusCode).toBe(403)
    expect((await del('to-delete', creator)).statusCode).toBe(204)
    expect((await del('to-delete-2', admin)).statusCode).toBe(204)
    expect((await t.app.inject({ url: '/api/stories/to-delete', headers: reader })).statusCode).toBe(404)
    expect((await del('to-delete', admin)).statusCode).toBe(404)
  })
})
