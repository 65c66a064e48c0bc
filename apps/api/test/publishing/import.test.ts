/**
 * POST /api/stories/import against a fake repository host (HTTPS on 127.0.0.1, @spkg/repo-import's test host): a
 * release becomes a version with its repository, ref and commit; a refused repository is 422 with its repo/*
 * diagnostic and leaves no record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type FakeHost,
  redirectTo,
  sendBytes,
  startFakeHost,
} from '../../../../packages/repo-import/test/fake-host'
import { makeZipball, SHA, storyRepository } from '../../../../packages/repo-import/test/zipball'
import { bearer, buildPublishingApp, type PublishingApp } from '../helpers/publishing'

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
