/**
 * The web player's routes (src/routes/player/player-routes.ts) over a built-player folder made here: the page at `/`, hashed
 * assets cached for a year, the rest revalidated, content types, the SPEC's policy plus `media-src 'self' blob:`,
 * the API's routes first, no way out of the folder, and a clear 404 `PLAYER_NOT_BUILT` without a build.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rawGet } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  isSafeRelativePath,
  PLAYER_MEDIA_SRC,
  PLAYER_THROTTLE,
  playerPolicy,
} from '../src/routes/player/player-routes'
import { buildTestApp, type TestApp } from './helpers/app'

let dir: string
let outside: string
let t: TestApp
let missing: TestApp
let port: number

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spkg-player-route-'))
  outside = await mkdtemp(join(tmpdir(), 'spkg-player-outside-'))
  await mkdir(join(dir, 'assets', 'fonts'), { recursive: true })
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>player</title>')
  await writeFile(join(dir, 'assets', 'index-AbCd1234.js'), 'console.log(1)')
  await writeFile(join(dir, 'assets', 'index-AbCd1234.css'), 'body{}')
  await writeFile(join(dir, 'assets', 'fonts', 'f-1234abcd.woff2'), 'w')
  await writeFile(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {})')
  await writeFile(join(dir, 'manifest.webmanifest'), '{"name":"spkg"}')
  await writeFile(join(dir, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  await writeFile(join(dir, '.env'), 'SECRET=1')
  await writeFile(join(outside, 'secret.txt'), 'secret')
  await symlink(join(outside, 'secret.txt'), join(dir, 'assets', 'link.txt'))
  // Many misses in a burst: the 404 handler's throttle (10 a second) is raised for this file.
  t = await buildTestApp({ PLAYER_DIR: dir, NODE_ENV: 'development', RATE_LIMIT_MAX_FACTOR: '100' })
  missing = await buildTestApp({ PLAYER_DIR: join(dir, 'nope'), NODE_ENV: 'development' })
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  port = (t.app.server.address() as { port: number }).port
}, 60_000)

afterAll(async () => {
  await t?.close()
  await missing?.close()
  await rm(dir, { recursive: true, force: true })
  await rm(outside, { recursive: true, force: true })
})

describe('the player at /', () => {
  it('serves index.html at / with no-cache, the policy, media-src and the repository hosts', async () => {
    const res = await t.app.inject({ url: '/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.body).toContain('<title>player</title>')
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("worker-src 'self' blob:")
    expect(csp.split(';')).toContain(PLAYER_MEDIA_SRC)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    // The policy is the API's: the same directives as an API answer, plus media-src and the repository loader's
    // hosts in connect-src (the page opens stories from repository addresses).
    const api = String((await t.app.inject({ url: '/api/health' })).headers['content-security-policy'])
    expect(csp).toBe(playerPolicy(api))
    const connect = (policy: string) => policy.split(';').find((d) => d.trim().startsWith('connect-src '))
    expect(connect(csp)).toBe(`${connect(api)} https://api.github.com https://codeload.github.com`)
    expect(connect(api)).not.toContain('github')
  })

  it('caches hashed assets for a year and revalidates the rest, with the right content types', async () => {
    const js = await t.app.inject({ url: '/assets/index-AbCd1234.js' })
    expect(js.statusCode).toBe(200)
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(js.headers['content-security-policy']).toContain(PLAYER_MEDIA_SRC)
    const css = await t.app.inject({ url: '/assets/index-AbCd1234.css' })
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8')
    const font = await t.app.inject({ url: '/assets/fonts/f-1234abcd.woff2' })
    expect(font.headers['content-type']).toBe('font/woff2')
    const sw = await t.app.inject({ url: '/sw.js' })
    expect(sw.statusCode).toBe(200)
    expect(sw.headers['cache-control']).toBe('no-cache')
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8')
    const manifest = await t.app.inject({ url: '/manifest.webmanifest' })
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8')
    const icon = await t.app.inject({ url: '/icon-192.png' })
    expect(icon.headers['content-type']).toBe('image/png')
  })

  it('answers If-None-Match with 304 and HEAD without a body', async () => {
    const first = await t.app.inject({ url: '/sw.js' })
    const etag = String(first.headers.etag)
    const again = await t.app.inject({ url: '/sw.js', headers: { 'if-none-match': etag } })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    const head = await t.app.inject({ method: 'HEAD', url: '/' })
    expect(head.statusCode).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-length']).toBe('36')
  })

  it('leaves the API routes first', async () => {
    const health = await t.app.inject({ url: '/api/health' })
    expect(health.statusCode).toBe(200)
    expect(health.json()).toMatchObject({ status: 'ok' })
    const catalog = await t.app.inject({ url: '/catalog/stories' })
    expect(catalog.statusCode).toBe(200)
    const unknown = await t.app.inject({ url: '/api/nothing-here' })
    expect(unknown.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'Resource not found' })
  })

  it('never leaves the folder: traversal, encoded slashes, dotfiles and links out are 404', async () => {
    for (const url of [
      '/..%2F..%2Fetc%2Fpasswd',
      '/%2e%2e%2fetc%2fpasswd',
      '/assets/..%2F..%2F..%2Fetc%2Fpasswd',
      '/assets/../../../etc/passwd',
      '/assets/%2e%2e/%2e%2e/index.html',
      '/assets/fonts/..%5C..%5Cindex.html',
      '/.env',
      '/%2eenv',
      '/assets/link.txt',
      '/assets/',
      '/assets/fonts',
      '/missing.js',
      '/assets/index-AbCd1234.js%00.png',
    ]) {
      // Sent raw: inject and fetch resolve `..` and `%2e%2e` before sending, which would test nothing.
      const res = await rawGet(port, url)
      expect(res.split('\r\n')[0], url).toMatch(/^HTTP\/1\.1 (400|404) /)
      expect(res, url).not.toContain('secret')
      expect(res, url).not.toContain('root:')
      expect(res, url).not.toContain('<title>player')
    }
    expect(isSafeRelativePath('assets/a.js')).toBe(true)
    for (const p of ['..', 'a/../b', '.env', 'a//b', '', 'a\\b', 'a/./b', '/etc/passwd'])
      expect(isSafeRelativePath(p), p).toBe(false)
  })
})

describe('throttling', () => {
  it('lets a first visit and its service worker precache through, and stops a flood', async () => {
    const throttled = await buildTestApp({ PLAYER_DIR: dir }, { throttle: true })
    try {
      // A first visit: the page's chunks, then the worker precaching the whole build, in the same second.
      const visit = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          throttled.app.inject({ url: i % 2 ? '/assets/index-AbCd1234.js' : '/sw.js' }),
        ),
      )
      expect(visit.map((r) => r.statusCode).filter((c) => c !== 200)).toEqual([])
      expect(visit[1]?.headers['x-ratelimit-limit-short']).toBe(String(PLAYER_THROTTLE[0]?.max))
      const flood = await Promise.all(
        Array.from({ length: 400 }, () => throttled.app.inject({ url: '/assets/index-AbCd1234.js' })),
      )
      expect(flood.some((r) => r.statusCode === 429)).toBe(true)
    } finally {
      await throttled.close()
    }
  })
})

describe('without a build', () => {
  it('answers / with 404 PLAYER_NOT_BUILT: a page for browsers, the error body otherwise', async () => {
    const page = await missing.app.inject({ url: '/', headers: { accept: 'text/html,*/*' } })
    expect(page.statusCode).toBe(404)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('PLAYER_NOT_BUILT')
    expect(page.body).toContain('pnpm start')
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    const json = await missing.app.inject({ url: '/' })
    expect(json.statusCode).toBe(404)
    expect(json.json()).toMatchObject({ statusCode: 404, code: 'PLAYER_NOT_BUILT' })
    const asset = await missing.app.inject({ url: '/assets/index-AbCd1234.js' })
    expect(asset.statusCode).toBe(404)
    expect((await missing.app.inject({ url: '/api/health' })).statusCode).toBe(200)
  })
})
