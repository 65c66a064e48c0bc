/**
 * How the play view behaves: right-to-left stories, dice rolls, keyboard alone with focus on the new text, storage
 * `none` versus the device, and the publisher notices of a signed package (unverified, then trusted on this device).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packExample, smallStory } from './core-fixtures'
import { launchBrowser, noBrowser, type StartedPlayer, screenshot, startPlayer } from './harness'

let player: StartedPlayer
let browser: Browser
let signed: Buffer

const RTL_TEXT = `{seed 42}
# התחלה
אתה מטיל \${2d6} ליד השער.
* שמאלה [#left]
  בצד שמאל חשוך.
* ימינה [#right]
  בצד ימין מואר.
וכאן הדרך נגמרת.
`

beforeAll(async () => {
  if (noBrowser) return
  ;[player, browser, signed] = await Promise.all([
    startPlayer(),
    launchBrowser(),
    packExample('crooked-inn', { signed: true }),
  ])
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await player?.close()
})

/** Serves `bytes` at `<player>/core-test/<name>` for this page (a plain 200, no ranges), returns the address. */
async function serve(page: Page, name: string, bytes: Buffer): Promise<string> {
  const url = `${player.url}core-test/${name}`
  await page.route(url, (route) =>
    route.fulfill({ status: 200, body: bytes, headers: { 'content-type': 'application/octet-stream' } }),
  )
  return url
}

const blocks = (page: Page) => page.locator('.transcript .block').allInnerTexts()

describe.skipIf(noBrowser)('player core: the play view', () => {
  it('honours rtl, shows the roll of the dice, and plays by keyboard alone with focus on the new text', async () => {
    const page = await browser.newPage()
    const url = await serve(
      page,
      'rtl.spkg',
      smallStory({ language: 'he', direction: 'rtl', title: 'סיפור' }, RTL_TEXT),
    )
    await page.goto(`${player.url}#/url/${encodeURIComponent(url)}`)
    await page.waitForSelector('.envelope')
    expect(await page.locator('.envelope').getAttribute('dir')).toBe('rtl')
    // Keyboard: the start button has focus reachable with Tab from the title.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Start reading')
    await page.keyboard.press('Enter')
    await page.waitForSelector('.choices button')
    const play = page.locator('section.play')
    expect(await play.getAttribute('dir')).toBe('rtl')
    expect(await play.getAttribute('lang')).toBe('he')
    // The roll shows: its paragraph carries the die.
    expect(await page.locator('.transcript .rolled').count()).toBe(1)
    expect(await page.locator('.transcript .rolled').innerText()).toMatch(/אתה מטיל \d+ ליד השער/)
    expect(
      await page.locator('.transcript .rolled').evaluate((el) => getComputedStyle(el, '::before').content),
    ).toContain('🎲')
    // Options are buttons named by their text.
    expect(await page.getByRole('button', { name: 'ימינה' }).count()).toBe(1)
    // Tab to the second option and press Enter.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab')
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'ימינה') break
    }
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('option')
    await page.keyboard.press('Enter')
    await page.waitForSelector('.the-end')
    expect(await blocks(page)).toContain('בצד ימין מואר.')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('בצד ימין מואר.')
    await screenshot(page, 'core-rtl-end')
    await page.close()
  })

  it('resumes a story kept on the device, and starts afresh one whose manifest says storage none', async () => {
    const page = await browser.newPage()
    const kept = await serve(page, 'kept.spkg', smallStory({ id: '7c1b1e4e-8d4a-4b8e-9d0e-0c2b3a4d5e6f' }))
    const none = await serve(
      page,
      'none.spkg',
      smallStory({ id: '9a2b3c4d-1e2f-4a5b-8c6d-7e8f9a0b1c2d', storage: 'none' }),
    )
    for (const [url, resumes] of [
      [kept, true],
      [none, false],
    ] as const) {
      await page.goto(`${player.url}#/url/${encodeURIComponent(url)}/play`)
      await page.waitForSelector('.choices button')
      const first = await blocks(page)
      await page.getByRole('button', { name: 'Go left' }).click()
      await page.waitForSelector('.the-end')
      await page.reload()
      if (resumes) {
        await page.waitForSelector('.the-end')
        expect(await blocks(page)).toEqual([...first, 'Left is dark.', 'Then the road ends.'])
      } else {
        await page.waitForSelector('.choices button')
        expect(await blocks(page)).toEqual(first)
      }
    }
    await page.close()
  })

  it('shows the publisher-unverified notice for an unknown key, and the publisher once trusted', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${player.url}#/open`)
    const file = { name: 'signed-inn.spkg', mimeType: 'application/zip', buffer: signed }
    await page.setInputFiles('#open-file', file)
    await page.waitForSelector('.envelope')
    const notice = page.locator('.publisher')
    expect(await notice.getAttribute('class')).toContain('publisher-unverified')
    expect(await notice.getAttribute('role')).toBe('alert')
    expect(await notice.innerText()).toContain('Publisher unverified')
    await screenshot(page, 'core-publisher-unverified')
    await page.click('text=Trust this publisher on this device')
    await page.waitForSelector('.publisher-verified')
    expect(await page.locator('.publisher').innerText()).toMatch(/Publisher verified \(key ed25519:/)
    // The trust is kept on this device: the same package opens verified.
    await page.goto(`${player.url}#/open`)
    await page.setInputFiles('#open-file', file)
    await page.waitForSelector('.envelope')
    expect(await page.locator('.publisher').getAttribute('class')).toContain('publisher-verified')
    await context.close()
  })
})
