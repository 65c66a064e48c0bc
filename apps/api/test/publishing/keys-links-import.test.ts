/**
 * Author keys (a package signed by a key the uploader registered is `verified`), instruction links checked both
 * ways, and POST /api/stories/import against a fake repository host (HTTPS on 127.0.0.1, @spkg/repo-import's test
 * host): a release becomes a version with its repository, ref and commit; a refused repository is 422 with its
 * repo/* diagnostic and leaves no record. One file: one database for the three.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createChecksumFile } from '@spkg/integrity'
import { generateSigningKeys, signChecksum } from '@spkg/integrity/sign'
import { buildArchive, buildPackage, packageFiles } from '@spkg/test-utils'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type FakeHost,
  redirectTo,
  sendBytes,
  startFakeHost,
} from '../../../../packages/repo-import/test/fake-host'
import { makeZipball, SHA, storyRepository } from '../../../../packages/repo-import/test/zipball'
import { bearer, createStory, importingOptions, upload, usePublishingApp } from '../helpers/publishing'

let host: FakeHost
beforeAll(async () => {
  host = await startFakeHost()
}, 60_000)
afterAll(async () => host?.close(), 60_000)
// Closed before the host (afterAll hooks run in reverse order).
const t = usePublishingApp(() => importingOptions(host))

const enc = new TextEncoder()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

async function signedPackage(keys: Awaited<ReturnType<typeof generateSigningKeys>>, version: string) {
  const files = packageFiles({
    manifest: { title: 'Signed', version, signed: true, signature: keys.fingerprint },
    parts: { 'story/0001-a.sty': 'Hello.\n' },
  })
  files.set('META-PKG/author.pub', enc.encode(keys.publicKeyText))
  const checksum = createChecksumFile(new Map([...files].map(([k, v]) => [k, sha(v)])))
  files.set('META-PKG/checksum.sha256', checksum)
  files.set('META-PKG/signature.sig', enc.encode(await signChecksum(checksum, keys.secretKeyText)))
  return buildArchive(Object.fromEntries(files))
}

describe('author signing keys', () => {
  const putKeys = (keys: string[], headers = bearer('alice', 'creator')) =>
    t.app.inject({ method: 'PUT', url: '/api/auth/signing-keys', headers, payload: { keys } })

  it('marks a package signed by a registered key verified, and unverified before the key is registered', async () => {
    const keys = await generateSigningKeys()
    await createStory(t.app, 'signed-inn')
    const before = await upload(t.app, 'signed-inn', await signedPackage(keys, '1.0.0'))
    expect(before.statusCode, before.body).toBe(201)
    expect(before.json().signature).toBe('unverified')

    const put = await putKeys([keys.publicKeyText])
    expect(put.statusCode, put.body).toBe(200)
    expect(put.json().items).toEqual([expect.objectContaining({ fingerprint: keys.fingerprint })])
    const after = await upload(t.app, 'signed-inn', await signedPackage(keys, '2.0.0'))
    expect(after.json().signature).toBe('verified')
    const list = await t.app.inject({ url: '/api/stories/signed-inn/versions', headers: bearer('alice') })
    expect(
      list.json().items.map((v: { signature: string; signer: string | null }) => [v.signature, v.signer]),
    ).toEqual([
      ['verified', keys.fingerprint],
      ['unverified', keys.fingerprint],
    ])
  })

  it('refuses a key that is not a signify public key (400 SIGNING_KEY_INVALID); readers cannot register', async () => {
    const bad = await putKeys(['untrusted comment: x\nnot base64 at all\n'])
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 'SIGNING_KEY_INVALID' })
    const reader = await putKeys([], bearer('rita', 'reader'))
    expect(reader.statusCode).toBe(403)
  })
})

describe('instruction packages', () => {
  const instructionId = '22222222-3333-4444-8555-666666666666'
  const storyPkg = (instruction: string) =>
    buildPackage({
      manifest: { title: 'Guided', version: '1.0.0', instruction },
      parts: { 'story/0001-a.sty': 'Hello.\n' },
    })
  const instructionPkg = (stories: string[]) =>
    buildPackage({
      manifest: { id: instructionId, type: 'instruction', title: 'How to run it', version: '1.0.0', stories },
      parts: { 'story/0001-howto.sty': 'Prepare the room.\n' },
    })

  it('goes to a record of type instruction; a story record refuses it (409 PACKAGE_TYPE_MISMATCH)', async () => {
    await createStory(t.app, 'guided-inn')
    const wrong = await upload(t.app, 'guided-inn', instructionPkg(['guided-inn']))
    expect(wrong.statusCode).toBe(409)
    expect(wrong.json()).toMatchObject({ code: 'PACKAGE_TYPE_MISMATCH' })
    await createStory(t.app, 'guided-howto', 'alice', 'instruction')
    const ok = await upload(t.app, 'guided-howto', instructionPkg(['guided-inn']))
    expect(ok.statusCode, ok.body).toBe(201)
  })

  it('links a story to an instruction naming it back; warns when the instruction does not', async () => {
    const linked = await upload(t.app, 'guided-inn', storyPkg('guided-howto'))
    expect(linked.statusCode, linked.body).toBe(201)
    expect(linked.json().warnings.map((w: { code: string }) => w.code)).not.toContain(
      'api/instruction-not-linked-back',
    )
    const story = await t.app.inject({ url: '/api/stories/guided-inn', headers: bearer('alice') })
    expect(story.json().instruction).toBe('guided-howto')

    await createStory(t.app, 'lonely-inn')
    const lonely = await upload(
      t.app,
      'lonely-inn',
      buildPackage({
        manifest: {
          id: '33333333-3333-4444-8555-666666666666',
          title: 'Lonely',
          version: '1.0.0',
          instruction: instructionId,
        },
        parts: { 'story/0001-a.sty': 'Hello.\n' },
      }),
    )
    expect(lonely.statusCode, lonely.body).toBe(201)
    expect(lonely.json().warnings).toContainEqual(
      expect.objectContaining({ code: 'api/instruction-not-linked-back', severity: 'warning' }),
    )
    const versions = await t.app.inject({ url: '/api/stories/lonely-inn/versions', headers: bearer('alice') })
    expect(versions.json().items[0].warnings).toContainEqual(
      expect.objectContaining({ code: 'api/instruction-not-linked-back' }),
    )
  })
})

describe('instruction links across owners', () => {
  const mod = bearer('mia', 'moderator')
  const bobGuideId = '44444444-3333-4444-8555-666666666666'
  const story = (id: string, instruction: string, version = '1.0.0') =>
    buildPackage({
      manifest: { id, title: 'A tale', version, instruction },
      parts: { 'story/0001-a.sty': 'Hello.\n' },
    })
  const guide = (id: string, stories: string[]) =>
    buildPackage({
      manifest: { id, type: 'instruction', title: 'A guide', version: '1.0.0', stories },
      parts: { 'story/0001-howto.sty': 'Prepare the room.\n' },
    })
  const codes = (res: { json: () => { warnings: Array<{ code: string }> } }) =>
    res.json().warnings.map((w) => w.code)
  const publish = (slug: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/catalog/stories/${slug}`,
      headers: mod,
      payload: { published: true },
    })

  it("a story naming another creator's private instruction is not linked, and publishing it serves nothing of it", async () => {
    await createStory(t.app, 'bob-guide', 'bob', 'instruction')
    // Bob's guide even names Alice's story back: a link across owners still never forms by itself.
    const g = await upload(t.app, 'bob-guide', guide(bobGuideId, ['alice-tale']), 'bob')
    expect(g.statusCode, g.body).toBe(201)
    await createStory(t.app, 'alice-tale')
    const bySlug = await upload(
      t.app,
      'alice-tale',
      story('55555555-3333-4444-8555-666666666666', 'bob-guide'),
    )
    expect(bySlug.statusCode, bySlug.body).toBe(201)
    expect(codes(bySlug)).toContain('api/instruction-other-owner')
    expect(codes(bySlug)).not.toContain('api/instruction-not-linked-back')
    const byId = await upload(
      t.app,
      'alice-tale',
      story('55555555-3333-4444-8555-666666666666', bobGuideId, '2.0.0'),
    )
    expect(codes(byId)).toContain('api/instruction-other-owner')
    // Nor through the record: another creator's instruction is not found for this story.
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/stories/alice-tale',
      headers: bearer('alice', 'creator'),
      payload: { instruction: 'bob-guide' },
    })
    expect(put.statusCode).toBe(400)
    expect(put.json()).toMatchObject({ code: 'INSTRUCTION_NOT_FOUND' })
    expect(
      (await t.app.inject({ url: '/api/stories/alice-tale', headers: bearer('alice') })).json(),
    ).toMatchObject({
      instruction: null,
    })

    expect((await publish('alice-tale')).statusCode).toBe(200)
    const item = (await t.app.inject({ url: '/catalog/stories/alice-tale' })).json()
    expect(item).toMatchObject({ instruction: null, instructionPackage: null })
    const manifest = await t.app.inject({ url: '/catalog/stories/bob-guide/versions/1.0.0/manifest' })
    expect(manifest.statusCode).toBe(404)
    const file = await t.app.inject({ url: `/files/packages/${g.json().sha256}.spkg` })
    expect(file.statusCode).toBe(401) // private: its owner has published no story that links it
  })

  it("an instruction squatting the slug another creator's published story names is not linked", async () => {
    await createStory(t.app, 'bob-tale', 'bob')
    const s = await upload(
      t.app,
      'bob-tale',
      story('66666666-3333-4444-8555-666666666666', 'bob-howto'),
      'bob',
    )
    expect(codes(s)).toContain('api/instruction-not-found')
    expect((await publish('bob-tale')).statusCode).toBe(200)
    await createStory(t.app, 'bob-howto', 'alice', 'instruction')
    const squat = await upload(
      t.app,
      'bob-howto',
      guide('77777777-3333-4444-8555-666666666666', ['bob-tale']),
    )
    expect(squat.statusCode, squat.body).toBe(201)
    expect(codes(squat)).toContain('api/story-other-owner')
    const item = (await t.app.inject({ url: '/catalog/stories/bob-tale' })).json()
    expect(item).toMatchObject({ instruction: null, instructionPackage: null })
    const manifest = await t.app.inject({ url: '/catalog/stories/bob-howto/versions/1.0.0/manifest' })
    expect(manifest.statusCode).toBe(404)
    const file = await t.app.inject({ url: `/files/packages/${squat.json().sha256}.spkg` })
    expect(file.statusCode).toBe(401)
  })

  it("another creator's records holding the owner's package id do not hide the owner's own", async () => {
    const id = 'cccccccc-3333-4444-8555-666666666666'
    await createStory(t.app, 'zed-guide', 'zed', 'instruction')
    expect((await upload(t.app, 'zed-guide', guide(id, ['zed-tale']), 'zed')).statusCode).toBe(201)
    // 60 records of another creator with the same package id, whose slugs sort before the owner's.
    await t.tdb.db.execute(
      sql`insert into stories (slug, title, author, genre, content, type, owner_sub, package_id)
          select 'aa-squat-' || g, 'Squat', 'Mallory', 'other', '', 'instruction', 'mallory', ${id}::uuid
          from generate_series(1, 60) g`,
    )
    await createStory(t.app, 'zed-tale', 'zed')
    const res = await upload(t.app, 'zed-tale', story('dddddddd-3333-4444-8555-666666666666', id), 'zed')
    expect(res.statusCode, res.body).toBe(201)
    expect(codes(res).filter((c) => c.startsWith('api/'))).toEqual([])
    const rec = await t.app.inject({ url: '/api/stories/zed-tale', headers: bearer('zed') })
    expect(rec.json().instruction).toBe('zed-guide')
  })

  it('a package id several records of the owner hold links none of them', async () => {
    const shared = '88888888-3333-4444-8555-666666666666'
    for (const slug of ['twin-guide-a', 'twin-guide-b']) {
      await createStory(t.app, slug, 'carol', 'instruction')
      expect((await upload(t.app, slug, guide(shared, ['twin-tale']), 'carol')).statusCode).toBe(201)
    }
    await createStory(t.app, 'twin-tale', 'carol')
    const res = await upload(
      t.app,
      'twin-tale',
      story('99999999-3333-4444-8555-666666666666', shared),
      'carol',
    )
    expect(res.statusCode, res.body).toBe(201)
    expect(codes(res)).toContain('api/instruction-ambiguous')
    const rec = await t.app.inject({ url: '/api/stories/twin-tale', headers: bearer('carol') })
    expect(rec.json().instruction).toBeNull()
    // By slug it is one record: linked (same owner).
    const named = await upload(
      t.app,
      'twin-tale',
      story('99999999-3333-4444-8555-666666666666', 'twin-guide-b', '2.0.0'),
      'carol',
    )
    expect(codes(named).filter((c) => c.startsWith('api/'))).toEqual([])
    const linked = await t.app.inject({ url: '/api/stories/twin-tale', headers: bearer('carol') })
    expect(linked.json().instruction).toBe('twin-guide-b')
  })

  it('a link across owners recorded before this rule serves nothing, and migration 0008 removes it', async () => {
    await createStory(t.app, 'dan-tale', 'dan')
    expect(
      (await upload(t.app, 'dan-tale', story('aaaaaaaa-3333-4444-8555-666666666666', 'erin-guide'), 'dan'))
        .statusCode,
    ).toBe(201)
    await createStory(t.app, 'erin-guide', 'erin', 'instruction')
    const g = await upload(
      t.app,
      'erin-guide',
      guide('bbbbbbbb-3333-4444-8555-666666666666', ['dan-tale']),
      'erin',
    )
    expect(g.statusCode).toBe(201)
    expect((await publish('dan-tale')).statusCode).toBe(200)
    // What the previous code recorded: Dan's published story linking Erin's instruction.
    await t.tdb.db.execute(
      sql`update stories set instruction_id = (select id from stories where slug = 'erin-guide') where slug = 'dan-tale'`,
    )
    const manifest = await t.app.inject({ url: '/catalog/stories/erin-guide/versions/1.0.0/manifest' })
    expect(manifest.statusCode).toBe(404)
    expect((await t.app.inject({ url: `/files/packages/${g.json().sha256}.spkg` })).statusCode).toBe(401)
    await t.tdb.db.execute(
      sql.raw(
        readFileSync(new URL('../../drizzle/0008_instruction_same_owner.sql', import.meta.url), 'utf8'),
      ),
    )
    const rec = await t.app.inject({ url: '/api/stories/dan-tale', headers: bearer('dan') })
    expect(rec.json().instruction).toBeNull()
  })
})

const importIt = (payload: Record<string, unknown>, sub = 'alice') =>
  t.app.inject({ method: 'POST', url: '/api/stories/import', headers: bearer(sub, 'creator'), payload })

describe('importing a repository release', () => {
  it('publishes the release as a version with its repository, ref and commit', async () => {
    host.api.routes.set('/repos/owner/story/zipball/v1.2', redirectTo(`https://${host.download.host}/tag`))
    host.download.routes.set('/tag', sendBytes(makeZipball(storyRepository(), { comment: SHA })))
    const url = 'https://github.test.example/owner/story/tree/v1.2'
    const res = await importIt({ url })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ slug: 'story', version: '1.2.0', signature: 'unsigned' })
    const list = await t.app.inject({ url: '/api/stories/story/versions', headers: bearer('alice') })
    expect(list.json().items[0].source).toEqual({ kind: 'repository', url, ref: 'v1.2', commit: SHA })
    const again = await importIt({ url })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'VERSION_EXISTS' })
  })

  it('answers 422 with the repo/* diagnostic for a refused repository, and creates no record', async () => {
    const res = await importIt({ url: 'https://elsewhere.example/owner/story', slug: 'refused-story' })
    expect(res.statusCode).toBe(422)
    expect(res.json().diagnostics[0].code).toBe('repo/invalid-url')
    const missing = await t.app.inject({ url: '/api/stories/refused-story', headers: bearer('alice') })
    expect(missing.statusCode).toBe(404)
  })
})
