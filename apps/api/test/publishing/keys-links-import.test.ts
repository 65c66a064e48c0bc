/**
 * Author keys (a package signed by a key the uploader registered is `verified`), instruction links checked both
 * ways, and POST /api/stories/import against a fake repository host (HTTPS on 127.0.0.1, @spkg/repo-import's test
 * host): a release becomes a version with its repository, ref and commit; a refused repository is 422 with its
 * repo/* diagnostic and leaves no record. One file: one database for the three.
 */
import { createHash } from 'node:crypto'
import { createChecksumFile } from '@spkg/integrity'
import { generateSigningKeys, signChecksum } from '@spkg/integrity/sign'
import { buildArchive, buildPackage, packageFiles } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type FakeHost,
  redirectTo,
  sendBytes,
  startFakeHost,
} from '../../../../packages/repo-import/test/fake-host'
import { makeZipball, SHA, storyRepository } from '../../../../packages/repo-import/test/zipball'
import { bearer, buildPublishingApp, createStory, type PublishingApp, upload } from '../helpers/publishing'

let host: FakeHost
let t: PublishingApp
beforeAll(async () => {
  host = await startFakeHost()
  t = await buildPublishingApp({
    env: {
      REPO_HOST: 'github.test.example',
      REPO_API_HOST: host.api.host,
      REPO_DOWNLOAD_HOSTS: host.download.host,
    },
    repoNode: { ca: host.ca, allowPrivateAddresses: true },
  })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await host?.close()
}, 60_000)

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
  it('marks a package signed by a registered key verified, and unverified before the key is registered', async () => {
    const keys = await generateSigningKeys()
    await createStory(t.app, 'signed-inn')
    const before = await upload(t.app, 'signed-inn', await signedPackage(keys, '1.0.0'))
    expect(before.statusCode, before.body).toBe(201)
    expect(before.json().signature).toBe('unverified')

    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/signing-keys',
      headers: bearer('alice', 'creator'),
      payload: { keys: [keys.publicKeyText] },
    })
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
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/signing-keys',
      headers: bearer('alice', 'creator'),
      payload: { keys: ['untrusted comment: x\nnot base64 at all\n'] },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 'SIGNING_KEY_INVALID' })
    const reader = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/signing-keys',
      headers: bearer('rita', 'reader'),
      payload: { keys: [] },
    })
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
