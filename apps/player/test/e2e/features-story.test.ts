/**
 * The features on a seeded story with a session file, a tab bar and an instruction package (examples/harbour-heist
 * and examples/harbour-heist-guide), in Chromium against the real server: the session form validates and injects its
 * values, the tab bar follows the hand and shows the exposed variables, the map and the actions, and the instruction
 * action opens the guide as its own package, which lists the story it covers.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { noBrowser, screenshot } from './harness'
import { playerAndBrowser } from './per-file'

const e2e = playerAndBrowser()

const sections = (page: Page) =>
  page
    .locator('.tab-buttons > button')
    .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.section ?? 'hand'))

const panelVar = (page: Page, name: string) => page.locator(`.tab-panel [data-var="${name}"] dd`).innerText()

describe.skipIf(noBrowser)('player features: session settings, tab bar, instruction package', () => {
  it('seeds the story and its guide', () => {
    expect(e2e.player.seeded, e2e.player.output().stdout.slice(-2000)).toEqual(
      expect.arrayContaining(['harbour-heist', 'harbour-heist-guide']),
    )
  })

  it('plays harbour-heist with adjusted session values and its tab bar', async () => {
    const page = await e2e.browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`${e2e.player.url}#/story/harbour-heist`)
    await page.waitForSelector('.envelope')
    expect(await page.locator('.envelope-features .instruction-open').innerText()).toBe(
      'Open the instructions',
    )
    await page.click('text=Start reading')

    // The form built from session.json, every value in its own type.
    await page.waitForSelector('.start-form')
    const form = page.locator('.start-form')
    expect(await form.locator('label').allInnerTexts()).toEqual(
      expect.arrayContaining(['Crew name', 'Crew', 'Difficulty', 'Coins', 'Night watch', 'Hints']),
    )
    expect(await form.locator('textarea[data-key="crew"]').inputValue()).toBe('Ada\nBram\nCleo')
    expect(await form.locator('input[data-key="night_watch"]').isChecked()).toBe(true)
    await form.locator('input[data-key="difficulty"]').fill('two')
    await form.locator('input[data-key="coins"]').fill('4.5')
    await form.locator('button[type="submit"]').click()
    await page.waitForSelector('.start-errors:not([hidden])')
    expect(await form.locator('input[data-key="difficulty"]').getAttribute('aria-invalid')).toBe('true')
    expect(await form.locator('.start-errors').innerText()).toContain('session-form/not-a-number')
    expect(await form.locator('.start-errors').innerText()).toContain('session-form/not-integer')
    // The first invalid field has the focus, its message tied to it.
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.key)).toBe('difficulty')
    await screenshot(page, 'features-session-errors')
    expect(await seriousViolations(page)).toEqual([])

    await form.locator('input[data-key="difficulty"]').fill('3')
    await form.locator('input[data-key="coins"]').fill('9')
    await form.locator('textarea[data-key="crew"]').fill('Zed\n\n')
    await form.locator('input[data-key="crew_name"]').fill('the Crows')
    await form.locator('input[data-key="night_watch"]').uncheck()
    await form.locator('button[type="submit"]').click()
    await page.waitForSelector('.choices button')
    const text = await page.locator('.transcript').innerText()
    expect(text).toContain('The Crows (Zed) waits')
    expect(text).toContain('5 guards') // difficulty 3 + 2
    expect(text).toContain('You have 9 coins')
    expect(text).not.toContain('night watch walks')

    // The bar: closest section (actions) at the right edge for the default right hand, the hand switch far left.
    await page.waitForSelector('.tab-button')
    expect(await sections(page)).toEqual(['hand', 'help', 'map', 'bag', 'character', 'actions'])
    expect(await page.locator('.tab-button[data-section="actions"]').innerText()).toContain('Kit')
    await page.click('.tab-hand')
    expect(await sections(page)).toEqual(['actions', 'character', 'bag', 'map', 'help', 'hand'])
    expect(await page.evaluate(() => localStorage.getItem('spkg-player:handedness'))).toBe('left')

    // Bag and character show the variables the author exposes.
    await page.click('.tab-button[data-section="bag"]')
    expect(await page.locator('.tab-button[data-section="bag"]').getAttribute('aria-expanded')).toBe('true')
    expect(await panelVar(page, 'coins')).toBe('9')
    expect(await panelVar(page, 'loot')).toBe('none')
    await page.click('.tab-button[data-section="character"]')
    expect(await page.locator('.tab-button[data-section="bag"]').getAttribute('aria-expanded')).toBe('false')
    expect(await panelVar(page, 'crew')).toBe('Zed')
    expect(await panelVar(page, 'guards')).toBe('5')

    // The map image comes from the package as a blob: URL, with its alternative text.
    await page.click('.tab-button[data-section="map"]')
    const map = page.locator('.tab-panel img.tab-map')
    expect(await map.getAttribute('src')).toMatch(/^blob:/)
    expect(await map.getAttribute('alt')).toContain('Map of the harbour')
    await page.waitForFunction(
      () => (document.querySelector('.tab-panel img.tab-map') as HTMLImageElement)?.naturalWidth > 0,
    )
    expect(await seriousViolations(page)).toEqual([])

    // Actions: the QR scan the section asks for, or why this browser cannot; no photo or audio (not asked).
    await page.click('.tab-button[data-section="actions"]')
    const qr = await page.locator('.tab-panel .capture-qr, .tab-panel [data-capture="qrScan"]').innerText()
    expect(qr).toMatch(/Scan a QR code|QR scan is unavailable/)
    expect(await page.locator('.capture-photo, .capture-audio, [data-capture="photo"]').count()).toBe(0)

    // Help: the text and the story's hint; keyboard: Escape closes and gives the focus back.
    await page.focus('.tab-button[data-section="help"]')
    await page.keyboard.press('Enter')
    expect(await page.locator('.tab-panel').innerText()).toContain('Open the map')
    // Hints one at a time; the new one gets the focus.
    expect(await page.locator('.tab-hints li').count()).toBe(0)
    await page.click('.tab-hint-next')
    expect(await page.locator('.tab-hints li').allInnerTexts()).toEqual([
      'The warehouse has a second door, on the water side: the boatman knows it.',
    ])
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('LI')
    expect(await page.locator('.tab-hint-next').innerText()).toBe('Another hint')
    await page.keyboard.press('Escape')
    expect(await page.locator('.tab-panel').isHidden()).toBe(true)
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.section)).toBe('help')

    // A choice changes the variables: the open bag follows.
    await page.click('.tab-button[data-section="bag"]')
    await page.click('.choices button:has-text("Pay the boatman")')
    await page.waitForFunction(
      () => document.querySelector('.tab-panel [data-var="coins"] dd')?.textContent === '6',
    )
    await screenshot(page, 'features-tab-bar')
    expect(errors).toEqual([])
    await page.close()
  })

  it('opens the linked instruction as its own package, which lists the story it covers', async () => {
    const page = await e2e.browser.newPage()
    await page.goto(`${e2e.player.url}#/story/harbour-heist`)
    await page.click('.envelope-features .instruction-open')
    await page.waitForFunction(
      () => document.querySelector('#envelope-title')?.textContent === 'Running The Harbour Heist',
    )
    expect(page.url()).toContain('#/url/')
    expect(await page.locator('.feature-notes [data-note="instruction"]').innerText()).toContain(
      'instruction package',
    )
    await page.waitForSelector('.instruction-covers a')
    expect(await page.locator('.instruction-covers a').allInnerTexts()).toEqual(['The Harbour Heist'])
    expect(await page.locator('.instruction-covers a').getAttribute('href')).toBe('#/story/harbour-heist')
    await screenshot(page, 'features-instruction')
    // Playing the guide: no session form (it has none), the same list in the play view.
    await page.click('text=Start reading')
    await page.waitForSelector('.choices button')
    await page.waitForSelector('.play-actions .instruction-covers a')
    // And back to the story from the guide.
    await page.click('.play-actions .instruction-covers a')
    await page.waitForFunction(
      () => document.querySelector('#envelope-title')?.textContent === 'The Harbour Heist',
    )
    await page.close()
  })
})
