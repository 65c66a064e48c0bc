/**
 * POST /api/stories/import with REPO_TOKEN set, against the fake repository host of
 * @spkg/repo-import's tests: the slug's ownership is checked before any request to the host, and the token goes
 * with public repositories only (the host's metadata answering `private: false`); a private or unknown one is 422
 * `api/repository-not-public` with nothing downloaded and no record left.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  answer,
  type FakeHost,
  redirectTo,
  sendBytes,
  startFakeHost,
} from '../../../../packages/repo-import/test/fake-host'
import { makeZipball, SHA, storyRepository } from '../../../../packages/repo-import/test/zipball'
import { bearer, createStory, importingOptions, usePublishingApp } from '../helpers/publishing'

const TOKEN = 'ghp_test-token-reads-private-repositories'
let host: FakeHost
beforeAll(async () => {
  host = await startFakeHost()
}, 60_000)
afterAll(async () => host?.close(), 60_000)
// Closed before the host (afterAll hooks run in reverse order).
const t = usePublishingApp(() => importingOptions(host, { REPO_TOKEN: TOKEN }))
beforeEach(() => host.reset())

const importIt = (payload: Record<string, unknown>, sub = 'alice') =>
  t.app.inject({ method: 'POST', url: '/api/stories/import', headers: bearer(sub, 'creator'), payload })

const requests = () => [...host.api.requests, ...host.download.requests, ...host.hostile.requests]

/** Serves `owner/<repo>`'s metadata and a release zipball. */
function repository(repo: string, metadata: Record<string, unknown> | null) {
  if (metadata) host.api.routes.set(`/repos/owner/${repo}`, answer(200, {}, JSON.stringify(metadata)))
  host.api.routes.set(`/repos/owner/${repo}/zipball/v1.2`, redirectTo(`https://${host.download.host}/z`))
  host.download.routes.set('/z', sendBytes(makeZipball(storyRepository(), { comment: SHA })))
}

describe('the slug is checked before any download', () => {
  it('answers 403 to a creator naming another creator’s story, with no request to the host', async () => {
    await createStory(t.app, 'bobs-inn', 'bob')
    repository('story', { private: false, visibility: 'public' })
    const named = await importIt({
      url: 'https://github.test.example/owner/story/tree/v1.2',
      slug: 'bobs-inn',
    })
    expect(named.statusCode, named.body).toBe(403)
    expect(named.json().code).toBe('FORBIDDEN')
    // The default slug is the repository's name: the same rule.
    repository('bobs-inn', { private: false, visibility: 'public' })
    const byName = await importIt({ url: 'https://github.test.example/owner/bobs-inn/tree/v1.2' })
    expect(byName.statusCode, byName.body).toBe(403)
    expect(requests()).toEqual([])
  })

  it('answers an invalid address with its repo/* diagnostic, with no request to the host', async () => {
    const res = await importIt({ url: 'https://github.test.example/owner/../x' })
    expect(res.statusCode).toBe(422)
    expect(res.json().diagnostics[0].code).toBe('repo/invalid-url')
    expect(requests()).toEqual([])
  })
})

describe('REPO_TOKEN goes with public repositories only', () => {
  it('refuses a private repository the token reads: 422 api/repository-not-public, nothing downloaded', async () => {
    repository('secret', { private: true, visibility: 'private' })
    const res = await importIt({ url: 'https://github.test.example/owner/secret/tree/v1.2' })
    expect(res.statusCode, res.body).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'PACKAGE_INVALID',
      diagnostics: [{ code: 'api/repository-not-public', severity: 'fatal' }],
    })
    expect(res.body).not.toContain(TOKEN)
    expect(host.api.requests.map((r) => r.path)).toEqual(['/repos/owner/secret'])
    expect(host.download.requests).toEqual([])
    const record = await t.app.inject({ url: '/api/stories/secret', headers: bearer('alice') })
    expect(record.statusCode).toBe(404)
  })

  it('refuses an internal repository and one the host does not show, with the same answer', async () => {
    repository('internal', { private: true, visibility: 'internal' })
    repository('missing', null) // metadata 404: unknown, or private and unreadable
    const internal = await importIt({ url: 'https://github.test.example/owner/internal/tree/v1.2' })
    const missing = await importIt({ url: 'https://github.test.example/owner/missing/tree/v1.2' })
    for (const res of [internal, missing]) {
      expect(res.statusCode, res.body).toBe(422)
      expect(res.json().diagnostics.map((d: { code: string }) => d.code)).toEqual([
        'api/repository-not-public',
      ])
    }
    expect(host.download.requests).toEqual([])
    expect(host.api.requests.map((r) => r.path)).toEqual(['/repos/owner/internal', '/repos/owner/missing'])
  })

  it('refuses a metadata answer that does not say private: false', async () => {
    repository('vague', { name: 'vague' })
    const res = await importIt({ url: 'https://github.test.example/owner/vague/tree/v1.2' })
    expect(res.statusCode, res.body).toBe(422)
    expect(res.json().diagnostics[0].code).toBe('api/repository-not-public')
    expect(host.api.requests.map((r) => r.path)).toEqual(['/repos/owner/vague'])
  })

  it('imports a public repository, sending the token to the API host', async () => {
    repository('open', { private: false, visibility: 'public' })
    const res = await importIt({ url: 'https://github.test.example/owner/open/tree/v1.2' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ slug: 'open', version: '1.2.0' })
    expect(host.api.requests).toEqual([
      { path: '/repos/owner/open', authorization: `Bearer ${TOKEN}` },
      { path: '/repos/owner/open/zipball/v1.2', authorization: `Bearer ${TOKEN}` },
    ])
    expect(host.download.requests.map((r) => r.authorization)).toEqual([undefined])
  })
})

describe('an import fits its connection', () => {
  const slow = usePublishingApp(() => importingOptions(host, { REPO_TIMEOUT_MS: '1000' }))

  it('gives up a download that outlasts REPO_TIMEOUT_MS with repo/timeout, storing nothing', async () => {
    host.api.routes.set('/repos/owner/stalls/zipball/v1.2', redirectTo(`https://${host.download.host}/z`))
    // The archive never comes: before, the route waited 120 s, past the connection timeout (70 s).
    host.download.routes.set('/z', () => {})
    const res = await slow.app.inject({
      method: 'POST',
      url: '/api/stories/import',
      headers: bearer('alice', 'creator'),
      payload: { url: 'https://github.test.example/owner/stalls/tree/v1.2' },
    })
    expect(res.statusCode, res.body).toBe(422)
    expect(res.json().diagnostics[0]).toMatchObject({ code: 'repo/timeout' })
    expect(res.json().diagnostics[0].message).toContain('1000 ms')
    const stored = await slow.app.inject({ url: '/api/stories/stalls', headers: bearer('alice', 'creator') })
    expect(stored.statusCode).toBe(404)
  })
})
