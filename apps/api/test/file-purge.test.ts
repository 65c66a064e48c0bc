/**
 * The CDN purge hook (takedown; src/publishing/file-purge.ts): files that stop being public are
 * POSTed to `FILES_PURGE_URL`, a real HTTP server on 127.0.0.1 here, through the `file_purges` outbox. The retry
 * waits run on an injected clock: a test moves it and asks for a delivery pass instead of waiting.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { filePurges, stories, storyVersions } from '../src/db/schema'
import { FsStorage } from '../src/storage/create-storage'
import { bearer, testAuthPlugin } from './helpers/app'
import { createTestDb, type TestDb } from './helpers/db'
import { insertStoredVersion, type StoredVersion } from './storage/fixtures'

interface Received {
  authorization: string | undefined
  contentType: string | undefined
  body: { urls: string[]; reason: string; story: string }
}

/** The operator's adapter: records each POST, answers with the next scripted status (200 when none is left). */
function receiver() {
  const received: Received[] = []
  const statuses: number[] = []
  const held: IncomingMessage[] = []
  let hold = false
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      })
      if (hold) {
        held.push(req)
        return
      }
      res.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  return {
    received,
    statuses,
    held,
    holdAnswers: () => {
      hold = true
    },
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/purge`),
        ),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const PUBLIC_URL = 'https://api.example.org'
const urlOf = (key: string) => `${PUBLIC_URL}/files/${key}`
const urls = (v: StoredVersion) => [urlOf(v.key), urlOf(v.coverKey)].sort()

let tmp: string
let tdb: TestDb
let storage: FsStorage
let hook: ReturnType<typeof receiver>
let app: FastifyInstance
let now = Date.now()
const config = (extra: Record<string, string> = {}) =>
  loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX_FACTOR: '100',
    PUBLIC_URL,
    ...extra,
  })

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spkg-file-purge-'))
  tdb = await createTestDb()
  storage = new FsStorage({ root: tmp })
  hook = receiver()
  const url = await hook.listen()
  app = await buildApp(config({ FILES_PURGE_URL: url, FILES_PURGE_TOKEN: 'purge-secret' }), {
    db: tdb.db,
    authPlugin: testAuthPlugin,
    storage,
    filePurge: { now: () => now, baseDelayMs: 5000 },
  })
  await app.ready()
}, 60_000)
afterAll(async () => {
  await app?.close()
  await hook?.close()
  await tdb?.dispose()
  await rm(tmp, { recursive: true, force: true })
})
beforeEach(() => {
  hook.received.length = 0
})

const moderator = bearer('mod', 'moderator')
/** How long a state may take to arrive on a loaded machine (a loop turn and a local HTTP round trip). */
const WAIT = { timeout: 10_000, interval: 20 }
const outboxRows = async () => (await tdb.db.select({ n: count() }).from(filePurges))[0]?.n ?? 0
const unpublish = async (slug: string) => {
  const r = await app.inject({
    method: 'PUT',
    url: `/catalog/stories/${slug}`,
    headers: moderator,
    payload: { published: false },
  })
  expect(r.statusCode, r.body).toBe(200)
}
const slug = (p: string) => `${p}-${randomBytes(3).toString('hex')}`
/** Waits (for the state, not a time) until the receiver has `n` requests and the outbox is empty. */
const delivered = async (n: number) => {
  await vi.waitFor(async () => {
    expect(hook.received).toHaveLength(n)
    expect(await outboxRows()).toBe(0)
  }, WAIT)
}

describe('the hook receives the addresses of files that stop being public', () => {
  it('unpublishing a story sends its package and cover addresses, with the token', async () => {
    const s = slug('unpublished')
    const v = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: s })
    await unpublish(s)
    await delivered(1)
    const [got] = hook.received
    expect(got?.authorization).toBe('Bearer purge-secret')
    expect(got?.contentType).toBe('application/json')
    expect({ ...got?.body, urls: got?.body.urls.slice().sort() }).toEqual({
      urls: urls(v),
      reason: 'unpublished',
      story: s,
    })
  })

  it('deleting the published version sends its addresses; a draft never published sends nothing', async () => {
    const draft = slug('draft')
    await insertStoredVersion(tdb.db, storage, { owner: 'alice', slug: draft })
    const r1 = await app.inject({
      method: 'DELETE',
      url: `/api/stories/${draft}/versions/1.0.0`,
      headers: bearer('alice', 'creator'),
    })
    expect(r1.statusCode, r1.body).toBe(204)

    const s = slug('deleted-version')
    const v = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: s })
    const r2 = await app.inject({
      method: 'DELETE',
      url: `/api/stories/${s}/versions/1.0.0`,
      headers: bearer('alice', 'creator'),
    })
    expect(r2.statusCode, r2.body).toBe(204)
    // Rows go out in order: had the draft's deletion queued one, it would be the first of two.
    await delivered(1)
    expect(hook.received[0]?.body.reason).toBe('version-deleted')
    expect(hook.received[0]?.body.story).toBe(s)
    expect(hook.received[0]?.body.urls.slice().sort()).toEqual(urls(v))
  })

  it('a file another published story still names is not sent', async () => {
    const bytes = randomBytes(4096)
    const a = slug('shared-a')
    const va = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: a, bytes })
    await insertStoredVersion(tdb.db, storage, {
      owner: 'bob',
      published: true,
      slug: slug('shared-b'),
      bytes,
    })
    await unpublish(a)
    await delivered(1)
    // The package's bytes are bob's published package too: only alice's cover stops being public.
    expect(hook.received[0]?.body.urls).toEqual([urlOf(va.coverKey)])
  })

  it('changing the published version sends the former version only', async () => {
    const s = slug('changed')
    const v1 = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: s })
    await tdb.db.insert(storyVersions).values({
      storyId: v1.storyId,
      version: '2.0.0',
      packageId: '00000000-0000-4000-8000-0000000000aa',
      sha256: 'b'.repeat(64),
      size: 10,
      signature: 'unsigned',
      manifest: {},
      uploaderSub: 'alice',
    })
    const r = await app.inject({
      method: 'PUT',
      url: `/catalog/stories/${s}`,
      headers: moderator,
      payload: { published: true, version: '2.0.0' },
    })
    expect(r.statusCode, r.body).toBe(200)
    await delivered(1)
    expect(hook.received[0]?.body.reason).toBe('published-version-changed')
    expect(hook.received[0]?.body.urls.slice().sort()).toEqual(urls(v1))
  })

  it('deleting a story sends the files its publication made public', async () => {
    const s = slug('deleted-story')
    const v = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: s })
    const r = await app.inject({
      method: 'DELETE',
      url: `/api/stories/${s}`,
      headers: bearer('alice', 'creator'),
    })
    expect(r.statusCode, r.body).toBe(204)
    await delivered(1)
    expect(hook.received[0]?.body).toMatchObject({ reason: 'story-deleted', story: s })
    expect(hook.received[0]?.body.urls.slice().sort()).toEqual(urls(v))
  })
  it("unlinking a published story's instruction sends the instruction's files", async () => {
    const s = slug('linking')
    const story = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: s })
    const guide = await insertStoredVersion(tdb.db, storage, { owner: 'alice', slug: slug('guide') })
    await tdb.db.update(stories).set({ type: 'instruction' }).where(eq(stories.id, guide.storyId))
    await tdb.db.update(stories).set({ instructionId: guide.storyId }).where(eq(stories.id, story.storyId))
    const r = await app.inject({
      method: 'PUT',
      url: `/api/stories/${s}`,
      headers: bearer('alice', 'creator'),
      payload: { instruction: null },
    })
    expect(r.statusCode, r.body).toBe(200)
    await delivered(1)
    expect(hook.received[0]?.body).toMatchObject({ reason: 'instruction-unlinked', story: s })
    expect(hook.received[0]?.body.urls.slice().sort()).toEqual(urls(guide))
  })
})

describe('delivery', () => {
  it('a failing receiver (500) is retried after its backoff, then delivered', async () => {
    hook.statuses.push(500)
    const s = slug('retried')
    const v = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: s })
    await unpublish(s)
    // The first attempt fails: the row waits for its retry, 5 s later on the purger's clock.
    await vi.waitFor(async () => {
      expect(hook.received).toHaveLength(1)
      const [row] = await tdb.db.select().from(filePurges)
      expect(row?.attempts).toBe(1)
      expect(row?.lastError).toBe('HTTP 500')
      expect(row?.nextAt.getTime()).toBe(now + 5000)
    }, WAIT)
    // Not due yet: a pass sends nothing.
    await app.filePurge.deliverDue()
    expect(hook.received).toHaveLength(1)
    now += 5000
    await app.filePurge.deliverDue()
    expect(hook.received).toHaveLength(2)
    expect(await outboxRows()).toBe(0)
    expect(hook.received[1]?.body.urls.slice().sort()).toEqual(urls(v))
    const metrics = await app.metrics.registry.getSingleMetricAsString('spkg_file_purge_attempts_total')
    expect(metrics).toMatch(/result="failed"} 1\b/)
    expect(metrics).toMatch(/result="delivered"} [1-9]/)
  })

  it('without FILES_PURGE_URL nothing is sent and nothing accumulates', async () => {
    const plain = await buildApp(config(), { db: tdb.db, authPlugin: testAuthPlugin, storage })
    try {
      await plain.ready()
      expect(plain.filePurge.enabled).toBe(false)
      const s = slug('no-hook')
      await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: s })
      const r = await plain.inject({
        method: 'PUT',
        url: `/catalog/stories/${s}`,
        headers: moderator,
        payload: { published: false },
      })
      expect(r.statusCode, r.body).toBe(200)
      expect(await outboxRows()).toBe(0)
      await plain.filePurge.deliverDue()
      expect(hook.received).toHaveLength(0)
    } finally {
      await plain.close()
    }
  })

  it('close() aborts a delivery under way and stops the loop; the row stays for the next start', async () => {
    hook.holdAnswers()
    const s = slug('closing')
    await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true, slug: s })
    await unpublish(s)
    await vi.waitFor(() => expect(hook.held).toHaveLength(1), WAIT)
    const aborted = new Promise<void>((resolve) => hook.held[0]?.socket.once('close', () => resolve()))
    await app.close()
    await aborted
    now += 3_600_000
    await app.filePurge.deliverDue()
    expect(hook.received).toHaveLength(1)
    const [row] = await tdb.db.select().from(filePurges).where(eq(filePurges.storySlug, s))
    expect(row?.attempts).toBe(1)
    expect(row?.givenUpAt).toBeNull()
  })
})

describe('FILES_PURGE_URL', () => {
  it('is https, or http to a loopback host; a token needs it', () => {
    expect(config({ FILES_PURGE_URL: 'https://cdn-adapter.example.org/purge' }).filesPurge).toEqual({
      url: 'https://cdn-adapter.example.org/purge',
    })
    expect(
      config({ FILES_PURGE_URL: 'http://127.0.0.1:9000/purge', FILES_PURGE_TOKEN: 't' }).filesPurge,
    ).toEqual({
      url: 'http://127.0.0.1:9000/purge',
      token: 't',
    })
    expect(() => config({ FILES_PURGE_URL: 'http://cdn-adapter.example.org/purge' })).toThrow(
      /FILES_PURGE_URL: must be an https:\/\/ URL/,
    )
    expect(() => config({ FILES_PURGE_TOKEN: 't' })).toThrow(
      /FILES_PURGE_TOKEN: is set but FILES_PURGE_URL is not/,
    )
    expect(config().filesPurge).toBeUndefined()
  })
})
