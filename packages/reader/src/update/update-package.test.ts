import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { buildPackage } from '@spkg/test-utils'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPackageCache } from '../cache/create-package-cache'
import { createMemoryCacheDriver } from '../cache/memory-driver'
import type { PackageCache } from '../cache/types'
import { openCachedPackage, openPackage, savePackageOffline, updatePackage } from '../node'

const ID = 'the-inn'
/** Eight parts and eight 40 KB media files (random: they do not compress). */
function spec(version: string, changed: Record<string, string | Uint8Array> = {}, drop: string[] = []) {
  const parts: Record<string, string> = {}
  const assets: Record<string, Uint8Array | string> = {}
  for (let i = 1; i <= 8; i++) parts[`story/000${i}-part.sty`] = `Part ${i}.\n`
  for (let i = 1; i <= 8; i++) assets[`assets/img-${i}.png`] = MEDIA[i - 1]!
  for (const [k, v] of Object.entries(changed)) (k.startsWith('story/') ? parts : assets)[k] = v as never
  for (const k of drop) delete assets[k]
  return { manifest: { id: ID, version, offline: true }, parts, assets, integrity: true }
}
const MEDIA = Array.from({ length: 8 }, () => new Uint8Array(randomBytes(40_000)))
const V1 = buildPackage(spec('1.0.0'))

let dir: string
let app: FastifyInstance
let base: string
let plain: Server
let plainBase: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spkg-update-'))
  app = Fastify()
  await app.register(fastifyStatic, { root: dir })
  base = await app.listen({ host: '127.0.0.1', port: 0 })
  // A server that ignores ranges: always the whole file with 200.
  plain = createServer(async (req, res) => {
    const { readFile } = await import('node:fs/promises')
    const bytes = await readFile(join(dir, (req.url ?? '/').slice(1))).catch(() => undefined)
    if (!bytes) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-length': bytes.length }).end(bytes)
  })
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r))
  plainBase = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
})
afterAll(async () => {
  await app?.close()
  plain?.close()
  await rm(dir, { recursive: true, force: true })
})

async function installed(): Promise<PackageCache> {
  const cache = createPackageCache(createMemoryCacheDriver())
  const opened = await openPackage(V1)
  if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics))
  await savePackageOffline(cache, opened.package)
  return cache
}

async function serve(name: string, bytes: Uint8Array): Promise<string> {
  await writeFile(join(dir, name), bytes)
  return `${base}/${name}`
}

describe('updatePackage', () => {
  it('fetches only the changed files by range, reuses the rest, and verifies the new version', async () => {
    const cache = await installed()
    const v2 = buildPackage(
      spec(
        '1.1.0',
        {
          'assets/img-2.png': new Uint8Array(randomBytes(40_000)),
          'story/0003-part.sty': 'Changed.\n',
          'assets/moved.png': MEDIA[7]!,
        },
        ['assets/img-8.png'],
      ),
    )
    const result = await updatePackage({ cache, id: ID }, await serve('delta.spkg', v2))
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics))
    expect(result.mode).toBe('delta')
    expect(result.from).toEqual({ id: ID, version: '1.0.0' })
    expect(result.to).toEqual({ id: ID, version: '1.1.0' })
    expect(result.downloaded.sort()).toEqual(['assets/img-2.png', 'manifest.json', 'story/0003-part.sty'])
    expect(result.reused).toContain('assets/moved.png')
    expect(result.removed).toEqual(['assets/img-8.png'])
    // The quick look's head and tail reads (64 KiB each), then the one changed 40 KB file.
    expect(result.bytesFetched).toBeLessThan(2 * 65_700 + 2 * 40_000)
    expect(result.bytesFetched).toBeGreaterThan(40_000)
    expect(await cache.versions(ID)).toEqual([{ id: ID, version: '1.1.0', complete: true }])
    const reopened = await openCachedPackage(cache, { id: ID, version: '1.1.0' })
    if (!reopened.ok) throw new Error(JSON.stringify(reopened.diagnostics))
    expect(await reopened.package.readText('story/0003-part.sty')).toBe('Changed.\n')
    expect(reopened.package.has('assets/img-8.png')).toBe(false)

    const again = await updatePackage({ cache, id: ID }, `${base}/delta.spkg`)
    expect(again).toMatchObject({ ok: true, mode: 'current', downloaded: [] })
  })

  it('downloads the whole archive from a server that ignores ranges', async () => {
    const cache = await installed()
    await serve('plain.spkg', buildPackage(spec('2.0.0', { 'story/0001-part.sty': 'New start.\n' })))
    const result = await updatePackage({ cache, id: ID }, `${plainBase}/plain.spkg`)
    expect(result).toMatchObject({ ok: true, mode: 'full', to: { version: '2.0.0' } })
    expect((await openCachedPackage(cache, { id: ID, version: '2.0.0' })).ok).toBe(true)
    expect((await openCachedPackage(cache, { id: ID, version: '1.0.0' })).ok).toBe(false)
  })

  it('downloads the whole archive when most bytes changed', async () => {
    const cache = await installed()
    const changed: Record<string, Uint8Array> = {}
    for (let i = 1; i <= 6; i++) changed[`assets/img-${i}.png`] = new Uint8Array(randomBytes(40_000))
    const url = await serve('most.spkg', buildPackage(spec('3.0.0', changed)))
    expect(await updatePackage({ cache, id: ID }, url)).toMatchObject({ ok: true, mode: 'full' })
  })

  it('an aborted update leaves the old version intact and playable', async () => {
    const cache = await installed()
    const url = await serve(
      'abort.spkg',
      buildPackage(
        spec('4.0.0', {
          'assets/img-1.png': new Uint8Array(randomBytes(40_000)),
          'assets/img-3.png': new Uint8Array(randomBytes(40_000)),
        }),
      ),
    )
    const controller = new AbortController()
    let middle = 0
    const counting: typeof fetch = async (input, init) => {
      // Abort on the first read in the middle of the archive: a changed file, after the quick look.
      const start = Number(/bytes=(\d+)-/.exec(new Headers(init?.headers).get('range') ?? '')?.[1])
      if (start > 70_000 && start < 250_000 && ++middle === 1) controller.abort(new Error('user went away'))
      return fetch(input, init)
    }
    await expect(
      updatePackage({ cache, id: ID }, url, { fetch: counting, signal: controller.signal }),
    ).rejects.toThrow('user went away')
    expect(middle).toBe(1)
    expect(await cache.versions(ID)).toEqual([{ id: ID, version: '1.0.0', complete: true }])
    const old = await openCachedPackage(cache, { id: ID, version: '1.0.0' })
    expect(old.ok).toBe(true)
  })

  it('a file that does not match its new integrity hash refuses the update; the old version stays', async () => {
    const cache = await installed()
    const s = spec('5.0.0', { 'assets/img-4.png': new Uint8Array(randomBytes(40_000)) })
    const files = buildPackage(s)
    // Same archive, but the manifest promises other bytes for img-4.
    const opened = await openPackage(files)
    if (!opened.ok) throw new Error('v5 should open')
    const integrity = { ...(opened.package.manifest?.integrity as Record<string, string>) }
    integrity['assets/img-4.png'] = 'a'.repeat(64)
    const bad = buildPackage({ ...s, integrity: false, manifest: { ...s.manifest, integrity } })
    const result = await updatePackage({ cache, id: ID }, await serve('bad.spkg', bad))
    expect(result.ok).toBe(false)
    expect(result.diagnostics.map((d) => d.code)).toContain('pkg/integrity-mismatch')
    expect(await cache.versions(ID)).toEqual([{ id: ID, version: '1.0.0', complete: true }])
    expect((await openCachedPackage(cache, { id: ID, version: '1.0.0' })).ok).toBe(true)
  })

  it('a file replaced on the server during the update is pkg/remote-changed', async () => {
    const cache = await installed()
    const url = await serve(
      'moving.spkg',
      buildPackage(spec('6.0.0', { 'assets/img-5.png': new Uint8Array(randomBytes(40_000)) })),
    )
    let n = 0
    const swapping: typeof fetch = async (input, init) => {
      if (++n === 2)
        await writeFile(
          join(dir, 'moving.spkg'),
          buildPackage(spec('7.0.0', { 'assets/img-6.png': new Uint8Array(randomBytes(50_000)) })),
        )
      return fetch(input, init)
    }
    const result = await updatePackage({ cache, id: ID }, url, { fetch: swapping })
    expect(result.ok).toBe(false)
    expect(result.diagnostics.map((d) => d.code)).toEqual(['pkg/remote-changed'])
    expect(await cache.versions(ID)).toEqual([{ id: ID, version: '1.0.0', complete: true }])
  })

  it('refuses another package id, and reports an unreachable server', async () => {
    const cache = await installed()
    const other = buildPackage({ ...spec('1.0.0'), manifest: { id: 'other-story', version: '9.0.0' } })
    const r1 = await updatePackage({ cache, id: ID }, await serve('other.spkg', other))
    expect(r1).toMatchObject({ ok: false, diagnostics: [{ code: 'pkg/cache-failed' }] })
    const r2 = await updatePackage({ cache, id: ID }, `${base}/missing.spkg`)
    expect(r2).toMatchObject({ ok: false, diagnostics: [{ code: 'pkg/fetch-failed' }] })
  })
})

describe('offline cache', () => {
  it('opens a saved package with no network, and refuses a damaged or incomplete one', async () => {
    const driver = createMemoryCacheDriver()
    const cache = createPackageCache(driver)
    const opened = await openPackage(V1)
    if (!opened.ok) throw new Error('v1 should open')
    const saved = await savePackageOffline(cache, opened.package)
    expect(saved.files.length).toBe(17)
    const again = await openCachedPackage(cache, saved.ref)
    if (!again.ok) throw new Error(JSON.stringify(again.diagnostics))
    expect(again.package.parts).toEqual(opened.package.parts)
    expect(await again.package.readBytes('assets/img-1.png')).toEqual(MEDIA[0])
    const key = (await driver.list('f/'))[0]!
    await driver.write(key, new Uint8Array([1]))
    expect(await openCachedPackage(cache, saved.ref)).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'pkg/cache-failed' }],
    })
    expect(await openCachedPackage(cache, { id: ID, version: '0.1' })).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'pkg/cache-failed' }],
    })
    const noVersion = await openPackage(buildPackage({ manifest: { id: ID } }))
    if (!noVersion.ok) throw new Error('should open')
    await expect(savePackageOffline(cache, noVersion.package)).rejects.toMatchObject({
      code: 'pkg/cache-failed',
    })
  })
})

describe('updatePackage of an encrypted package', () => {
  it('fetches and decrypts only the chunks covering the changed files', async () => {
    const { encryptPackage, generateEncryptionKey } = await import('@spkg/integrity/encrypt')
    const key = generateEncryptionKey()
    const cache = createPackageCache(createMemoryCacheDriver())
    const opened = await openPackage(await encryptPackage(V1, key), { decryptionKey: key })
    if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics))
    await savePackageOffline(cache, opened.package)
    const v2 = await encryptPackage(
      buildPackage(spec('8.0.0', { 'assets/img-5.png': new Uint8Array(randomBytes(40_000)) })),
      key,
    )
    const url = await serve('encrypted.spkg', v2)
    const result = await updatePackage({ cache, id: ID }, url, { decryptionKey: key })
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics))
    expect(result.mode).toBe('delta')
    expect(result.downloaded.sort()).toEqual(['assets/img-5.png', 'manifest.json'])
    expect(result.archiveBytes).toBe(v2.length)
    // The quick look's head and tail and the changed file, rounded out to 64 KiB chunks: the
    // chunks holding only unchanged media (more than one file's worth here) are never fetched.
    expect(result.bytesFetched).toBeLessThan(v2.length - 40_000)
    expect((await openCachedPackage(cache, { id: ID, version: '8.0.0' })).ok).toBe(true)

    const noKey = await updatePackage({ cache, id: ID }, await serve('encrypted2.spkg', v2))
    expect(noKey).toMatchObject({ ok: false, diagnostics: [{ code: 'pkg/key-required' }] })
  })
})
