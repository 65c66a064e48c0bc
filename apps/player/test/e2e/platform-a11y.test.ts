/**
 * Accessibility, checked by axe-core in the real page: no serious or critical violation on the home page (the
 * catalog), the envelope of a story and the play view (a story with pictures, so alt texts count), in the light
 * and the dark colour scheme. axe's source is evaluated through the DevTools protocol (`page.evaluate`), which the
 * page's CSP does not govern: the page itself keeps running under its real policy.
 */
import axe from 'axe-core'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, noBrowser, type StartedPlayer, screenshot, startPlayer } from './harness'

let player: StartedPlayer
let browser: Browser

beforeAll(async () => {
  player = await startPlayer()
  if (!noBrowser) browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await player?.close()
})

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{ target: unknown[]; failureSummary?: string }>
}

/** The serious and critical violations axe finds in the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source)
  // New blocks fade in (0.35 s): contrast is measured on the settled page, as a reader sees it.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)))
  const violations = (await page.evaluate(async () => {
    const inPage = (
      window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown }> } }
    ).axe
    return (await inPage.run(document, { resultTypes: ['violations'] })).violations
  })) as Violation[]
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}) at ${v.nodes
          .slice(0, 3)
          .map((n) => JSON.stringify(n.target))
          .join(', ')}`,
    )
}

describe.skipIf(noBrowser)('accessibility (axe-core)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical violation on home, envelope and play (${colorScheme})`, async () => {
      const context = await browser.newContext({ colorScheme })
      const page = await context.newPage()
      page.on('console', (m) => {
        if (m.type() === 'error') console.error(`page: ${m.text()}`)
      })
      await page.goto(player.url)
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
