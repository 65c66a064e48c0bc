import { createStateStore } from '@spkg/state'
import { createHttpDriver } from '@spkg/state/drivers/http'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '../src/db/connection'
import { bearer, useTestApp } from './helpers/app'

const t = useTestApp()

const state = (id: string, renderedParagraph = 0) => ({
  format: 1,
  id,
  variables: { gold: 3 },
  choices: {},
  visitedChoiceGroups: [],
  rng: { algorithm: 'mulberry32', seed: 1, state: 2 },
  visitedParts: [],
  renderedParagraph,
})
const me = bearer('reader-1', 'reader')

const put = (storyId: string, body: unknown, headers: Record<string, string> = {}, who = me) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/progress/${storyId}`,
    headers: { ...who, ...headers },
    payload: body as object,
  })

describe('/api/progress/:storyId', () => {
  it('saves, reads with the revision in ETag, and refuses a stale write with 412', async () => {
    const first = await put('story-a', state('story-a'), { 'if-none-match': '*' })
    expect(first.statusCode).toBe(201)
    expect(first.headers.etag).toBe('"1"')
    const read = await t.app.inject({ url: '/api/progress/story-a', headers: me })
    expect(read.statusCode).toBe(200)
    expect(read.headers.etag).toBe('"1"')
    expect(read.json()).toMatchObject({ id: 'story-a', variables: { gold: 3 } })
    // device A writes on revision 1
    const a = await put('story-a', state('story-a', 5), { 'if-match': '"1"' })
    expect(a.statusCode).toBe(200)
    expect(a.headers.etag).toBe('"2"')
    // device B still holds revision 1
    const b = await put('story-a', state('story-a', 9), { 'if-match': '"1"' })
    expect(b.statusCode).toBe(412)
    expect(b.headers.etag).toBe('"2"')
    expect(b.json()).toMatchObject({ statusCode: 412, code: 'PRECONDITION_FAILED' })
    const after = await t.app.inject({ url: '/api/progress/story-a', headers: me })
    expect(after.json().renderedParagraph).toBe(5)
    // stored as the text of a JSON object (not of a JSON string) on both drivers
    const [row] = await queryRows<{ t: string }>(
      t.tdb.db,
      sql`select jsonb_typeof(state::jsonb) as t from reading_progress limit 1`,
    )
    expect(row?.t).toBe('object')
  })

  it('refuses overwriting without If-Match (428) and a second first save (412)', async () => {
    expect((await put('story-b', state('story-b'))).statusCode).toBe(201)
    const again = await put('story-b', state('story-b'))
    expect(again.statusCode).toBe(428)
    expect(again.json().code).toBe('PRECONDITION_REQUIRED')
    expect((await put('story-b', state('story-b'), { 'if-none-match': '*' })).statusCode).toBe(412)
    expect((await put('story-b', state('story-b'), { 'if-match': 'garbage' })).statusCode).toBe(400)
  })

  it('keeps each caller apart', async () => {
    await put('story-c', state('story-c'), { 'if-none-match': '*' })
    const other = await t.app.inject({ url: '/api/progress/story-c', headers: bearer('reader-2', 'reader') })
    expect(other.statusCode).toBe(404)
    expect((await t.app.inject({ url: '/api/progress/story-c' })).statusCode).toBe(401)
  })

  it('validates the body with the reading-state schema', async () => {
    for (const body of [
      {},
      { ...state('x'), format: 2 },
      { ...state('x'), rng: { algorithm: 'xorshift', seed: 1, state: 1 } },
      [1, 2],
    ]) {
      const res = await put('story-d', body)
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('VALIDATION_FAILED')
    }
  })

  it('refuses a state whose id is not the key (400 READING_STATE_OTHER_STORY) and stores nothing', async () => {
    const manifestId = '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14'
    // A state of the manifest's UUID put under the slug as its key (the key a client may mix up), as a first save.
    const bySlug = await put('crooked-inn', state(manifestId), { 'if-none-match': '*' })
    expect(bySlug.statusCode).toBe(400)
    expect(bySlug.json()).toEqual({
      statusCode: 400,
      code: 'READING_STATE_OTHER_STORY',
      message: `body.id: the reading state belongs to story "${manifestId}"; save it at /api/progress/${manifestId}, not under "crooked-inn"`,
    })
    expect((await t.app.inject({ url: '/api/progress/crooked-inn', headers: me })).statusCode).toBe(404)
    // Nor can another story's state replace a saved one, whatever the precondition.
    expect((await put('story-e', state('story-e', 1), { 'if-none-match': '*' })).statusCode).toBe(201)
    const preconditions: Record<string, string>[] = [{ 'if-match': '"1"' }, { 'if-match': '*' }, {}]
    for (const headers of preconditions) {
      const res = await put('story-e', state('story-f', 2), headers)
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('READING_STATE_OTHER_STORY')
    }
    const kept = await t.app.inject({ url: '/api/progress/story-e', headers: me })
    expect(kept.headers.etag).toBe('"1"')
    expect(kept.json()).toMatchObject({ id: 'story-e', renderedParagraph: 1 })
    // The key is compared as decoded from the path: an id with a slash or a space matches its encoding.
    const odd = 'dir/a story'
    expect((await put(encodeURIComponent(odd), state(odd))).statusCode).toBe(201)
  })

  it('saves the state of a story the platform does not have (a package opened from a file)', async () => {
    // The player saves progress of every story it plays under the manifest id, catalog or not
    // (apps/player/src/state/storage.ts); #/progress lists such states as "A story not in the catalog".
    const local = 'a0a0a0a0-0000-4000-8000-000000000001'
    const saved = await put(local, state(local), { 'if-none-match': '*' })
    expect(saved.statusCode).toBe(201)
    expect(saved.json()).toMatchObject({ storyId: local, revision: 1 })
  })

  it('lists and deletes saved states', async () => {
    const list = await t.app.inject({ url: '/api/progress', headers: me })
    const keys = list.json().items.map((i: { key: string }) => i.key)
    expect(keys).toEqual(expect.arrayContaining(['story-a', 'story-b', 'story-c']))
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/progress/story-c',
          headers: { ...me, 'if-match': '"7"' },
        })
      ).statusCode,
    ).toBe(412)
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/progress/story-c', headers: me })).statusCode,
    ).toBe(204)
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/progress/story-c', headers: me })).statusCode,
    ).toBe(404)
  })

  it('speaks the protocol of the @spkg/state http driver', async () => {
    const fetchViaInject: typeof fetch = async (input, init) => {
      const url = new URL(String(input))
      const res = await t.app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: url.pathname + url.search,
        headers: { ...(init?.headers as Record<string, string>), ...bearer('driver-user', 'reader') },
        ...(init?.body !== undefined && init.body !== null && { payload: String(init.body) }),
      })
      return new Response(res.statusCode === 204 ? null : res.body, {
        status: res.statusCode,
        headers: res.headers as Record<string, string>,
      })
    }
    const driver = createHttpDriver({ baseUrl: 'http://api.test/api/progress', fetch: fetchViaInject })
    const phone = createStateStore(driver)
    const laptop = createStateStore(driver)
    expect((await phone.load('tale')).state).toBeUndefined()
    expect((await laptop.load('tale')).state).toBeUndefined()
    await phone.save('tale', state('tale', 1) as never)
    await expect(laptop.save('tale', state('tale', 2) as never)).rejects.toMatchObject({
      code: 'state/conflict',
    })
    const loaded = await laptop.load('tale')
    expect(loaded.state?.renderedParagraph).toBe(1)
    await laptop.save('tale', state('tale', 2) as never)
    expect((await phone.load('tale')).state?.renderedParagraph).toBe(2)
    expect(await phone.list()).toEqual(['tale'])
  })
})
