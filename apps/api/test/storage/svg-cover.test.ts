/**
 * SVG covers on the files origin. An SVG can carry script; opened by itself (a navigation to its
 * address) on the files origin it would run there. Both drivers store SVG covers with `Content-Disposition:
 * attachment` (S3 serves it from the bucket itself, s3rver here), and the files route sends every file with a
 * sandboxing policy and `nosniff`. The headers a client gets are read the way a browser decides whether a
 * navigation renders the document and runs its script (checked by hand in Chromium 156: such an SVG still displays
 * in an `<img>`, and a navigation downloads it; the same SVG without the headers runs its script).
 */
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storyVersions } from '../../src/db/schema'
import { COVER_TYPES, coverKey } from '../../src/storage/create-storage'
import { createTestDb, type TestDb } from '../helpers/db'
import { insertStoredVersion, sha256 } from './fixtures'
import { buildFilesApp, tmpDirAndS3 } from './per-file'

const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" onload="fetch(\'/x\')">' +
    '<rect width="40" height="30" fill="red"/><script>fetch("/y")</script></svg>',
)
const SVG_KEY = coverKey(sha256(SVG), 'svg')

type Headers = Record<string, string | string[] | number | undefined>
const header = (h: Headers, name: string) => {
  const v = h[name.toLowerCase()]
  return v === undefined ? undefined : String(v)
}

/**
 * Whether a browser navigating to an answer with these headers would render it as a document and run its script:
 * not when it is an attachment (downloaded), and not under a policy that sandboxes it without `allow-scripts` or
 * allows no script source. Only `nosniff` keeps a browser from guessing another type.
 */
function navigationRunsScript(h: Headers): boolean {
  const disposition = header(h, 'content-disposition')?.trim().toLowerCase()
  if (disposition?.startsWith('attachment')) return false
  const directives = new Map(
    (header(h, 'content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values] as const),
  )
  const sandbox = directives.get('sandbox')
  if (sandbox && !sandbox.includes('allow-scripts')) return false
  const scripts = directives.get('script-src') ?? directives.get('default-src')
  if (scripts?.length === 1 && scripts[0] === "'none'") return false
  return true
}

const shared = tmpDirAndS3('spkg-svg-cover-')

describe('the check itself', () => {
  it('says a plain SVG answer, or one under the API policy, runs script', () => {
    expect(navigationRunsScript({ 'content-type': 'image/svg+xml' })).toBe(true)
    expect(
      navigationRunsScript({
        'content-security-policy': "default-src 'self'; script-src 'self'; img-src 'self'",
      }),
    ).toBe(true)
    expect(navigationRunsScript({ 'content-security-policy': 'sandbox allow-scripts' })).toBe(true)
  })
})

describe('the S3 driver stores SVG covers as attachments', () => {
  it('the bucket itself answers an SVG cover with Content-Disposition: attachment, a PNG without', async () => {
    const storage = await shared.s3.storage()
    await storage.putBytes(SVG_KEY, SVG, { sha256: sha256(SVG), contentType: COVER_TYPES.svg as string })
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])
    const pngKey = coverKey(sha256(png), 'png')
    await storage.putBytes(pngKey, png, { sha256: sha256(png), contentType: COVER_TYPES.png as string })
    const head = await storage.client.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: SVG_KEY }))
    expect(head.ContentDisposition).toBe('attachment')
    expect(head.ContentType).toBe('image/svg+xml')
    const got = await storage.client.send(new GetObjectCommand({ Bucket: storage.bucket, Key: SVG_KEY }))
    await got.Body?.transformToByteArray()
    expect(got.ContentDisposition).toBe('attachment')
    expect(navigationRunsScript({ 'content-disposition': got.ContentDisposition })).toBe(false)
    const pngHead = await storage.client.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: pngKey }))
    expect(pngHead.ContentDisposition).toBeUndefined()
  })
})

describe.each(shared.drivers)(
  'the files route serves an SVG cover inertly (%s storage)',
  (_name, makeStorage) => {
    let tdb: TestDb
    let app: FastifyInstance

    beforeAll(async () => {
      tdb = await createTestDb()
      const storage = await makeStorage()
      app = await buildFilesApp(tdb.db, storage)
      const v = await insertStoredVersion(tdb.db, storage, { owner: 'alice', published: true })
      await storage.putBytes(SVG_KEY, SVG, { sha256: sha256(SVG), contentType: COVER_TYPES.svg as string })
      await tdb.db.update(storyVersions).set({ coverKey: SVG_KEY }).where(eq(storyVersions.id, v.versionId))
    }, 60_000)
    afterAll(async () => {
      await app?.close()
      await tdb?.dispose()
    })

    it('answers with the SVG type, attachment, a sandboxing policy and nosniff: a navigation runs nothing', async () => {
      for (const method of ['GET', 'HEAD'] as const) {
        const r = await app.inject({ method, url: `/files/${SVG_KEY}` })
        expect(r.statusCode).toBe(200)
        expect(r.headers['content-type']).toBe('image/svg+xml')
        expect(r.headers['content-disposition']).toBe('attachment')
        expect(r.headers['x-content-type-options']).toBe('nosniff')
        const policy = String(r.headers['content-security-policy'])
        expect(policy.split(';').map((d) => d.trim())).toEqual(
          expect.arrayContaining(["default-src 'none'", 'sandbox']),
        )
        expect(policy).not.toContain('script-src')
        expect(navigationRunsScript(r.headers)).toBe(false)
        // Each defence holds alone: the policy without the attachment, the attachment without the policy.
        expect(navigationRunsScript({ ...r.headers, 'content-disposition': undefined })).toBe(false)
        expect(navigationRunsScript({ ...r.headers, 'content-security-policy': undefined })).toBe(false)
      }
      const cached = await app.inject({
        url: `/files/${SVG_KEY}`,
        headers: { 'if-none-match': `"${sha256(SVG)}"` },
      })
      expect(cached.statusCode).toBe(304)
      expect(navigationRunsScript(cached.headers)).toBe(false)
    })
  },
)
