/**
 * Progressive loading in headless Chromium: a remote package opened over HTTP ranges (a range
 * server on 127.0.0.1 with CORS), played into its second part; the server's log shows that the
 * parts never entered were never downloaded. Skips if Chromium is absent.
 */
import { existsSync } from 'node:fs'
import { buildPackage } from '@spkg/test-utils'
import { CHROMIUM_PATH, openEntryInChromium } from '@spkg/test-utils/chromium'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerRange, handServer, type TestServer } from '../../test/helpers/range-servers'

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
const pkg = buildPackage({
  manifest: { title: 'Browser', loading: 'progressive' },
  parts: Object.fromEntries(names.map((n, i) => [n, `Part ${i + 1}.\n${prose(i + 1)}\n`])),
  // A last file after the parts, so the first request (the archive's last 64 KiB) holds no part.
  assets: { 'assets/z.bin': new TextEncoder().encode(prose(99).repeat(2)) },
  integrity: true,
})

/** Where each entry's data starts and ends (local headers walked from the start). */
function spans(bytes: Uint8Array): Map<string, [number, number]> {
  const view = new DataView(bytes.buffer, bytes.byteOffset)
  const out = new Map<string, [number, number]>()
  for (let at = 0; view.getUint32(at, true) === 0x04034b50; ) {
    const n = view.getUint16(at + 26, true)
    const data = at + 30 + n + view.getUint16(at + 28, true)
    const end = data + view.getUint32(at + 18, true)
    out.set(new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + n)), [data, end])
    at = end
  }
  return out
}

let browser: Browser | undefined
let server: TestServer
let result: Record<string, unknown>

describe.skipIf(!existsSync(CHROMIUM_PATH))('progressive loading in Chromium', () => {
  beforeAll(async () => {
    server = await handServer((req, res) => answerRange(req, res, pkg, '"v1"'))
    const opened = await openEntryInChromium(
      new URL('./progressive-entry.ts', import.meta.url),
      'runProgressive',
    )
    browser = opened.browser
    // The page's origin is served by interception, and Chromium's private-network rules keep such a
    // page from 127.0.0.1: its requests for the package go through Playwright, unchanged (Range and
    // If-Range included), to the real server on 127.0.0.1, and its answers come back.
    await opened.page.route('http://localhost/packages/**', async (route) => {
      const url = new URL(route.request().url())
      await route.fulfill({ response: await route.fetch({ url: `${server.base}${url.pathname}` }) })
    })
    result = (await opened.page.evaluate(
      (url) =>
        (globalThis as unknown as { runProgressive: (u: string) => Promise<unknown> }).runProgressive(url),
      'http://localhost/packages/p.spkg',
    )) as Record<string, unknown>
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('opens with the entry part only, then waits for the second part when the story enters it', () => {
    expect(result).toEqual({
      ok: true,
      progressive: true,
      atOpen: ['story/0001-inn.sty'],
      entry: 'Part 1.',
      second: 'Part 2.',
      events: ['part-loading story/0002-cellar.sty', 'part-loaded story/0002-cellar.sty'],
    })
  })

  it("never downloads the data of the parts it did not enter (the server's log)", () => {
    const at = spans(pkg)
    const gets = server.log.filter((q) => q.range !== undefined)
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
    expect(gets.slice(1).every((q) => q.ifRange === '"v1"')).toBe(true)
  })
})
