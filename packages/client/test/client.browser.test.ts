/**
 * Browser-only behaviour in headless Chromium: the token from session storage, online/offline events, logout across
 * two pages over BroadcastChannel, and the IndexedDB write queue surviving a reload.
 */
import { existsSync } from 'node:fs'
import * as esbuild from 'esbuild'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const CHROMIUM = '/usr/bin/chromium'
const ORIGIN = 'http://localhost'
const run = existsSync(CHROMIUM) || process.env.CI !== undefined

let browser: Browser
let context: BrowserContext
let script = ''

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
  const bundle = await esbuild.build({
    entryPoints: [new URL('./browser/entry.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['@spkg/source'],
    logLevel: 'silent',
  })
  script = bundle.outputFiles[0]?.text ?? ''
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  context = await browser.newContext()
  await context.route(`${ORIGIN}/**`, (route) =>
    route.request().url().endsWith('/app.js')
      ? route.fulfill({ contentType: 'text/javascript', body: script })
      : route.fulfill({ contentType: 'text/html', body: '<script type="module" src="/app.js"></script>' }),
  )
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
