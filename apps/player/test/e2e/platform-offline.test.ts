/**
 * Offline after a first visit (docs/offline.md): open the seeded progressive story "The Tide Bell" from the
 * catalog once, online; then with the network gone (`context.setOffline(true)`) reload: the page comes from the
 * service worker, the catalog from its cache, and the story opens again and plays from the copy the reader kept
 * on the device, every part of it (the later ones included, which the first visit never read).
 */
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { noBrowser, screenshot } from './harness'
import { playerAndBrowser } from './per-file'

const e2e = playerAndBrowser()

const TITLE = 'The Tide Bell'
const FIRST_LINE = 'The village ends where the sand begins.'

/** From the catalog to the first block of the story. */
async function openFromCatalog(page: Page): Promise<void> {
  await page.getByRole('link', { name: TITLE }).first().click()
  await page
    .getByRole('button', { name: /Start reading|Continue reading/ })
    .first()
    .click()
  await page.getByRole('log', { name: 'Story' }).getByText(FIRST_LINE).waitFor()
}

describe.skipIf(noBrowser)('offline after a first visit', () => {
  it('reloads with the network gone and plays the story opened once, from the device', async () => {
    const context: BrowserContext = await e2e.browser.newContext()
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (e) => pageErrors.push(String(e)))
    await page.goto(e2e.player.url)
    await page.getByRole('link', { name: TITLE }).first().waitFor()
    // The worker installs (precaching the app shell) and takes control of this first page.
    await page
      .waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 40_000 })
      .catch(async (e: unknown) => {
        const state = await page.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration()
          return JSON.stringify({
            installing: r?.installing?.state,
            waiting: r?.waiting?.state,
            active: r?.active?.state,
          })
        })
        throw new Error(`the service worker did not take control (${state}): ${String(e)}`)
      })
    await openFromCatalog(page)
    // The whole package is kept in the background, the parts not read yet included.
    await page.waitForFunction(
      (url) => {
        const index = JSON.parse(localStorage.getItem('spkg.offline.packages') ?? '{}') as Record<
          string,
          unknown
        >
        return Object.keys(index).some((k) => k.startsWith(url))
      },
      e2e.player.apiBase,
      { timeout: 20_000 },
    )
    const kept = await page.evaluate(async () => {
      const names = await caches.keys()
      const packages = await (await caches.open('spkg-packages')).keys()
      return { names, files: packages.length }
    })
    expect(kept.names).toContain('spkg-packages')
    expect(kept.files).toBeGreaterThanOrEqual(6) // manifest, checksums, three parts, media

    await context.setOffline(true)
    const offlineRequests: string[] = []
    page.on('requestfailed', (r) => offlineRequests.push(r.url()))
    await page.goto(e2e.player.url)
    await page.reload()
    // The page and its scripts come from the worker; the catalog from its runtime cache.
    await page.getByRole('link', { name: TITLE }).first().waitFor({ timeout: 15_000 })
    await openFromCatalog(page)
    await screenshot(page, 'platform-offline-play')
    expect(await page.evaluate(() => navigator.onLine)).toBe(false)
    // Go on into the next parts: they are read from the device too.
    const log = page.getByRole('log', { name: 'Story' })
    await page.getByRole('button', { name: 'Set out along the causeway' }).click()
    await expect
      .poll(async () => (await log.textContent())?.length ?? 0)
      .toBeGreaterThan(FIRST_LINE.length * 3)
    expect(await page.getByText(/could not be loaded/).count()).toBe(0)
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
