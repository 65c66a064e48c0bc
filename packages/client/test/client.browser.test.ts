/**
 * Browser-only behaviour in headless Chromium: the token from session storage, online/offline events, logout across
 * two pages over BroadcastChannel, and the IndexedDB write queue surviving a reload.
 */
import { existsSync } from 'node:fs'
import { bundleForBrowser, CHROMIUM_PATH, launchChromium, routeEntryPage } from '@spkg/test-utils/chromium'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ORIGIN = 'http://localhost'
const run = existsSync(CHROMIUM_PATH) || process.env.CI !== undefined

let browser: Browser
let context: BrowserContext

type Api = Record<string, (...a: unknown[]) => unknown>

async function openPage(): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`${ORIGIN}/`)
  await page.waitForFunction(() => typeof (globalThis as { clientTest?: unknown }).clientTest === 'object')
  return page
}
const call = (page: Page, name: string) =>
  page.evaluate((n) => (globalThis as unknown as { clientTest: Api }).clientTest[n]?.(), name)

beforeAll(async () => {
  if (!run) return
  const script = await bundleForBrowser(new URL('./browser/client-page.ts', import.meta.url))
  browser = await launchChromium()
  context = await browser.newContext()
  await routeEntryPage(context, ORIGIN, script)
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

describe.skipIf(!run)('@spkg/client in Chromium', () => {
  it('takes the bearer token from session storage by default', async () => {
    const page = await openPage()
    expect(await call(page, 'tokenFromSession')).toBe('Bearer from-session')
    await page.close()
  })

  it('tracks offline and online, with a reconnected event', async () => {
    const page = await openPage()
    expect(await call(page, 'track')).toBe(true)
    await context.setOffline(true)
    await page.waitForFunction(() => !navigator.onLine)
    await context.setOffline(false)
    await page.waitForFunction(() => navigator.onLine)
    await expect
      .poll(() => call(page, 'tracked'))
      .toEqual({ events: ['offline', 'reconnected'], online: true })
    await page.close()
  })

  it('a logout in one page ends the session in the other', async () => {
    const a = await openPage()
    const b = await openPage()
    await call(a, 'signIn')
    await call(b, 'signIn')
    expect(await call(b, 'session')).toEqual({ events: [], token: 'a' })
    await call(a, 'logout')
    await expect.poll(() => call(b, 'session')).toEqual({ events: ['logout'], token: null })
    expect(await call(a, 'session')).toEqual({ events: ['logout'], token: null })
    await a.close()
    await b.close()
  })

  it('two pages replaying one IndexedDB queue at once send each write once', async () => {
    const a = await openPage()
    const b = await openPage()
    expect(await call(a, 'enqueue')).toEqual(['/api/progress/a', '/api/progress/b'])
    const [ra, rb] = (await Promise.all([call(a, 'replay'), call(b, 'replay')])) as Array<{ sent: number }>
    expect((ra?.sent ?? 0) + (rb?.sent ?? 0)).toBe(2)
    expect(await call(b, 'pending')).toEqual([])
    await a.close()
    await b.close()
  })

  it('keeps the IndexedDB write queue across a reload, in order, until replayed', async () => {
    const page = await openPage()
    expect(await call(page, 'enqueue')).toEqual(['/api/progress/a', '/api/progress/b'])
    await page.reload()
    await page.waitForFunction(() => typeof (globalThis as { clientTest?: unknown }).clientTest === 'object')
    expect(await call(page, 'pending')).toEqual(['/api/progress/a', '/api/progress/b'])
    expect(await call(page, 'replay')).toEqual({ sent: 2, left: 0 })
    await page.reload()
    await page.waitForFunction(() => typeof (globalThis as { clientTest?: unknown }).clientTest === 'object')
    expect(await call(page, 'pending')).toEqual([])
    await page.close()
  })
})
