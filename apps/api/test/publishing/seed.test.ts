/**
 * The development seed: the repository's example stories are packed, uploaded through publishPackage and
 * published into an empty catalog, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedExamples } from '../../src/publishing/seed'
import { packageKey } from '../../src/storage/index'
import { bearer, buildPublishingApp, type PublishingApp } from '../helpers/publishing'

let t: PublishingApp
beforeAll(async () => {
  t = await buildPublishingApp()
}, 60_000)
afterAll(async () => t?.close(), 60_000)

describe('seedExamples', () => {
  it('publishes the example stories into an empty catalog, once', async () => {
    const r = await seedExamples(t.app)
    expect(r).toEqual({ seeded: ['crooked-inn'], skipped: null, failed: [] })
    const list = await t.app.inject({ url: '/api/stories/crooked-inn/versions', headers: bearer('seed') })
    const [v] = list.json().items
    expect(v).toMatchObject({ version: '1.0.0', published: true, signature: 'unsigned' })
    expect(v.cover).toMatch(/\/files\/covers\/[0-9a-f]{64}\.svg$/)
    expect(await t.storage.stat(packageKey(v.sha256))).not.toBeNull()
    const manifest = await t.app.inject({ url: '/catalog/stories/crooked-inn/versions/1.0.0/manifest' })
    expect(manifest.statusCode).toBe(200)
    expect(manifest.json()).toMatchObject({ title: 'The Crooked Inn', version: '1.0.0' })
    expect(Object.keys(manifest.json().integrity)).toContain('story/0001-inn.sty')
    expect(await seedExamples(t.app)).toEqual({ seeded: [], skipped: 'not-empty', failed: [] })
  })
})
