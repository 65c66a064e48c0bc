/**
 * Uploads whose manifest is over a bound of @spkg/manifest are
 * refused 422 PACKAGE_INVALID with the diagnostic `spkg validate` prints, nothing is stored, and
 * the pool is free at once: the 41 KB package whose description is 40 MiB of one letter, a
 * description over its 10,000 characters, a manifest nested 5,000 levels deep, a version that is
 * a path. The pool's time budget is far above the test's own: an answer that waited for it would
 * fail the test.
 */
import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { bearer, filesIn, storyPackage, upload, usePublishingApp } from '../helpers/publishing'

const t = usePublishingApp({ settings: { timeoutMs: 600_000, workers: 1 } }, 'bounded-inn')

/** Uploads `bytes`: the 422 body, and checks that nothing was kept. */
async function refused(bytes: Uint8Array) {
  const res = await upload(t.app, 'bounded-inn', bytes)
  expect(res.statusCode, res.body).toBe(422)
  const body = res.json()
  expect(body).toMatchObject({ statusCode: 422, code: 'PACKAGE_INVALID' })
  expect(await filesIn(t.uploadsDir)).toEqual([])
  expect(t.app.publishing.pool.load).toMatchObject({ running: 0, waiting: 0 })
  return body.diagnostics as { code: string; severity: string; path?: string; field?: string }[]
}

describe('manifest bounds on upload', () => {
  it('a 40 MiB description in a small package: 422 with manifest/too-large on manifest.json', async () => {
    const bytes = storyPackage({ description: 'a'.repeat(40 * 1024 * 1024) })
    expect(bytes.length).toBeLessThan(100_000)
    expect(await refused(bytes)).toContainEqual(
      expect.objectContaining({ code: 'manifest/too-large', severity: 'fatal', path: 'manifest.json' }),
    )
  })

  it('a description over 10,000 characters: 422 with manifest/too-long at /description', async () => {
    expect(await refused(storyPackage({ description: 'd'.repeat(10_001) }))).toContainEqual(
      expect.objectContaining({
        code: 'manifest/too-long',
        severity: 'error',
        path: 'manifest.json',
        field: '/description',
      }),
    )
  })

  it('40,000 tags: 422 with one manifest/too-many at /tags; 100,000 tags are over 1 MiB', async () => {
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`)
    const diagnostics = await refused(storyPackage({ tags: tags(40_000) }))
    expect(diagnostics.filter((d) => d.code.startsWith('manifest/too-'))).toEqual([
      expect.objectContaining({ code: 'manifest/too-many', field: '/tags', severity: 'error' }),
    ])
    // Written with the 2-space indent of the test packages, 100,000 tags take 1.4 MB.
    expect(await refused(storyPackage({ tags: tags(100_000) }))).toContainEqual(
      expect.objectContaining({ code: 'manifest/too-large', severity: 'fatal' }),
    )
  })

  it.each([3_000, 5_000, 100_000])(
    'a manifest nested %i levels deep: 422 with manifest/too-deep at once, the pool free',
    async (levels) => {
      const base = JSON.stringify({
        id: '6f1c2b9e-3a4d-4e5f-8a7b-1c2d3e4f5a6b',
        title: 'The Inn',
        version: '1.0.0',
        parts: ['story/0001-inn.sty'],
      })
      const manifest = `${base.slice(0, -1)},"extra":${'{"a":'.repeat(levels)}0${'}'.repeat(levels)}}`
      const bytes = buildPackage({ manifest, parts: { 'story/0001-inn.sty': '# Inn\n\nDawn.\n' } })
      expect(await refused(bytes)).toContainEqual(
        expect.objectContaining({
          code: 'manifest/too-deep',
          severity: 'fatal',
          path: 'manifest.json',
          field: `/extra${'/a'.repeat(63)}`,
        }),
      )
    },
  )

  it('a version that is a path: 422 with manifest/invalid-version at /version', async () => {
    expect(await refused(storyPackage({ version: '../../x' }))).toContainEqual(
      expect.objectContaining({ code: 'manifest/invalid-version', severity: 'error', field: '/version' }),
    )
  })

  it('after all of them a valid package is stored (201)', async () => {
    const res = await upload(t.app, 'bounded-inn', storyPackage())
    expect(res.statusCode, res.body).toBe(201)
    const list = await t.app.inject({ url: '/api/stories/bounded-inn/versions', headers: bearer('alice') })
    expect(list.json().items).toHaveLength(1)
  })
})
