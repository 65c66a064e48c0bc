/**
 * Publishing on the S3 driver (a real S3-protocol server on loopback, test/storage/s3-server.ts): the package
 * and its cover land in the bucket, a refused upload leaves no object, and the stored bytes read back. With the
 * server stopped (connections refused) or silent (a socket that never answers), requests that need the storage
 * are 503 STORAGE_UNAVAILABLE with Retry-After, never 500, and nothing is left half-done.
 */
import { createServer, type Server, type Socket } from 'node:net'
import { buffer } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packageKey, S3Storage, StorageError } from '../../src/storage/create-storage'
import { bearer, createStory, storyPackage, upload, usePublishingApp } from '../helpers/publishing'
import { S3_TEST_CREDENTIALS, startTestS3, type TestS3 } from '../storage/s3-server'

let s3: TestS3
beforeAll(async () => {
  s3 = await startTestS3()
}, 60_000)
afterAll(async () => s3?.close(), 60_000)
// Closed before the server (afterAll hooks run in reverse order).
const t = usePublishingApp(async () => ({ storage: await s3.storage() }), 's3-inn')

describe('publishing on S3', () => {
  it('stores the package and its cover in the bucket, and nothing for a refused upload', async () => {
    const bytes = storyPackage()
    const res = await upload(t.app, 's3-inn', bytes)
    expect(res.statusCode, res.body).toBe(201)
    const { sha256 } = res.json()
    expect(t.storage.driver).toBe('s3')
    const stream = await t.storage.read(packageKey(sha256))
    expect(stream).not.toBeNull()
    expect(new Uint8Array(await buffer(stream as NodeJS.ReadableStream))).toEqual(bytes)
    expect(await t.storage.list('covers/', 10)).toHaveLength(1)

    const again = await upload(t.app, 's3-inn', storyPackage({ title: 'Other bytes' }))
    expect(again.statusCode).toBe(409)
    expect(await t.storage.list('packages/', 10)).toHaveLength(1)
  })
})

describe('S3 unreachable', () => {
  it('answers 503 STORAGE_UNAVAILABLE with Retry-After while the server is stopped, and works again after', async () => {
    await createStory(t.app, 'down-inn')
    const first = await upload(t.app, 'down-inn', storyPackage({ version: '1.0.0', title: 'Down 1' }))
    expect(first.statusCode, first.body).toBe(201)
    const url = `/files/${packageKey(first.json().sha256)}`
    const owner = bearer('alice')
    await s3.stop()
    try {
      const res = await upload(t.app, 'down-inn', storyPackage({ version: '2.0.0', title: 'Down 2' }))
      expect(res.statusCode, res.body).toBe(503)
      expect(res.json()).toEqual({
        statusCode: 503,
        code: 'STORAGE_UNAVAILABLE',
        message: 'The file storage is unavailable; retry shortly',
      })
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      const file = await t.app.inject({ url, headers: owner })
      expect(file.statusCode).toBe(503)
      expect(file.json().code).toBe('STORAGE_UNAVAILABLE')
      expect(file.headers['retry-after']).toBeDefined()
      // No version was recorded for the refused upload.
      const list = await t.app.inject({ url: '/api/stories/down-inn/versions', headers: owner })
      expect(list.json().items.map((v: { version: string }) => v.version)).toEqual(['1.0.0'])
      // Deleting a version commits, and its file, which cannot be removed now, is left for the sweep.
      const del = await t.app.inject({
        method: 'DELETE',
        url: '/api/stories/down-inn/versions/1.0.0',
        headers: bearer('alice', 'creator'),
      })
      expect(del.statusCode).toBe(204)
    } finally {
      await s3.start()
    }
    expect(await t.storage.stat(packageKey(first.json().sha256))).not.toBeNull()
    const again = await upload(t.app, 'down-inn', storyPackage({ version: '2.0.0', title: 'Down 2' }))
    expect(again.statusCode, again.body).toBe(201)
  })

  it('gives up on a service that accepts connections but never answers', async () => {
    const sockets = new Set<Socket>()
    const silent: Server = createServer((socket) => {
      sockets.add(socket)
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    const storage = new S3Storage({
      bucket: 'silent',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: S3_TEST_CREDENTIALS,
      connectTimeoutMs: 200,
      idleTimeoutMs: 200,
    })
    try {
      const started = performance.now()
      const err = await storage.stat(packageKey('a'.repeat(64))).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(StorageError)
      expect(err).toMatchObject({ code: 'STORAGE_UNAVAILABLE' })
      // Three attempts of 200 ms each and the SDK's back-off, not forever.
      expect(performance.now() - started).toBeLessThan(10_000)
    } finally {
      storage.close()
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })
})
