import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, buildPublishingApp, type PublishingApp, storyPackage, upload } from './helpers/publishing'

let t: PublishingApp
const creator = bearer('cat-author', 'creator')
const moderator = bearer('mod', 'moderator')
const admin = bearer('adm', 'administrator')

const create = (slug: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/stories',
    headers: creator,
    payload: { slug, title: slug, author: 'A', genre: 'mystery', content: `content of ${slug}`, ...extra },
  })
const place = (slug: string, payload: unknown, headers = moderator) =>
  t.app.inject({ method: 'PUT', url: `/catalog/stories/${slug}`, headers, payload: payload as object })
const addSeries = (payload: object, headers = moderator) =>
  t.app.inject({ method: 'POST', url: '/catalog/series', headers, payload })

beforeAll(async () => {
  t = await buildPublishingApp()
  await create('cat-howto', { type: 'instruction' })
  await create('cat-one', { instruction: 'cat-howto' })
  await create('cat-two', { genre: 'horror' })
  await create('cat-draft')
  // Only a story with a valid version can be published: one package each, genres as the records'.
  for (const [slug, genre, id] of [
    ['cat-one', 'mystery', '0c0c0c0c-1111-4222-8333-000000000001'],
    ['cat-two', 'horror', '0c0c0c0c-1111-4222-8333-000000000002'],
  ] as const) {
    const res = await upload(t.app, slug, storyPackage({ id, genre }), 'cat-author')
    if (res.statusCode !== 201) throw new Error(`upload ${slug}: ${res.statusCode} ${res.body}`)
  }
}, 60_000)
afterAll(async () => t?.close())

describe('catalog writes (moderator or administrator)', () => {
  it('publishes stories and refuses instruction records', async () => {
    const res = await place('cat-one', { published: true })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ slug: 'cat-one', published: true, instruction: 'cat-howto' })
    expect((await place('cat-two', { published: true }, admin)).statusCode).toBe(200)
    const instr = await place('cat-howto', { published: true })
    expect(instr.statusCode).toBe(400)
    expect(instr.json().message).toBe('Instruction packages never appear in the catalog')
  })

  it('refuses to publish a story with no valid version (409 NO_VALID_VERSION); unpublishing it is fine', async () => {
    const res = await place('cat-draft', { published: true })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ statusCode: 409, code: 'NO_VALID_VERSION' })
    expect((await t.app.inject({ url: '/catalog/stories/cat-draft' })).statusCode).toBe(404)
    const off = await place('cat-draft', { published: false })
    expect(off.statusCode).toBe(200)
    expect(off.json()).toMatchObject({ published: false })
  })

  it('refuses creators and anonymous callers', async () => {
    expect((await place('cat-draft', { published: true }, creator)).statusCode).toBe(403)
    expect(
      (await t.app.inject({ method: 'PUT', url: '/catalog/stories/cat-draft', payload: { published: true } }))
        .statusCode,
    ).toBe(401)
    expect((await addSeries({ slug: 'nope', title: 'x' }, creator)).statusCode).toBe(403)
  })

  it('creates, updates and deletes series and places stories in them', async () => {
    const s = await addSeries({ slug: 'harbour-tales', title: 'Harbour Tales' })
    expect(s.statusCode).toBe(201)
    expect(s.json()).toEqual({ slug: 'harbour-tales', title: 'Harbour Tales', description: '', stories: 0 })
    const dup = await addSeries({ slug: 'harbour-tales', title: 'Again' })
    expect(dup.statusCode).toBe(409)
    expect(dup.json().code).toBe('SERIES_EXISTS')
    expect((await place('cat-two', { series: 'harbour-tales', seriesPosition: 2 })).json()).toMatchObject({
      series: 'harbour-tales',
      seriesPosition: 2,
    })
    expect((await place('cat-one', { series: 'harbour-tales', seriesPosition: 1 })).statusCode).toBe(200)
    expect((await place('cat-one', { series: 'no-such-series' })).statusCode).toBe(400)
    const renamed = await t.app.inject({
      method: 'PUT',
      url: '/catalog/series/harbour-tales',
      headers: admin,
      payload: { description: 'By the sea' },
    })
    expect(renamed.json()).toMatchObject({ description: 'By the sea', stories: 2 })
    const detail = await t.app.inject({ url: '/catalog/series/harbour-tales' })
    expect(detail.json().items.map((i: { slug: string }) => i.slug)).toEqual(['cat-one', 'cat-two'])
    await addSeries({ slug: 'gone-series', title: 'Gone' })
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/catalog/series/gone-series', headers: moderator }))
        .statusCode,
    ).toBe(204)
    expect((await t.app.inject({ url: '/catalog/series/gone-series' })).statusCode).toBe(404)
  })

  it('validates write bodies', async () => {
    for (const payload of [{}, { published: 'yes' }, { published: true, extra: 1 }, { seriesPosition: 0 }]) {
      expect((await place('cat-draft', payload)).statusCode).toBe(400)
    }
    expect((await place('no-such-story', { published: true })).statusCode).toBe(404)
  })
})

describe('public catalog reads', () => {
  it('lists published stories only, never instructions or drafts, without tokens', async () => {
    const res = await t.app.inject({ url: '/catalog/stories' })
    expect(res.statusCode).toBe(200)
    const slugs = res
      .json()
      .items.map((s: { slug: string }) => s.slug)
      .sort()
    expect(slugs).toEqual(['cat-one', 'cat-two'])
    expect(res.json().total).toBe(2)
    expect(res.json().items[0].owner).toBeUndefined()
    expect(res.json().items[0].content).toBeUndefined()
    const horror = await t.app.inject({ url: '/catalog/stories?genre=horror&limit=500&page=0' })
    expect(horror.json()).toMatchObject({ page: 1, limit: 100, total: 1 })
    const bySeries = await t.app.inject({ url: '/catalog/stories?series=harbour-tales' })
    expect(bySeries.json().total).toBe(2)
  })

  it('serves one published story with content, 404 for drafts and instructions', async () => {
    const one = await t.app.inject({ url: '/catalog/stories/cat-one' })
    expect(one.statusCode).toBe(200)
    expect(one.json()).toMatchObject({
      slug: 'cat-one',
      content: 'content of cat-one',
      instruction: 'cat-howto',
    })
    expect((await t.app.inject({ url: '/catalog/stories/cat-draft' })).statusCode).toBe(404)
    expect((await t.app.inject({ url: '/catalog/stories/cat-howto' })).statusCode).toBe(404)
    expect((await t.app.inject({ url: '/catalog/stories/..%2Fetc' })).statusCode).toBe(400)
  })

  it('lists genres and series', async () => {
    const genres = await t.app.inject({ url: '/catalog/genres' })
    expect(genres.json().items).toEqual([
      { genre: 'horror', stories: 1 },
      { genre: 'mystery', stories: 1 },
    ])
    const series = await t.app.inject({ url: '/catalog/series' })
    expect(series.json().items).toEqual([
      { slug: 'harbour-tales', title: 'Harbour Tales', description: 'By the sea', stories: 2 },
    ])
  })

  it('rejects writes to read-only paths', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/catalog/stories', payload: {} })
    expect(res.statusCode).toBe(404)
  })
})
