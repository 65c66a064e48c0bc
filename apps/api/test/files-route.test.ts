/**
 * The files routes over a real database (PGlite, or PostgreSQL with DATABASE_URL) and both storage drivers
 * (filesystem; S3 through s3rver on 127.0.0.1): access rule, ranges, conditional requests, headers, errors,
 * and a range client reading a served package over a real socket.
 */
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import type { FileStorage } from '../src/storage/create-storage'
import { bearer, testAuthPlugin } from './helpers/app'
import { createTestDb, type TestDb } from './helpers/db'
import { insertStoredVersion, publish, type StoredVersion, sha256 } from './storage/fixtures'
import { buildFilesApp, tmpDirAndS3 } from './storage/per-file'

const shared = tmpDirAndS3('spkg-files-')

describe.each(shared.drivers)('files routes (%s storage)', (_name, makeStorage) => {
  let tdb: TestDb
  let app: FastifyInstance
  let storage: FileStorage
  let draft: StoredVersion
  let live: StoredVersion
  const url = (v: StoredVersion) => `/files/${v.key}`

  beforeAll(async () => {
    tdb = await createTestDb()
    storage = await makeStorage()
    app = await buildFilesApp(tdb.db, storage)
    draft = await insertStoredVersion(tdb.db, storage, { owner: 'alice' })
    live = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true })
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await tdb?.dispose()
  })

  it('serves a published package to anyone, with the file headers', async () => {
    const r = await app.inject({ url: url(live) })
    expect(r.statusCode).toBe(200)
    expect(r.rawPayload.equals(Buffer.from(live.bytes))).toBe(true)
    expect(r.headers['content-type']).toBe('application/vnd.spkg+zip')
    expect(r.headers['content-length']).toBe(String(live.bytes.length))
    expect(r.headers['accept-ranges']).toBe('bytes')
    expect(r.headers.etag).toBe(`"${sha256(live.bytes)}"`)
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(r.headers['x-content-type-options']).toBe('nosniff')
    expect(r.headers['cross-origin-resource-policy']).toBe('cross-origin')
  })

  it('serves a cover with its stored type', async () => {
    const r = await app.inject({ url: `/files/${live.coverKey}` })
    expect(r.statusCode).toBe(200)
    expect(r.headers['content-type']).toBe('image/png')
    expect(r.rawPayload.equals(Buffer.from(live.cover))).toBe(true)
  })

  it('files of unpublished versions: owner, moderators and administrators only', async () => {
    const anon = await app.inject({ url: url(draft) })
    expect(anon.statusCode).toBe(401)
    expect(anon.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' })
    const bad = await app.inject({ url: url(draft), headers: { authorization: 'Bearer nonsense' } })
    expect(bad.statusCode).toBe(401)
    const other = await app.inject({ url: url(draft), headers: bearer('bob', 'creator') })
    expect(other.statusCode).toBe(403)
    expect(other.json()).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' })
    for (const h of [
      bearer('alice', 'creator'),
      bearer('mod', 'moderator'),
      bearer('root', 'administrator'),
    ]) {
      const r = await app.inject({ url: url(draft), headers: h })
      expect(r.statusCode).toBe(200)
      expect(r.headers['cache-control']).toBe('private, no-cache')
      expect(r.headers.vary).toContain('Authorization')
      expect(r.rawPayload.equals(Buffer.from(draft.bytes))).toBe(true)
    }
    const cover = await app.inject({ url: `/files/${draft.coverKey}` })
    expect(cover.statusCode).toBe(401)
  })

  it('publishing makes the file public', async () => {
    const v = await insertStoredVersion(tdb.db, storage, { owner: 'carol' })
    expect((await app.inject({ url: url(v) })).statusCode).toBe(401)
    await publish(tdb.db, v.storyId, v.versionId)
    expect((await app.inject({ url: url(v) })).statusCode).toBe(200)
  })

  it('single ranges give 206 with Content-Range', async () => {
    const size = live.bytes.length
    const cases: Array<[string, number, number]> = [
      ['bytes=0-9', 0, 9],
      ['bytes=100-', 100, size - 1],
      ['bytes=-22', size - 22, size - 1],
      [`bytes=${size - 1}-${size + 500}`, size - 1, size - 1],
    ]
    for (const [range, start, end] of cases) {
      const r = await app.inject({ url: url(live), headers: { range } })
      expect(r.statusCode, range).toBe(206)
      expect(r.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`)
      expect(r.headers['content-length']).toBe(String(end - start + 1))
      expect(r.rawPayload.equals(Buffer.from(live.bytes.subarray(start, end + 1)))).toBe(true)
    }
  })

  it('unsatisfiable ranges give 416 with bytes */size; other forms the whole file', async () => {
    const size = live.bytes.length
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const r = await app.inject({ url: url(live), headers: { range } })
      expect(r.statusCode, range).toBe(416)
      expect(r.headers['content-range']).toBe(`bytes */${size}`)
      expect(r.json()).toMatchObject({ statusCode: 416, code: 'RANGE_NOT_SATISFIABLE' })
    }
    for (const range of ['bytes=0-1,5-9', 'items=0-5', 'bytes=9-2', 'bytes=x-y']) {
      const r = await app.inject({ url: url(live), headers: { range } })
      expect(r.statusCode, range).toBe(200)
      expect(r.rawPayload.length).toBe(size)
    }
  })

  it('If-None-Match gives 304; If-Range keeps the range only on the ETag', async () => {
    const etag = `"${sha256(live.bytes)}"`
    for (const inm of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
      const r = await app.inject({ url: url(live), headers: { 'if-none-match': inm } })
      expect(r.statusCode, inm).toBe(304)
      expect(r.rawPayload.length).toBe(0)
      expect(r.headers.etag).toBe(etag)
    }
    expect((await app.inject({ url: url(live), headers: { 'if-none-match': '"other"' } })).statusCode).toBe(
      200,
    )
    const kept = await app.inject({ url: url(live), headers: { range: 'bytes=0-3', 'if-range': etag } })
    expect(kept.statusCode).toBe(206)
    const whole = await app.inject({ url: url(live), headers: { range: 'bytes=0-3', 'if-range': '"stale"' } })
    expect(whole.statusCode).toBe(200)
    expect(whole.rawPayload.length).toBe(live.bytes.length)
    const dated = await app.inject({
      url: url(live),
      headers: { range: 'bytes=0-3', 'if-range': 'Wed, 21 Oct 2026 07:28:00 GMT' },
    })
    expect(dated.statusCode).toBe(200)
  })

  it('HEAD answers the headers without a body', async () => {
    const r = await app.inject({ method: 'HEAD', url: url(live) })
    expect(r.statusCode).toBe(200)
    expect(r.headers['content-length']).toBe(String(live.bytes.length))
    expect(r.headers.etag).toBe(`"${sha256(live.bytes)}"`)
    expect(r.rawPayload.length).toBe(0)
    const ranged = await app.inject({ method: 'HEAD', url: url(live), headers: { range: 'bytes=0-9' } })
    expect(ranged.statusCode).toBe(206)
    expect(ranged.headers['content-length']).toBe('10')
  })

  it('unknown and malformed names are 404 in the API error body', async () => {
    for (const path of [
      `/files/packages/${'0'.repeat(64)}.spkg`,
      `/files/packages/${'A'.repeat(64)}.spkg`,
      '/files/packages/..%2F..%2Fetc%2Fpasswd',
      `/files/covers/${'0'.repeat(64)}.exe`,
      `/files/packages/${live.key.slice(9, 73)}.png`,
    ]) {
      const r = await app.inject({ url: path })
      expect(r.statusCode, path).toBe(404)
      expect(r.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' })
    }
  })

  it('a range client reads a served package over a real socket', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address() as { port: number }
    const base = `http://127.0.0.1:${address.port}${url(live)}`
    const size = Number(
      (await fetch(base, { method: 'HEAD', signal: AbortSignal.timeout(10_000) })).headers.get(
        'content-length',
      ),
    )
    const parts: Buffer[] = []
    for (let start = 0; start < size; start += 1000) {
      const end = Math.min(size, start + 1000) - 1
      const r = await fetch(base, {
        headers: { range: `bytes=${start}-${end}` },
        signal: AbortSignal.timeout(10_000),
      })
      expect(r.status).toBe(206)
      parts.push(Buffer.from(await r.arrayBuffer()))
    }
    expect(sha256(Buffer.concat(parts))).toBe(sha256(live.bytes))
  })
})

describe('files routes: configuration and description', () => {
  let tdb: TestDb
  let app: FastifyInstance
  beforeAll(async () => {
    tdb = await createTestDb()
    app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        FILES_URL: 'https://cdn.example.org/f',
        FILES_DIR: join(shared.tmp, 'cfg'),
      }),
      { db: tdb.db, authPlugin: testAuthPlugin },
    )
    await app.ready()
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await tdb?.dispose()
  })

  it('FILES_URL gives public addresses; /files is still served', async () => {
    expect(app.storage.publicUrl(`packages/${'a'.repeat(64)}.spkg`)).toBe(
      `https://cdn.example.org/f/packages/${'a'.repeat(64)}.spkg`,
    )
    const v = await insertStoredVersion(tdb.db, app.storage, { owner: 'dan', published: true })
    expect((await app.inject({ url: `/files/${v.key}` })).statusCode).toBe(200)
  })

  it('the routes are in the OpenAPI description with examples', async () => {
    const doc = (await app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Array<{ name: string; example?: unknown; examples?: unknown }>
            responses: Record<string, unknown>
          }
        >
      >
    }
    for (const [p, ext] of [
      ['/files/packages/{file}', '.spkg'],
      ['/files/covers/{file}', '.png'],
    ] as const) {
      const get = doc.paths[p]?.get
      expect(get, p).toBeDefined()
      expect(Object.keys(get!.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '404', '416']))
      const file = get!.parameters?.find((x) => x.name === 'file')
      expect(String(file?.example)).toMatch(new RegExp(`^[0-9a-f]{64}\\${ext}$`))
      expect(doc.paths[p]?.head, p).toBeDefined()
    }
  })
})
