/**
 * The cache contract on Cache Storage in real Chromium, and an `offline: true` package kept there
 * and opened with the network gone. Skips if Chromium is absent.
 */
import { existsSync } from 'node:fs'
import { buildPackage } from '@spkg/test-utils'
import { CHROMIUM_PATH, openEntryInChromium } from '@spkg/test-utils/chromium'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CACHE_CASES } from '../helpers/cache-contract'
import { callInPage } from '../helpers/call-in-page'

let browser: Browser | undefined
let page: Page
const call = <T>(name: string, ...args: unknown[]): Promise<T> => callInPage<T>(page, name, ...args)

describe.skipIf(!existsSync(CHROMIUM_PATH))('the package cache in Chromium (Cache Storage)', () => {
  beforeAll(async () => {
    const opened = await openEntryInChromium(new URL('./cache-page.ts', import.meta.url), 'playOffline')
    browser = opened.browser
    page = opened.page
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })

  it('passes every case of the cache contract', async () => {
    const results = await call<Array<{ name: string; error?: string }>>('runCacheContract')
    expect(results.map((r) => r.name)).toEqual(CACHE_CASES.map((c) => c.name))
    expect(results.filter((r) => r.error)).toEqual([])
  }, 60_000)

  it('keeps an offline package and opens it with the network gone', async () => {
    const bytes = buildPackage({
      manifest: { id: 'the-inn', version: '1.0.0', offline: true },
      parts: { 'story/0001-inn.sty': 'You push the door.\n' },
      assets: { 'assets/door.png': new Uint8Array(5000).fill(3) },
      integrity: true,
    })
    await page.route('http://localhost/the-inn.spkg', (route) =>
      route.fulfill({ contentType: 'application/octet-stream', body: Buffer.from(bytes) }),
    )
    expect(await call('saveOffline', '/the-inn.spkg')).toEqual({
      ok: true,
      ref: { id: 'the-inn', version: '1.0.0' },
      files: 3,
    })
    // The network gone: no route answers any more, and the browser context is offline.
    await page.unrouteAll()
    await page.context().setOffline(true)
    expect(await call('playOffline', 'the-inn', '1.0.0')).toEqual({
      online: false,
      ok: true,
      text: 'You push the door.\n',
    })
    expect(await call('playOffline', 'the-inn', '2.0.0')).toMatchObject({
      ok: false,
      codes: ['pkg/cache-failed'],
    })
  }, 60_000)
})
