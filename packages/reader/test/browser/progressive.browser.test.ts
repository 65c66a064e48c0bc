/**
 * Progressive loading in a browser: one scenario in headless Chromium against a range server on 127.0.0.1:
 * a remote package opened progressively and played into its second part, the server's log showing
 * that the parts never entered were never downloaded; an `offline: true` package kept in Cache
 * Storage after its first part and played with the network gone; its delta update once the
 * network is back (only the changed part fetched); the new version played offline.
 * Skips if Chromium is absent (fails with CI set, see tools/ci-skips).
 */
import { existsSync } from 'node:fs'
import { buildPackage } from '@spkg/test-utils'
import { CHROMIUM_PATH, openEntryInChromium } from '@spkg/test-utils/chromium'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callInPage } from '../helpers/call-in-page'
import { entryDataSpans } from '../helpers/entry-data-spans'
import { answerRange, handServer, type TestServer } from '../helpers/range-servers'

const prose = (seed: number) => {
  let s = seed
  return Array.from({ length: 60_000 }, () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return String.fromCharCode(97 + ((s >>> 0) % 26))
  }).join('')
}
const names = ['story/0001-inn.sty', 'story/0002-cellar.sty', 'story/0003-forest.sty', 'story/0004-tower.sty']
const partsOf = (third = 'Part 3.') =>
  Object.fromEntries(names.map((n, i) => [n, `${i === 2 ? third : `Part ${i + 1}.`}\n${prose(i + 1)}\n`]))
const pkg = buildPackage({
  manifest: { title: 'Browser', loading: 'progressive' },
  parts: partsOf(),
  // A last file after the parts, so the first request (the archive's last 64 KiB) holds no part.
  assets: { 'assets/z.bin': new TextEncoder().encode(prose(99).repeat(2)) },
  integrity: true,
})
/** 1 MB that does not compress: the delta update's share of the archive means something. */
const NOISE = (() => {
  let x = 88172645
  return new Uint8Array(1 << 20).map(() => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return x & 255
  })
})()
const kept = (version: string, third?: string) =>
  buildPackage({
    manifest: { id: 'the-tower', version, title: 'Kept', loading: 'progressive', offline: true },
    parts: partsOf(third),
    assets: { 'assets/z.bin': NOISE },
    integrity: true,
  })
const served: Record<string, { bytes: Uint8Array; etag: string }> = {
  '/p.spkg': { bytes: pkg, etag: '"p1"' },
  '/o.spkg': { bytes: kept('1.0.0'), etag: '"o1"' },
}

let browser: Browser | undefined
let page: Page
let server: TestServer
const call = <T>(name: string, ...args: unknown[]): Promise<T> => callInPage<T>(page, name, ...args)
// The page's origin is served by interception, and Chromium's private-network rules keep such a
// page from 127.0.0.1: its requests for packages go through Playwright, unchanged (Range and
// If-Range included), to the real server on 127.0.0.1, and its answers come back.
const online = async () => {
  await page.context().setOffline(false)
  await page.route('http://localhost/packages/**', async (route) => {
    const url = new URL(route.request().url())
    await route.fulfill({ response: await route.fetch({ url: `${server.base}${url.pathname.slice(9)}` }) })
  })
}
/** No route answers any more (the page's own origin included), and the context is offline. */
const offline = async () => {
  await page.unrouteAll()
  await page.context().setOffline(true)
}

describe.skipIf(!existsSync(CHROMIUM_PATH))(
  'progressive loading, offline cache and update in Chromium',
  () => {
    beforeAll(async () => {
      server = await handServer((req, res) => {
        const file = served[new URL(req.url ?? '/', 'http://x').pathname]
        if (!file) return void res.writeHead(404).end()
        answerRange(req, res, file.bytes, file.etag)
      })
      const opened = await openEntryInChromium(new URL('./progressive-page.ts', import.meta.url), 'update')
      browser = opened.browser
      page = opened.page
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      await server?.close()
    })

    it('plays progressively, then offline from the cache, then the delta-updated version offline', async () => {
      await online()
      // 1. Progressive open, played into the second part.
      expect(await call('runProgressive', 'http://localhost/packages/p.spkg')).toEqual({
        ok: true,
        progressive: true,
        atOpen: ['story/0001-inn.sty'],
        entry: 'Part 1.',
        second: 'Part 2.',
        events: ['part-loading story/0002-cellar.sty', 'part-loaded story/0002-cellar.sty'],
      })
      // The server's log: the data of the parts never entered was never downloaded.
      const at = entryDataSpans(pkg)
      const gets = server.log.filter((q) => q.url === '/p.spkg' && q.range !== undefined)
      const touched = (name: string) => {
        const [s, e] = at.get(name)!
        return gets.some((q) => {
          const m = /^bytes=(\d*)-(\d*)$/.exec(q.range!)!
          const [a, b] = m[1] ? [Number(m[1]), Number(m[2]) + 1] : [pkg.length - Number(m[2]), pkg.length]
          // The read of a deferred part's local header may take up to 64 bytes past it: not the part.
          return a < e && b > s + 64
        })
      }
      expect(names.filter(touched)).toEqual(['story/0001-inn.sty', 'story/0002-cellar.sty'])
      expect(gets.slice(1).every((q) => q.ifRange === '"p1"')).toBe(true)

      // 2. An offline: true package: opened with its first part, the rest kept in the background.
      expect(await call('keepOffline', 'http://localhost/packages/o.spkg')).toEqual({
        ok: true,
        progressive: true,
        atOpen: ['story/0001-inn.sty'],
        entry: 'Part 1.',
        saved: { id: 'the-tower', version: '1.0.0' },
        files: 6,
      })
      // 3. The network gone: the kept package plays every part.
      await offline()
      expect(await call('playCached', 'the-tower', '1.0.0', '/packages/o.spkg')).toEqual({
        online: false,
        ok: true,
        lines: ['Part 1.', 'Part 2.', 'Part 3.', 'Part 4.'],
      })

      // 4. The network back and a new version on the server: a delta update fetches the changed part.
      served['/o.spkg'] = { bytes: kept('1.1.0', 'Part 3, rewritten.'), etag: '"o2"' }
      await online()
      const updated = await call<Record<string, unknown>>(
        'update',
        'the-tower',
        'http://localhost/packages/o.spkg',
      )
      expect(updated).toMatchObject({
        ok: true,
        mode: 'delta',
        to: { id: 'the-tower', version: '1.1.0' },
        downloaded: ['manifest.json', 'story/0003-forest.sty'],
        versions: [{ id: 'the-tower', version: '1.1.0', complete: true }],
      })
      // The quick look's head and tail (64 KiB each) and the changed part: not the other parts or z.bin.
      expect(updated.bytesFetched as number).toBeLessThan(0.25 * (updated.archiveBytes as number))

      // 5. Offline again: the new version plays from the cache.
      await offline()
      expect(await call('playCached', 'the-tower', '1.1.0', '/packages/o.spkg')).toEqual({
        online: false,
        ok: true,
        lines: ['Part 1.', 'Part 2.', 'Part 3, rewritten.', 'Part 4.'],
      })
    }, 60_000)
  },
)
