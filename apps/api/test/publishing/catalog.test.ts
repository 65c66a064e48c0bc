/**
 * The catalog of published packages: publishing a version, the package, cover, metadata and
 * instruction package of catalog items, the version manifest, and the filters.
 */
import { buildPackage } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, createStory, storyPackage, upload, usePublishingApp } from '../helpers/publishing'

const t = usePublishingApp({}, 'inn-one', 'inn-two')
const mod = bearer('mia', 'moderator')
beforeAll(async () => {
  await createStory(t.app, 'inn-howto', 'alice', 'instruction')
  const howto = buildPackage({
    manifest: {
      id: '44444444-3333-4444-8555-666666666666',
      type: 'instruction',
      title: 'Running the inn',
      version: '1',
      stories: ['inn-one'],
    },
    parts: { 'story/0001-howto.sty': 'Prepare the room.\n' },
  })
  expect((await upload(t.app, 'inn-howto', howto)).statusCode).toBe(201)
  expect(
    (await upload(t.app, 'inn-one', storyPackage({ instruction: 'inn-howto', tags: ['inn', 'dark'] })))
      .statusCode,
  ).toBe(201)
  expect(
    (
      await upload(
        t.app,
        'inn-one',
        storyPackage({ instruction: 'inn-howto', version: '1.1.0', title: 'The Inn, revised' }),
      )
    ).statusCode,
  ).toBe(201)
  expect(
    (
      await upload(
        t.app,
        'inn-two',
        storyPackage({
          id: '55555555-3333-4444-8555-666666666666',
          title: 'Le Relais',
          language: 'fr',
          description: 'Une auberge au bord de la route.',
          tags: ['road'],
        }),
      )
    ).statusCode,
  ).toBe(201)
}, 60_000)
afterAll(async () => t?.close(), 60_000)

const put = (slug: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/catalog/stories/${slug}`, headers: mod, payload })

describe('the catalog of packages', () => {
  it('publishes a named version, or the newest; an unknown version is 409 NO_VALID_VERSION', async () => {
    const unknown = await put('inn-one', { published: true, version: '9.9.9' })
    expect(unknown.statusCode).toBe(409)
    expect(unknown.json()).toMatchObject({ code: 'NO_VALID_VERSION' })
    expect((await put('inn-one', { published: true, version: '1.0.0' })).statusCode).toBe(200)
    expect((await put('inn-two', { published: true })).statusCode).toBe(200)
    const two = await t.app.inject({ url: '/api/stories/inn-two/versions', headers: bearer('alice') })
    expect(two.json().items[0].published).toBe(true)
  })

  it('shows the published version: metadata, package, cover and the instruction package', async () => {
    const res = await t.app.inject({ url: '/catalog/stories/inn-one' })
    expect(res.statusCode).toBe(200)
    const s = res.json()
    expect(s).toMatchObject({ slug: 'inn-one', title: 'The Inn', instruction: 'inn-howto' })
    expect(s.metadata).toMatchObject({ title: 'The Inn', language: 'en', tags: ['inn', 'dark'] })
    expect(s.package).toMatchObject({ version: '1.0.0', signature: 'unsigned' })
    expect(s.package.url).toMatch(/\/files\/packages\/[0-9a-f]{64}\.spkg$/)
    expect(s.cover).toMatch(/\/files\/covers\/[0-9a-f]{64}\.svg$/)
    expect(s.instructionPackage).toMatchObject({
      slug: 'inn-howto',
      title: 'Running the inn',
      package: { version: '1' },
    })
    // The package of the published version is public; the instruction's manifest is reachable through its story.
    const file = await t.app.inject({ url: new URL(s.package.url).pathname })
    expect(file.statusCode).toBe(200)
    const manifest = await t.app.inject({ url: '/catalog/stories/inn-howto/versions/1/manifest' })
    expect(manifest.statusCode).toBe(200)
    expect(manifest.json()).toMatchObject({ type: 'instruction' })
  })

  it('filters by tag, language, series and text, and never lists the instruction', async () => {
    const slugs = async (q: string) =>
      (await t.app.inject({ url: `/catalog/stories${q}` })).json().items.map((i: { slug: string }) => i.slug)
    expect((await slugs('')).sort()).toEqual(['inn-one', 'inn-two'])
    expect(await slugs('?tag=dark')).toEqual(['inn-one'])
    expect(await slugs('?language=FR')).toEqual(['inn-two'])
    expect(await slugs('?q=auberge')).toEqual(['inn-two'])
    expect(await slugs('?q=%25')).toEqual([])
    expect(await slugs('?genre=fantasy&tag=road')).toEqual(['inn-two'])
  })

  it('serves the manifest of an unpublished version of a published story, 404 for drafts', async () => {
    const v = await t.app.inject({ url: '/catalog/stories/inn-one/versions/1.1.0/manifest' })
    expect(v.statusCode).toBe(200)
    expect(v.json()).toMatchObject({ title: 'The Inn, revised' })
    expect(v.headers['cache-control']).toContain('immutable')
    await createStory(t.app, 'draft-inn')
    expect(
      (await t.app.inject({ url: '/catalog/stories/draft-inn/versions/1.0.0/manifest' })).statusCode,
    ).toBe(404)
  })
})
