/**
 * Publishing on the S3 driver (a real S3-protocol server on loopback, test/storage/s3-server.ts): the package
 * and its cover land in the bucket, a refused upload leaves no object, and the stored bytes read back.
 */
import { buffer } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packageKey } from '../../src/storage/index'
import {
  buildPublishingApp,
  createStory,
  type PublishingApp,
  storyPackage,
  upload,
} from '../helpers/publishing'
import { startTestS3, type TestS3 } from '../storage/s3-server'

let s3: TestS3
let t: PublishingApp
beforeAll(async () => {
  s3 = await startTestS3()
  t = await buildPublishingApp({ storage: await s3.storage() })
  await createStory(t.app, 's3-inn')
}, 60_000)
afterAll(async () => {
  await t?.close()
  await s3?.close()
}, 60_000)

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
