/**
 * The development seed: every packaged example story of examples/ is packed, uploaded through publishPackage and
 * published; the example instruction is stored unlisted, linked both ways with its story and reachable from it;
 * the flat example is skipped with its reason; a second run changes nothing.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXAMPLES_DIR, type SeedResult, seedExamples } from '../../src/publishing/seed'
import { packageKey } from '../../src/storage/create-storage'
import { bearer, buildPublishingApp, type PublishingApp } from '../helpers/publishing'

/** The example folders by kind, read from the manifests (so a new example needs no change here). */
const folders = readdirSync(EXAMPLES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()
const manifestOf = (folder: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(readFileSync(join(EXAMPLES_DIR, folder, 'manifest.json'), 'utf8'))
  } catch {
    return null
  }
}
const stories = folders.filter((f) => manifestOf(f) && manifestOf(f)?.type !== 'instruction')
const instructions = folders.filter((f) => manifestOf(f)?.type === 'instruction')
const flat = folders.filter((f) => !manifestOf(f))

let t: PublishingApp
let first: SeedResult
beforeAll(async () => {
  t = await buildPublishingApp()
  first = await seedExamples(t.app)
}, 60_000)
afterAll(async () => t?.close(), 60_000)

describe('seedExamples', () => {
  it('covers the examples the player needs', () => {
    expect(stories).toEqual(
      expect.arrayContaining(['crooked-inn', 'tide-bell', 'fencing-lesson', 'harbour-heist']),
    )
    expect(instructions).toEqual(['harbour-heist-guide'])
    expect(flat).toEqual(['last-ferry'])
  })

  it('publishes every example story, instructions first, and skips the flat one with its reason', async () => {
    expect(first.failed).toEqual([])
    expect(first.present).toEqual([])
    expect(first.instructions).toEqual(instructions)
    expect(first.seeded).toEqual([...instructions, ...stories])
    expect(first.skipped).toEqual([
      { folder: 'last-ferry', reason: 'a flat story: the platform publishes packaged archives only' },
    ])
    const catalog = await t.app.inject({ url: '/catalog/stories?limit=100' })
    expect(catalog.statusCode).toBe(200)
    const items = catalog.json().items as Array<{ slug: string; package: { url: string } | null }>
    expect(items.map((i) => i.slug).sort()).toEqual(stories)
    for (const item of items) expect(item.package?.url).toMatch(/\/files\/packages\/[0-9a-f]{64}\.spkg$/)
  })

  it('serves a seeded story the way the catalog describes it (version, cover, manifest, package file)', async () => {
    const list = await t.app.inject({ url: '/api/stories/tide-bell/versions', headers: bearer('seed') })
    const [v] = list.json().items
    expect(v).toMatchObject({ version: '1.0.0', published: true, signature: 'unsigned' })
    expect(v.cover).toMatch(/\/files\/covers\/[0-9a-f]{64}\.webp$/)
    expect(v.warnings).toEqual([])
    expect(await t.storage.stat(packageKey(v.sha256))).not.toBeNull()
    const manifest = await t.app.inject({ url: '/catalog/stories/tide-bell/versions/1.0.0/manifest' })
    expect(manifest.statusCode).toBe(200)
    expect(manifest.json()).toMatchObject({ title: 'The Tide Bell', loading: 'progressive' })
    expect(Object.keys(manifest.json().integrity)).toContain('assets/bell.ogg')
  })

  it('keeps the instruction out of the catalog, links it both ways and leads to it from its story', async () => {
    const story = (await t.app.inject({ url: '/catalog/stories/harbour-heist' })).json()
    expect(story.instruction).toBe('harbour-heist-guide')
    expect(story.instructionPackage).toMatchObject({
      slug: 'harbour-heist-guide',
      title: 'Running The Harbour Heist',
      package: { version: '1.0.0' },
    })
    // Not in the catalog, by slug or in lists (checked above), nor in the story list.
    expect((await t.app.inject({ url: '/catalog/stories/harbour-heist-guide' })).statusCode).toBe(404)
    const records = await t.app.inject({ url: '/api/stories?limit=100', headers: bearer('reader') })
    expect(records.json().items.map((s: { slug: string }) => s.slug)).not.toContain('harbour-heist-guide')
    // Both ways: the story names the instruction and the instruction names the story back. The instruction,
    // uploaded first, keeps the one warning of its upload (its story was not there yet); the story has none.
    const storyManifest = (
      await t.app.inject({ url: '/catalog/stories/harbour-heist/versions/1.0.0/manifest' })
    ).json()
    const guideManifest = await t.app.inject({
      url: '/catalog/stories/harbour-heist-guide/versions/1.0.0/manifest',
    })
    expect(guideManifest.statusCode).toBe(200)
    expect(storyManifest.instruction).toBe(guideManifest.json().id)
    expect(guideManifest.json()).toMatchObject({ type: 'instruction', stories: [storyManifest.id] })
    const warnings = async (slug: string) =>
      (await t.app.inject({ url: `/api/stories/${slug}/versions`, headers: bearer('seed') })).json().items[0]
        .warnings as Array<{ code: string }>
    expect(await warnings('harbour-heist')).toEqual([])
    expect((await warnings('harbour-heist-guide')).map((w) => w.code)).toEqual(['api/story-not-found'])
    // A reader who is not signed in downloads the instruction's package from the story's catalog entry.
    const file = await t.app.inject({ url: new URL(story.instructionPackage.package.url).pathname })
    expect(file.statusCode).toBe(200)
    expect(file.rawPayload.subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'))
  })

  it('a second run changes nothing', async () => {
    expect(await seedExamples(t.app)).toEqual({
      seeded: [],
      instructions: [],
      present: [...instructions, ...stories],
      skipped: first.skipped,
      failed: [],
    })
  })
})
