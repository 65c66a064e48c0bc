/**
 * POST /api/stories/:slug/versions and GET /api/stories/:slug/versions, on the test database
 * (PGlite, or PostgreSQL when DATABASE_URL is set) with the filesystem storage.
 */
import { rename, rm, writeFile } from 'node:fs/promises'
import { buildArchive, buildPackage, deflateBomb } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { FsStorage, type PutInfo, packageKey } from '../../src/storage/create-storage'
import {
  bearer,
  buildPublishingApp,
  createStory,
  filesIn,
  storyPackage,
  upload,
  usePublishingApp,
} from '../helpers/publishing'

const t = usePublishingApp({}, 'the-inn')

describe('uploading a package version', () => {
  it('stores a valid package: 201 with hash, size, signature status and warnings; the file is stored', async () => {
    const bytes = storyPackage()
    const res = await upload(t.app, 'the-inn', bytes)
    expect(res.statusCode, res.body).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({
      slug: 'the-inn',
      version: '1.0.0',
      size: bytes.length,
      signature: 'unsigned',
    })
    expect(body.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(Array.isArray(body.warnings)).toBe(true)
    expect(await t.storage.stat(packageKey(body.sha256))).toMatchObject({ size: bytes.length })
    expect(await filesIn(t.uploadsDir)).toEqual([])

    const list = await t.app.inject({ url: '/api/stories/the-inn/versions', headers: bearer('alice') })
    expect(list.statusCode).toBe(200)
    const [v] = list.json().items
    expect(v).toMatchObject({
      version: '1.0.0',
      type: 'story',
      sha256: body.sha256,
      size: bytes.length,
      signature: 'unsigned',
      published: false,
      source: { kind: 'upload' },
    })
    expect(v.package.url).toMatch(new RegExp(`/files/packages/${body.sha256}\\.spkg$`))
    expect(v.cover).toMatch(/\/files\/covers\/[0-9a-f]{64}\.svg$/)
  })

  it('refuses the same version again (409 VERSION_EXISTS) and another package id (409 PACKAGE_ID_MISMATCH)', async () => {
    const again = await upload(t.app, 'the-inn', storyPackage({ title: 'Changed' }))
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'VERSION_EXISTS' })
    const other = await upload(
      t.app,
      'the-inn',
      storyPackage({ id: '11111111-2222-4333-8444-555555555555', version: '2.0.0' }),
    )
    expect(other.statusCode).toBe(409)
    expect(other.json()).toMatchObject({ code: 'PACKAGE_ID_MISMATCH' })
    expect(await filesIn(t.uploadsDir)).toEqual([])
  })

  it('refuses a package with an error diagnostic: 422 PACKAGE_INVALID with the diagnostics', async () => {
    await createStory(t.app, 'broken-inn')
    const res = await upload(
      t.app,
      'broken-inn',
      storyPackage({}, { 'story/0001-inn.sty': '# Inn\n\n[[ 0009-cellar.sty ]]\n' }),
    )
    expect(res.statusCode).toBe(422)
    const body = res.json()
    expect(body).toMatchObject({ statusCode: 422, code: 'PACKAGE_INVALID' })
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'story/unknown-part',
        severity: 'error',
        path: 'story/0001-inn.sty',
        line: 3,
      }),
    )
    const list = await t.app.inject({ url: '/api/stories/broken-inn/versions', headers: bearer('alice') })
    expect(list.json().items).toEqual([])
  })

  it('answers a package with thousands of findings with the 200 most severe and a count of the rest', async () => {
    await createStory(t.app, 'many-inn')
    // 5,000 links to parts that do not exist: 5,000 errors (the 400,000 made a 68 MB body).
    const links = Array.from({ length: 5000 }, (_, i) => `[road ${i} > 0009-gone-${i}.sty]`).join('\n')
    const res = await upload(
      t.app,
      'many-inn',
      storyPackage({}, { 'story/0001-inn.sty': `# Inn\n\n${links}\n` }),
    )
    expect(res.statusCode).toBe(422)
    // About 200 diagnostics of 200 bytes: bounded whatever the package names.
    expect(res.body.length).toBeLessThan(100_000)
    const body = res.json()
    expect(body.diagnostics).toHaveLength(200)
    expect(body.diagnostics.every((d: { severity: string }) => d.severity === 'error')).toBe(true)
    expect(body.omitted.count).toBeGreaterThanOrEqual(4800)
    expect(body.omitted.byCode['story/unknown-part']).toBe(4800)
    const counted = Object.values(body.omitted.byCode as Record<string, number>).reduce((a, b) => a + b, 0)
    expect(counted).toBe(body.omitted.count)
  })

  it('refuses hostile archives from the reader fixtures with their fatal code', async () => {
    // A deflate bomb whose headers claim 100 bytes, and an entry escaping the archive root.
    const bomb = buildArchive([
      { name: 'story/0001-a.sty', payload: deflateBomb(60 * 1024 * 1024), method: 8, size: 100, crc: 0 },
    ])
    const traversal = buildArchive([{ name: '../evil.sty', data: 'x' }])
    for (const bytes of [bomb, traversal]) {
      const res = await upload(t.app, 'broken-inn', bytes)
      expect(res.statusCode).toBe(422)
      expect(res.json().diagnostics.some((d: { severity: string }) => d.severity === 'fatal')).toBe(true)
    }
    const junk = await upload(t.app, 'broken-inn', new TextEncoder().encode('not a zip at all'))
    expect(junk.statusCode).toBe(422)
    expect(junk.json().diagnostics[0]).toMatchObject({ severity: 'fatal' })
  })

  it('answers 413 PACKAGE_TOO_LARGE from Content-Length before reading the body, and 415 for JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stories/the-inn/versions',
      headers: {
        ...bearer('alice', 'creator'),
        'content-type': 'application/zip',
        'content-length': String(60 * 1024 * 1024),
      },
      payload: 'x',
    })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'PACKAGE_TOO_LARGE' })
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/stories/the-inn/versions',
      headers: bearer('alice', 'creator'),
      payload: { a: 1 },
    })
    expect(json.statusCode).toBe(415)
  })

  it('lets only the owner or an administrator upload, and owner, moderator, administrator list', async () => {
    expect((await upload(t.app, 'the-inn', storyPackage({ version: '3' }), 'mallory')).statusCode).toBe(403)
    expect(
      (await upload(t.app, 'the-inn', storyPackage({ version: '3' }), 'bob', ['reader'])).statusCode,
    ).toBe(403)
    expect((await upload(t.app, 'no-such-story', storyPackage(), 'alice')).statusCode).toBe(404)
    const asMod = await t.app.inject({
      url: '/api/stories/the-inn/versions',
      headers: bearer('mod', 'moderator'),
    })
    expect(asMod.statusCode).toBe(200)
    const asOther = await t.app.inject({
      url: '/api/stories/the-inn/versions',
      headers: bearer('mallory', 'creator'),
    })
    expect(asOther.statusCode).toBe(403)
    const admin = await upload(t.app, 'the-inn', storyPackage({ version: '1.1.0' }), 'root', [
      'administrator',
    ])
    expect(admin.statusCode).toBe(201)
  })

  it('accepts exactly one of concurrent uploads of the same version', async () => {
    await createStory(t.app, 'race-inn')
    // The owner and two administrators: one user has one validation at a time (a second is 429
    // VALIDATION_IN_PROGRESS before any database work), so the race on the version needs three uploaders.
    const uploaders: Array<[string, string[]]> = [
      ['alice', ['creator']],
      ['root', ['administrator']],
      ['root-2', ['administrator']],
    ]
    const results = await Promise.all(
      uploaders.map(([sub, roles], i) =>
        upload(t.app, 'race-inn', storyPackage({ version: '5.0.0', title: `Race ${i}` }), sub, roles),
      ),
    )
    const codes = results.map((r) => r.statusCode).sort()
    expect(codes).toEqual([201, 409, 409])
    for (const r of results.filter((r) => r.statusCode === 409)) expect(r.json().code).toBe('VERSION_EXISTS')
    const list = await t.app.inject({ url: '/api/stories/race-inn/versions', headers: bearer('alice') })
    expect(list.json().items).toHaveLength(1)
    expect(await filesIn(t.uploadsDir)).toEqual([])
  })
})

const remove = (slug: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/stories/${slug}`, headers: bearer('alice', 'creator') })

/** A package with its own cover bytes. */
const withCover = (id: string, title: string, cover: string) =>
  buildPackage({
    manifest: { id, title, version: '1.0.0', cover: 'assets/cover.svg' },
    parts: { 'story/0001-inn.sty': 'Hello.\n' },
    assets: { 'assets/cover.svg': cover },
  })

describe('deleting a story with versions', () => {
  it('removes its package and cover after the commit, but keeps a cover another version still uses', async () => {
    const count = async (dir: string) => (await filesIn(`${t.filesDir}/${dir}`)).length
    const [packages, covers] = [await count('packages'), await count('covers')]
    const shared = '<svg xmlns="http://www.w3.org/2000/svg" id="shared"/>'
    for (const [slug, id] of [
      ['gone-inn', '77777777-3333-4444-8555-666666666661'],
      ['kept-inn', '77777777-3333-4444-8555-666666666662'],
    ] as const) {
      await createStory(t.app, slug)
      expect((await upload(t.app, slug, withCover(id, slug, shared))).statusCode).toBe(201)
    }
    expect([await count('packages'), await count('covers')]).toEqual([packages + 2, covers + 1])
    expect((await remove('gone-inn')).statusCode).toBe(204)
    expect([await count('packages'), await count('covers')]).toEqual([packages + 1, covers + 1])
    expect((await remove('kept-inn')).statusCode).toBe(204)
    expect([await count('packages'), await count('covers')]).toEqual([packages, covers])
  })
})

describe('deleting one version', () => {
  const mod = bearer('mia', 'moderator')
  const del = (slug: string, version: string, headers = bearer('alice', 'creator')) =>
    t.app.inject({ method: 'DELETE', url: `/api/stories/${slug}/versions/${version}`, headers })
  const versions = async (slug: string) =>
    (await t.app.inject({ url: `/api/stories/${slug}/versions`, headers: bearer('alice') }))
      .json()
      .items.map((v: { version: string; published: boolean }) => [v.version, v.published])
  const id = '88888888-3333-4444-8555-666666666661'

  it('moves the published version to the newest remaining one, then unpublishes with the last; files follow', async () => {
    await createStory(t.app, 'vers-inn')
    const sha: Record<string, string> = {}
    for (const v of ['1.0.0', '2.0.0', '3.0.0']) {
      const res = await upload(t.app, 'vers-inn', storyPackage({ id, version: v, title: `Inn ${v}` }))
      expect(res.statusCode, res.body).toBe(201)
      sha[v] = res.json().sha256
    }
    const publish = await t.app.inject({
      method: 'PUT',
      url: '/catalog/stories/vers-inn',
      headers: mod,
      payload: { published: true, version: '2.0.0' },
    })
    expect(publish.statusCode).toBe(200)
    const stored = async (v: string) => (await t.storage.stat(packageKey(sha[v] as string))) !== null
    const catalogVersion = async () => {
      const res = await t.app.inject({ url: '/catalog/stories/vers-inn' })
      return res.statusCode === 200 ? res.json().package.version : res.statusCode
    }

    // Not the published one: the catalog is untouched, its file goes.
    expect((await del('vers-inn', '1.0.0')).statusCode).toBe(204)
    expect(await versions('vers-inn')).toEqual([
      ['3.0.0', false],
      ['2.0.0', true],
    ])
    expect(await catalogVersion()).toBe('2.0.0')
    expect(await stored('1.0.0')).toBe(false)

    // The published one: the newest remaining version is published in its place.
    expect((await del('vers-inn', '2.0.0')).statusCode).toBe(204)
    expect(await versions('vers-inn')).toEqual([['3.0.0', true]])
    expect(await catalogVersion()).toBe('3.0.0')
    expect(await stored('2.0.0')).toBe(false)
    expect(await stored('3.0.0')).toBe(true)

    // The last one: the story leaves the catalog, and cannot be published again without a new upload.
    expect((await del('vers-inn', '3.0.0', bearer('root', 'administrator'))).statusCode).toBe(204)
    expect(await versions('vers-inn')).toEqual([])
    expect(await catalogVersion()).toBe(404)
    expect(await stored('3.0.0')).toBe(false)
    const again = await t.app.inject({
      method: 'PUT',
      url: '/catalog/stories/vers-inn',
      headers: mod,
      payload: { published: true },
    })
    expect(again.json()).toMatchObject({ code: 'NO_VALID_VERSION' })
    // The package id the first version fixed stays the story's.
    const other = await upload(
      t.app,
      'vers-inn',
      storyPackage({ id: '88888888-3333-4444-8555-666666666662', version: '4.0.0' }),
    )
    expect(other.json()).toMatchObject({ code: 'PACKAGE_ID_MISMATCH' })
  })

  it('lets only the owner or an administrator delete; 404 for an unknown story or version', async () => {
    await createStory(t.app, 'kept-versions')
    expect((await upload(t.app, 'kept-versions', storyPackage({ id, version: '1.0.0' }))).statusCode).toBe(
      201,
    )
    expect((await del('kept-versions', '1.0.0', bearer('mallory', 'creator'))).statusCode).toBe(403)
    expect((await del('kept-versions', '1.0.0', mod)).statusCode).toBe(403)
    const anonymous = await t.app.inject({
      method: 'DELETE',
      url: '/api/stories/kept-versions/versions/1.0.0',
    })
    expect(anonymous.statusCode).toBe(401)
    const unknown = await del('kept-versions', '9.9.9')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' })
    expect((await del('no-such-story', '1.0.0')).statusCode).toBe(404)
    expect(await versions('kept-versions')).toEqual([['1.0.0', false]])
  })
})

describe('filesystem storage failing', () => {
  it('answers 503 STORAGE_UNAVAILABLE with Retry-After, stores no record, and works again after', async () => {
    await createStory(t.app, 'fs-down-inn')
    const first = await upload(t.app, 'fs-down-inn', storyPackage({ version: '1.0.0', title: 'Fs 1' }))
    expect(first.statusCode, first.body).toBe(201)
    const url = `/files/${packageKey(first.json().sha256)}`
    // A real filesystem error: the packages folder replaced by a plain file (ENOTDIR on every access).
    const dir = `${t.filesDir}/packages`
    await rename(dir, `${dir}.away`)
    await writeFile(dir, 'not a folder')
    try {
      const res = await upload(t.app, 'fs-down-inn', storyPackage({ version: '2.0.0', title: 'Fs 2' }))
      expect(res.statusCode, res.body).toBe(503)
      expect(res.json()).toMatchObject({ statusCode: 503, code: 'STORAGE_UNAVAILABLE' })
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      const file = await t.app.inject({ url, headers: bearer('alice') })
      expect(file.statusCode).toBe(503)
      expect(file.json().code).toBe('STORAGE_UNAVAILABLE')
      expect(await filesIn(t.uploadsDir)).toEqual([])
    } finally {
      await rm(dir, { force: true })
      await rename(`${dir}.away`, dir)
    }
    const list = await t.app.inject({ url: '/api/stories/fs-down-inn/versions', headers: bearer('alice') })
    expect(list.json().items.map((v: { version: string }) => v.version)).toEqual(['1.0.0'])
    expect((await t.app.inject({ url, headers: bearer('alice') })).statusCode).toBe(200)
  })
})

describe('a deletion between the file put and the record insert', () => {
  /** The filesystem storage, where the file is deleted right after the upload's first put of it: what a deletion of
   * another version with the same bytes does when it runs between the put and the insert (it finds no record). */
  class RacedStorage extends FsStorage {
    raced = 0
    override async putFile(key: string, localPath: string, info: PutInfo): Promise<void> {
      await super.putFile(key, localPath, info)
      if (this.raced++ === 0) await this.delete(key)
    }
  }

  it('stores the file again under the lock: the committed version has its file', async () => {
    const storage = new RacedStorage({ root: `${t.filesDir}-raced` })
    const r = await buildPublishingApp({ storage })
    try {
      await createStory(r.app, 'raced-inn')
      const res = await upload(r.app, 'raced-inn', storyPackage())
      expect(res.statusCode, res.body).toBe(201)
      expect(storage.raced).toBe(2)
      expect(await storage.stat(packageKey(res.json().sha256))).not.toBeNull()
      const file = await r.app.inject({
        url: `/files/${packageKey(res.json().sha256)}`,
        headers: bearer('alice'),
      })
      expect(file.statusCode).toBe(200)
    } finally {
      await r.close()
    }
  })
})
