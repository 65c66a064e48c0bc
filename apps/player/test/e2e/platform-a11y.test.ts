/**
 * Accessibility, checked by axe-core in the real page: no serious or critical violation on the home page (the
 * catalog), the envelope of a story and the play view (a story with pictures, so alt texts count), in the light
 * and the dark colour scheme. axe's source is evaluated through the DevTools protocol (`page.evaluate`), which the
 * page's CSP does not govern: the page itself keeps running under its real policy.
 */
import { describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { noBrowser, screenshot } from './harness'
import { playerAndBrowser } from './per-file'

const e2e = playerAndBrowser()

describe.skipIf(noBrowser)('accessibility (axe-core)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical violation on home, envelope and play (${colorScheme})`, async () => {
      const context = await e2e.browser.newContext({ colorScheme })
      const page = await context.newPage()
      page.on('console', (m) => {
        if (m.type() === 'error') console.error(`page: ${m.text()}`)
      })
      await page.goto(e2e.player.url)
      await page
        .getByRole('link', { name: 'The Tide Bell' })
        .first()
        .waitFor()
        .catch(async (e: unknown) => {
          await screenshot(page, `platform-a11y-failed-home-${colorScheme}`)
          throw e
        })
      await page.locator('img').first().waitFor()
      const home = await seriousViolations(page)
      await screenshot(page, `platform-a11y-home-${colorScheme}`)

      await page.getByRole('link', { name: 'The Tide Bell' }).first().click()
      const start = page.getByRole('button', { name: /Start reading|Continue reading/ }).first()
      await start.waitFor()
      const envelope = await seriousViolations(page)
      await screenshot(page, `platform-a11y-envelope-${colorScheme}`)

      await start.click()
      await page.getByRole('log', { name: 'Story' }).getByRole('img').first().waitFor()
      await page.getByRole('button', { name: 'Ask her about the bell' }).waitFor()
      const play = await seriousViolations(page)
      await screenshot(page, `platform-a11y-play-${colorScheme}`)

      expect({ home, envelope, play }).toEqual({ home: [], envelope: [], play: [] })
      await context.close()
    })
  }
})
