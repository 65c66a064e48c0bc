/**
 * Reading and playing the story view of a page the e2e tests opened: the blocks shown, and clicking through to an ending.
 */
import type { Page } from 'playwright-core'

/** Texts of the story blocks shown (not the echo of the reader's choices). */
export const blocks = (page: Page) => page.locator('.transcript .block').allInnerTexts()

/** Clicks the first choice until the end; returns the choices clicked. */
export async function playToEnd(page: Page, max = 30): Promise<string[]> {
  const clicked: string[] = []
  for (let i = 0; i < max; i++) {
    await page.waitForSelector('.choices button, .the-end')
    if (await page.locator('.the-end').count()) return clicked
    const first = page.locator('.choices button').first()
    clicked.push(await first.innerText())
    const before = await page.locator('.transcript > *').count()
    await first.click()
    // The chosen option's echo and the text it leads to arrive before the next choices.
    await page.waitForFunction((n) => document.querySelectorAll('.transcript > *').length > n, before)
  }
  throw new Error(`no ending after ${max} choices: ${clicked.join(' / ')}`)
}
