/**
 * One contract, both drivers: the filesystem driver on a temporary folder and the S3 driver against a real
 * S3-protocol server (s3rver) on 127.0.0.1.
 */
import { createHash } from 'node:crypto'
import { readdir, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config'
import {
  COVER_TYPES,
  coverKey,
  createStorage,
  FsStorage,
  PACKAGE_CONTENT_TYPE,
  packageKey,
  S3Storage,
  StorageError,
} from '../../src/storage/create-storage'
import { tmpDirAndS3 } from './per-file'

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const bytesOf = (s: string) => new TextEncoder().encode(s)
async function text(r: Readable | null): Promise<string | null> {
  if (!r) return null
  const chunks: Buffer[] = []
  for await (const c of r) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(StorageError)
    return (err as StorageError).code
  }
  throw new Error('expected a StorageError')
}

const shared = tmpDirAndS3('spkg-storage-')

let n = 0
describe.each(shared.drivers)('storage contract: %s', (_name, make) => {
  const body = bytesOf('PK\u0003\u0004 a package body, 0123456789')
  const hash = sha(body)
  const key = packageKey(hash)

  it('stores bytes, then stats and reads them whole and by range', async () => {
    const st = await make()
    expect(await st.stat(key)).toBeNull()
    expect(await st.read(key)).toBeNull()
    await st.putBytes(key, body, { sha256: hash, contentType: PACKAGE_CONTENT_TYPE })
    expect(await st.stat(key)).toEqual({
      key,
      size: body.length,
      sha256: hash,
      contentType: PACKAGE_CONTENT_TYPE,
    })
    expect(await text(await st.read(key))).toBe(Buffer.from(body).toString())
    expect(await text(await st.read(key, { start: 3, end: 7 }))).toBe(
      Buffer.from(body.slice(3, 8)).toString(),
    )
    const last = body.length - 1
    expect(await text(await st.read(key, { start: last, end: last }))).toBe(
      String.fromCharCode(body[last] as number),
    )
    expect(await codeOf(st.read(key, { start: 0, end: body.length }))).toBe('STORAGE_BAD_RANGE')
    expect(await codeOf(st.read(key, { start: 5, end: 4 }))).toBe('STORAGE_BAD_RANGE')
    expect(await codeOf(st.read(key, { start: -1, end: 4 }))).toBe('STORAGE_BAD_RANGE')
  })

  it('stores a local file, idempotently', async () => {
    const st = await make()
    const local = join(shared.tmp, `local-${++n}`)
    await writeFile(local, body)
    const info = { sha256: hash, size: body.length, contentType: PACKAGE_CONTENT_TYPE }
    await st.putFile(key, local, info)
    await st.putFile(key, local, info)
    expect(await stat(local)).toBeTruthy() // the caller's file is left in place
    expect(await text(await st.read(key))).toBe(Buffer.from(body).toString())
    expect((await st.list('packages/', 10)).map((f) => f.key)).toEqual([key])
  })

  it('covers keep their type', async () => {
    const st = await make()
    const png = bytesOf('\u0089PNG fake image bytes')
    const k = coverKey(sha(png), 'png')
    await st.putBytes(k, png, { sha256: sha(png), contentType: 'image/png' })
    expect((await st.stat(k))?.contentType).toBe(COVER_TYPES.png)
    expect(
      await codeOf(
        st.putBytes(coverKey(sha(png), 'webp'), png, { sha256: sha(png), contentType: 'image/png' }),
      ),
    ).toBe('STORAGE_BAD_KEY')
  })

  it('refuses bytes that do not match the key, and stores nothing', async () => {
    const st = await make()
    const other = sha(bytesOf('something else'))
    expect(
      await codeOf(
        st.putBytes(packageKey(other), body, { sha256: other, contentType: PACKAGE_CONTENT_TYPE }),
      ),
    ).toBe('STORAGE_HASH_MISMATCH')
    expect(await st.stat(packageKey(other))).toBeNull()
    expect(await codeOf(st.putBytes(key, body, { sha256: other, contentType: PACKAGE_CONTENT_TYPE }))).toBe(
      'STORAGE_HASH_MISMATCH',
    )
    const local = join(shared.tmp, `local-${++n}`)
    await writeFile(local, body)
    expect(
      await codeOf(
        st.putFile(key, local, { sha256: hash, size: body.length + 1, contentType: PACKAGE_CONTENT_TYPE }),
      ),
    ).toBe('STORAGE_HASH_MISMATCH')
    expect(await st.stat(key)).toBeNull()
    expect(await st.list('packages/', 10)).toEqual([])
  })

  it('refuses malformed keys (no traversal)', async () => {
    const st = await make()
    for (const bad of [
      `packages/../${hash}.spkg`,
      `../${hash}.spkg`,
      `packages/${hash.toUpperCase()}.spkg`,
      `packages/${hash}.zip`,
      `covers/${hash}.exe`,
      `/etc/passwd`,
      `packages/${hash}.spkg/x`,
      '',
    ]) {
      expect(await codeOf(st.stat(bad))).toBe('STORAGE_BAD_KEY')
      expect(await codeOf(st.read(bad))).toBe('STORAGE_BAD_KEY')
      expect(await codeOf(st.delete(bad))).toBe('STORAGE_BAD_KEY')
      expect(() => st.publicUrl(bad)).toThrow(StorageError)
    }
    expect(await codeOf(st.list('../' as 'covers/', 5))).toBe('STORAGE_BAD_KEY')
  })

  it('deletes, and deleting an absent file is no error', async () => {
    const st = await make()
    await st.putBytes(key, body, { sha256: hash, contentType: PACKAGE_CONTENT_TYPE })
    await st.delete(key)
    await st.delete(key)
    expect(await st.stat(key)).toBeNull()
  })

  it('lists at most `limit` files', async () => {
    const st = await make()
    for (let i = 0; i < 5; i++) {
      const b = bytesOf(`file ${i}`)
      await st.putBytes(packageKey(sha(b)), b, { sha256: sha(b), contentType: PACKAGE_CONTENT_TYPE })
    }
    const all = await st.list('packages/', 100)
    expect(all).toHaveLength(5)
    expect(all.every((f) => f.size === 6 && f.modifiedAt instanceof Date)).toBe(true)
    expect(await st.list('packages/', 2)).toHaveLength(2)
    expect(await st.list('covers/', 100)).toEqual([])
  })

  it('public addresses only under FILES_URL', async () => {
    expect((await make()).publicUrl(key)).toBeNull()
    expect((await make('https://cdn.example.org/files/')).publicUrl(key)).toBe(
      `https://cdn.example.org/files/${key}`,
    )
  })
})

describe('filesystem driver', () => {
  it('a write whose bytes do not hash to the key leaves no file and no temporary file', async () => {
    const root = join(shared.tmp, 'crash')
    const st = new FsStorage({ root })
    const claimed = bytesOf('x'.repeat(1000))
    const local = join(shared.tmp, 'changed-under-us')
    await writeFile(local, bytesOf('y'.repeat(1000))) // same size, other bytes: found only while copying
    const info = { sha256: sha(claimed), size: claimed.length, contentType: PACKAGE_CONTENT_TYPE }
    expect(await codeOf(st.putFile(packageKey(sha(claimed)), local, info))).toBe('STORAGE_HASH_MISMATCH')
    expect(await st.stat(packageKey(sha(claimed)))).toBeNull()
    expect(await readdir(join(root, '.tmp'))).toEqual([])
    expect(await readdir(join(root, 'packages'))).toEqual([])
  })

  it('removes stale temporary files left by a crash, not fresh ones', async () => {
    const root = join(shared.tmp, 'stale')
    const st = new FsStorage({ root })
    await st.list('packages/', 1)
    const b = bytesOf('z')
    await st.putBytes(packageKey(sha(b)), b, { sha256: sha(b), contentType: PACKAGE_CONTENT_TYPE })
    await writeFile(join(root, '.tmp', 'old.part'), 'half a file')
    await writeFile(join(root, '.tmp', 'new.part'), 'an upload in progress')
    const now = Date.now()
    await utimes(join(root, '.tmp', 'old.part'), new Date(now - 7200_000), new Date(now - 7200_000))
    expect(await st.removeStaleTemp(3600_000, now)).toBe(1)
    expect(await readdir(join(root, '.tmp'))).toEqual(['new.part'])
  })
})

describe('createStorage', () => {
  it('is the filesystem driver by default, S3 when S3_BUCKET is set', () => {
    const fsConfig = loadConfig({ FILES_DIR: join(shared.tmp, 'cfg') })
    const fsStorage = createStorage(fsConfig)
    expect(fsStorage).toBeInstanceOf(FsStorage)
    expect((fsStorage as FsStorage).root).toBe(join(shared.tmp, 'cfg'))
    const s3Config = loadConfig({
      S3_BUCKET: 'spkg-files',
      S3_ENDPOINT: shared.s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      FILES_URL: 'https://files.example.org',
    })
    const s3Storage = createStorage(s3Config)
    expect(s3Storage).toBeInstanceOf(S3Storage)
    expect((s3Storage as S3Storage).bucket).toBe('spkg-files')
    expect(s3Storage.publicUrl(packageKey('a'.repeat(64)))).toBe(
      `https://files.example.org/packages/${'a'.repeat(64)}.spkg`,
    )
    ;(s3Storage as S3Storage).close()
  })
})
