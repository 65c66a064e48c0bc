/**
 * @spkg/client's README against the real API: its usage example runs as written with a reader's token
 * (only `https://spkg.example` is replaced by the API's address) over a published story, saves progress under the
 * catalog entry's `packageId` (the manifest id), and prints what its comments say; the anonymous case its comment
 * names is 401 AUTH_MISSING_TOKEN.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, isApiClientError } from '@spkg/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storyPackage } from '../helpers/publishing'
import { type LiveApi, startLiveApi } from './harness'

const README = join(import.meta.dirname, '..', '..', '..', '..', 'packages', 'client', 'README.md')
const PACKAGE_ID = '7a2e5c1b-3d4f-4a6b-8c9d-0e1f2a3b4c5d'
const at = '2026-11-23T10:00:00.000Z'
const state = {
  format: 1,
  id: PACKAGE_ID,
  savedAt: at,
  variables: { gold: 3 },
  choices: {},
  visitedChoiceGroups: [],
  rng: { algorithm: 'mulberry32', seed: 1, state: 1 },
  visitedParts: [],
  renderedParagraph: 0,
}

let api: LiveApi
let dir = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spkg-client-readme-'))
  api = await startLiveApi(
    { 'ada-creator': ['creator'], 'mo-moderator': ['moderator'], 'rex-reader': ['reader'] },
    { FILES_DIR: join(dir, 'files'), UPLOAD_TMP_DIR: join(dir, 'uploads') },
  )
  const as = async (user: string) => ({ authorization: `Bearer ${await api.token(user)}` })
  const created = await fetch(`${api.origin}/api/stories`, {
    method: 'POST',
    headers: { ...(await as('ada-creator')), 'content-type': 'application/json' },
    body: JSON.stringify({
      slug: 'the-lighthouse',
      title: 'The Lighthouse',
      author: 'Ada',
      genre: 'mystery',
      content: '',
    }),
  })
  expect(created.status).toBe(201)
  const uploaded = await fetch(`${api.origin}/api/stories/the-lighthouse/versions`, {
    method: 'POST',
    headers: { ...(await as('ada-creator')), 'content-type': 'application/vnd.spkg+zip' },
    body: Buffer.from(storyPackage({ id: PACKAGE_ID, title: 'The Lighthouse' })),
  })
  expect(uploaded.status).toBe(201)
  const published = await fetch(`${api.origin}/catalog/stories/the-lighthouse`, {
    method: 'PUT',
    headers: { ...(await as('mo-moderator')), 'content-type': 'application/json' },
    body: JSON.stringify({ published: true }),
  })
  expect(published.status).toBe(200)
}, 60_000)
afterAll(async () => {
  await api?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the @spkg/client README on the real API', () => {
  it('runs the usage example: progress under the manifest id, 404 NOT_FOUND with a token', async () => {
    const readme = await readFile(README, 'utf8')
    const example = /## Usage\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? ''
    expect(example).toContain("createClient({ baseUrl: 'https://spkg.example'")
    const body = example.replace(/^import .*$/m, '').replace('https://spkg.example', api.origin)
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor
    const logged: unknown[][] = []
    const run = new AsyncFunction(
      'createClient',
      'isApiClientError',
      'accessToken',
      'showSignIn',
      'notice',
      'state',
      'console',
      body,
    )
    const create = (o: Parameters<typeof createClient>[0]) =>
      createClient({ ...o, connectivity: null, retry: 0 })
    await run(
      create,
      isApiClientError,
      await api.token('rex-reader'),
      () => undefined,
      () => undefined,
      state,
      {
        log: (...a: unknown[]) => logged.push(a),
      },
    )
    expect(logged).toEqual([[404, 'NOT_FOUND']])
    const reader = createClient({
      baseUrl: api.origin,
      getToken: () => api.token('rex-reader'),
      connectivity: null,
      retry: 0,
    })
    expect(await reader.progress.get(PACKAGE_ID)).toMatchObject({ state: { id: PACKAGE_ID }, revision: 1 })
    const entry = (await reader.catalog.stories()).items[0]
    expect(entry).toMatchObject({
      slug: 'the-lighthouse',
      packageId: PACKAGE_ID,
      package: { version: '1.0.0' },
    })
  })

  it('without a token GET /api/stories/nope is 401 AUTH_MISSING_TOKEN, as its comment says', async () => {
    const anonymous = createClient({
      baseUrl: api.origin,
      getToken: () => undefined,
      connectivity: null,
      retry: 0,
    })
    const error = await anonymous.request('GET', '/api/stories/nope').catch((e: unknown) => e)
    expect(isApiClientError(error, 'client/http')).toBe(true)
    expect(error).toMatchObject({ status: 401, body: { code: 'AUTH_MISSING_TOKEN' } })
  })
})
