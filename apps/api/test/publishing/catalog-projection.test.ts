/**
 * Lists and the catalog never load or return a whole manifest. A version stored with a huge unknown
 * field and an oversized `description` (written straight into the row: uploads are bounded since, older rows are
 * not) leaves the versions list, the catalog page and the catalog story small, without those values, in a fixed
 * number of queries none of which selects the `manifest` column; only the version's manifest route returns it.
 */
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { CATALOG_FIELD_MAX_BYTES } from '../../src/db/catalog'
import { bearer, createStory, storyPackage, upload, usePublishingApp } from '../helpers/publishing'

const HUGE = 4 * 1024 * 1024
const LONG_DESCRIPTION = CATALOG_FIELD_MAX_BYTES + 1

const t = usePublishingApp()
const mod = bearer('mia', 'moderator')

/** The SQL text of every statement the app's database client runs while `run` runs (PGlite or postgres-js). */
async function queriesOf(run: () => Promise<unknown>): Promise<string[]> {
  const client = (t.tdb.db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client
  const method = t.tdb.kind === 'pglite' ? 'query' : 'unsafe'
  const spy = vi.spyOn(client, method)
  try {
    await run()
    return spy.mock.calls.map((c) => String(c[0]))
  } finally {
    spy.mockRestore()
  }
}

/** Whether a query selects the manifest column as a column (the catalog's field projection does not). */
const readsManifest = (q: string) => /"manifest"\s*(,|from\b|$)/i.test(q)

beforeAll(async () => {
  for (let i = 0; i < 5; i++) {
    await createStory(t.app, `big-${i}`)
    const pkg = storyPackage({ id: `0000000${i}-3333-4444-8555-666666666666`, title: `Big ${i}` })
    expect((await upload(t.app, `big-${i}`, pkg)).statusCode).toBe(201)
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/catalog/stories/big-${i}`,
          headers: mod,
          payload: { published: true },
        })
      ).statusCode,
    ).toBe(200)
  }
  await t.tdb.db.execute(
    sql`update story_versions set manifest = manifest || jsonb_build_object('huge', repeat('a', ${HUGE}), 'description', repeat('d', ${LONG_DESCRIPTION}))`,
  )
}, 120_000)

describe('lists and the catalog read only the columns they show', () => {
  it('the stored manifests hold the large values (the manifest route returns them)', async () => {
    const res = await t.app.inject({ url: '/catalog/stories/big-0/versions/1.0.0/manifest' })
    expect(res.statusCode).toBe(200)
    expect(res.payload.length).toBeGreaterThan(HUGE)
    expect((res.json() as { huge: string }).huge).toHaveLength(HUGE)
  })

  it('GET /api/stories/:slug/versions: small, no manifest, no query reads the manifest column', async () => {
    let res: Awaited<ReturnType<typeof t.app.inject>> | undefined
    const queries = await queriesOf(async () => {
      res = await t.app.inject({ url: '/api/stories/big-0/versions', headers: bearer('alice') })
    })
    expect(res?.statusCode).toBe(200)
    expect(res?.payload.length).toBeLessThan(4096)
    expect(res?.payload).not.toContain('aaaa')
    expect(res?.json().items).toHaveLength(1)
    expect(queries.some((q) => q.includes('"story_versions"'))).toBe(true)
    expect(queries.filter(readsManifest)).toEqual([])
  })

  it('GET /catalog/stories: small, catalog fields only, one query for the whole page, the second time too', async () => {
    let res: Awaited<ReturnType<typeof t.app.inject>> | undefined
    const queries = await queriesOf(async () => {
      res = await t.app.inject({ url: '/catalog/stories?limit=20' })
    })
    expect(res?.statusCode).toBe(200)
    const page = res?.json() as { items: Array<{ metadata: Record<string, unknown> }> }
    expect(page.items).toHaveLength(5)
    expect(res?.payload.length).toBeLessThan(5 * 2048)
    for (const item of page.items) {
      expect(item.metadata).toMatchObject({ title: expect.stringMatching(/^Big \d$/), language: 'en' })
      expect(item.metadata).not.toHaveProperty('huge')
      // Over the field bound: left out rather than sent (a 40 MiB description once made pages of 42 MB).
      expect(item.metadata).not.toHaveProperty('description')
    }
    expect(queries).toHaveLength(1)
    expect(queries.filter(readsManifest)).toEqual([])
    const again = await queriesOf(() => t.app.inject({ url: '/catalog/stories?limit=20&page=1' }))
    expect(again).toEqual(queries)
  })

  it('pages keep the total, past the last page too (then a count query answers it)', async () => {
    const page = async (q: string) => (await t.app.inject({ url: `/catalog/stories?${q}` })).json()
    const second = await page('limit=2&page=2')
    expect(second).toMatchObject({ page: 2, limit: 2, total: 5 })
    expect(second.items.map((i: { slug: string }) => i.slug)).toEqual(['big-2', 'big-1'])
    expect(await page('limit=2&page=9')).toEqual({ items: [], page: 9, limit: 2, total: 5 })
    expect(await page('limit=2&page=9&q=nothing-like-it')).toMatchObject({ items: [], total: 0 })
    expect(await page('tag=inn&language=EN&q=Big%203')).toMatchObject({
      total: 1,
      items: [{ slug: 'big-3' }],
    })
  })

  it('GET /catalog/stories/:slug: small, one query', async () => {
    let res: Awaited<ReturnType<typeof t.app.inject>> | undefined
    const queries = await queriesOf(async () => {
      res = await t.app.inject({ url: '/catalog/stories/big-3' })
    })
    expect(res?.statusCode).toBe(200)
    expect(res?.payload.length).toBeLessThan(4096)
    expect(res?.json()).toMatchObject({
      slug: 'big-3',
      packageId: '00000003-3333-4444-8555-666666666666',
      metadata: { title: 'Big 3' },
      package: { version: '1.0.0' },
    })
    expect(res?.json().metadata).not.toHaveProperty('huge')
    expect(queries).toHaveLength(1)
    expect(queries.filter(readsManifest)).toEqual([])
  })
})

describe('an upload reads no stored manifest back', () => {
  it('a repeated version is 409 VERSION_EXISTS without a query reading the manifest column', async () => {
    // The repeated upload took 12 s on PGlite: the existence check read the stored 40 MiB manifest back.
    const pkg = storyPackage({ id: '00000001-3333-4444-8555-666666666666', title: 'Big 1' })
    let res: Awaited<ReturnType<typeof t.app.inject>> | undefined
    const queries = await queriesOf(async () => {
      res = await upload(t.app, 'big-1', pkg)
    })
    expect(res?.statusCode, res?.body).toBe(409)
    expect(res?.json().code).toBe('VERSION_EXISTS')
    expect(queries.length).toBeGreaterThan(0)
    expect(queries.filter(readsManifest)).toEqual([])
  })
})
