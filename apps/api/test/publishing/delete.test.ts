/**
 * Deleting a story removes the files of its versions after the deletion commits, unless another version uses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  bearer,
  buildPublishingApp,
  createStory,
  filesIn,
  type PublishingApp,
  storyPackage,
  upload,
} from '../helpers/publishing'

let t: PublishingApp
beforeAll(async () => {
  t = await buildPublishingApp()
}, 60_000)
afterAll(async () => t?.close(), 60_000)

const remove = (slug: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/stories/${slug}`, headers: bearer('alice', 'creator') })

describe('deleting a story with versions', () => {
  it('removes its package and cover, but keeps a cover another version still uses', async () => {
    await createStory(t.app, 'gone-inn')
    await createStory(t.app, 'kept-inn')
    // Same cover bytes in both packages, different package bytes.
    expect((await upload(t.app, 'gone-inn', storyPackage({ title: 'Gone' }))).statusCode).toBe(201)
    const kept = storyPackage({ id: '66666666-3333-4444-8555-666666666666', title: 'Kept' })
    expect((await upload(t.app, 'kept-inn', kept)).statusCode).toBe(201)
    expect(await filesIn(`${t.filesDir}/packages`)).toHaveLength(2)
    expect(await filesIn(`${t.filesDir}/covers`)).toHaveLength(1)

    expect((await remove('gone-inn')).statusCode).toBe(204)
    expect(await filesIn(`${t.filesDir}/packages`)).toHaveLength(1)
    expect(await filesIn(`${t.filesDir}/covers`)).toHaveLength(1)
    expect((await remove('kept-inn')).statusCode).toBe(204)
    expect(await filesIn(`${t.filesDir}/packages`)).toEqual([])
    expect(await filesIn(`${t.filesDir}/covers`)).toEqual([])
  })
})
