/**
 * The reader's main path against `pnpm start`'s real server: the catalog, a seeded story opened from it (read over
 * HTTP ranges from the files route), played to an ending by clicking, a reload that resumes at the same place, and a
 * progressive story with media whose parts load while it plays.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { noBrowser, screenshot } from './harness'
import { playerAndBrowser } from './per-file'
import { blocks, playToEnd } from './story-page'

const e2e = playerAndBrowser()

const options = (page: Page) => page.locator('.choices button').allInnerTexts()

describe.skipIf(noBrowser)('player core: catalog, play, resume', () => {
  it('lists the seeded catalog with its details, and filters it by text, genre, language and age', async () => {
    const page = await e2e.browser.newPage()
    await page.goto(e2e.player.url)
    await page.waitForSelector('.story-card')
    const slugs = await page
      .locator('.story-card')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')))
    expect(slugs).toEqual(expect.arrayContaining(['crooked-inn', 'tide-bell']))
    const inn = page.locator('[data-slug="crooked-inn"]')
    await expect.poll(() => inn.innerText()).toContain('The Crooked Inn')
    const innText = await inn.innerText()
    expect(innText).toContain('by Ann Author')
    expect(innText).toMatch(/Genre\s+fantasy/)
    expect(innText).toMatch(/Duration\s+5 min/)
    expect(innText).toMatch(/Language\s+en/)
    expect(await inn.locator('img.card-cover').getAttribute('src')).toMatch(/\/files\/covers\//)
    await screenshot(page, 'core-catalog')

    // Keyboard only: the search box is reachable and filters as one types.
    await page.focus('#q')
    await page.keyboard.type('tide')
    await expect.poll(() => page.locator('.story-card').count()).toBe(1)
    expect(await page.locator('.story-card').getAttribute('data-slug')).toBe('tide-bell')
    expect(page.url()).toContain('q=tide')
    await page.fill('#q', '')
    await page.selectOption('#genre', 'fantasy')
    await expect.poll(() => page.locator('.story-card').count()).toBe(1)
    await page.selectOption('#genre', '')
    await page.fill('#age', '9')
    // Stories for 10+ and 12+ are left out for a nine-year-old.
    await expect.poll(async () => (await page.locator('.story-card').count()) < slugs.length).toBe(true)
    expect(await page.locator('[data-slug="tide-bell"]').count()).toBe(0)
    await page.fill('#age', '')
    await page.selectOption('#lang', 'en')
    await expect.poll(() => page.locator('.story-card').count()).toBe(slugs.length)
    await page.close()
  })

  it('keeps every cover at its own aspect ratio: the cover page does not stretch, the catalog does not crop', async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.goto(`${e2e.player.url}#/story/tide-bell`)
    const cover = page.locator('.envelope img.cover')
    await page.waitForFunction(
      () => (document.querySelector('.envelope img.cover') as HTMLImageElement)?.naturalWidth > 0,
    )
    const shape = () =>
      cover.evaluate((img: HTMLImageElement) => ({
        natural: img.naturalWidth / img.naturalHeight,
        shown: img.getBoundingClientRect().width / img.getBoundingClientRect().height,
        fit: getComputedStyle(img).objectFit,
      }))
    const desktop = await shape()
    expect(desktop.natural).toBeCloseTo(1.5, 2) // the example's 240x160 landscape cover
    expect(desktop.shown).toBeCloseTo(desktop.natural, 1)
    await screenshot(page, 'core-envelope-landscape')
    await page.setViewportSize({ width: 390, height: 844 })
    await page.emulateMedia({ colorScheme: 'dark' })
    const phone = await shape()
    expect(phone.shown).toBeCloseTo(phone.natural, 1)
    await screenshot(page, 'core-envelope-landscape-phone-dark')
    await page.goto(e2e.player.url)
    await page.waitForSelector('img.card-cover')
    await page.waitForFunction(() =>
      [...document.querySelectorAll('img.card-cover')].every((i) => (i as HTMLImageElement).complete),
    )
    await screenshot(page, 'core-catalog-phone-dark')
    const fits = await page
      .locator('img.card-cover')
      .evaluateAll((imgs) => imgs.map((i) => getComputedStyle(i).objectFit))
    expect(fits.length).toBeGreaterThan(0)
    expect(new Set(fits)).toEqual(new Set(['contain']))
    await page.close()
  })

  it('opens a seeded story from the catalog, plays it to an ending, resumes after a reload', async () => {
    const page = await e2e.browser.newPage()
    const ranged: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/files/packages/') && r.headers().range) ranged.push(r.headers().range as string)
    })
    await page.goto(e2e.player.url)
    await page.click('[data-slug="crooked-inn"] a')
    // The envelope first.
    await page.waitForSelector('.envelope')
    const env = await page.locator('.envelope').innerText()
    expect(env).toContain('The Crooked Inn')
    expect(env).toContain('Dawn at the inn, and a road that forks.')
    expect(env).toMatch(/Licence\s+CC-BY-4.0/)
    expect(env).toMatch(/not signed|unverified|verified/)
    expect(await page.locator('.envelope img.cover').getAttribute('src')).toMatch(/^blob:/)
    expect(ranged.length).toBeGreaterThan(0) // read over HTTP ranges from the files route
    await screenshot(page, 'core-envelope')

    await page.click('text=Start reading')
    await page.waitForSelector('.choices button')
    expect(page.url()).toContain('#/story/crooked-inn/play')
    expect(await blocks(page)).toEqual([
      'Dawn. You settle your bill.',
      'The Road',
      'The road forks: the forest path or the river road.',
    ])
    // Focus on the story's first text; links are real buttons named by their text.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Dawn. You settle your bill.')
    expect(await options(page)).toEqual(['forest path', 'river road'])
    await page.getByRole('button', { name: 'forest path' }).click()
    await page.waitForSelector('.choices button:has-text("Run")')
    const before = await blocks(page)
    expect(before.at(-1)).toBe('2 wolves watch you. You have 2 coins.')
    // Focus moved to the new text.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Forest Edge')

    // Reload: the same place, the scroll-back rebuilt without animation.
    await page.reload()
    await page.waitForSelector('.choices button')
    expect(await blocks(page)).toEqual(before)
    expect(await options(page)).toEqual(['Run'])
    expect(await page.locator('.transcript .block.fresh').count()).toBe(0)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Run')
    await screenshot(page, 'core-resumed')

    expect(await playToEnd(page)).toEqual(['Run'])
    await page.waitForSelector('.the-end')
    await screenshot(page, 'core-the-end')
    // Start again: the story from its beginning, the saved place forgotten.
    await page.click('text=Start again')
    await page.waitForSelector('.choices button:has-text("forest path")')
    expect(await blocks(page)).toHaveLength(3)
    await page.reload()
    await page.waitForSelector('.choices button')
    expect(await options(page)).toEqual(['forest path', 'river road'])
    // The envelope of a story with a saved place offers to continue it, or to start from the beginning.
    await page.goto(`${e2e.player.url}#/story/crooked-inn`)
    await page.waitForSelector('.envelope')
    expect(await page.locator('.envelope-actions button').allInnerTexts()).toEqual([
      'Continue reading',
      'Start from the beginning',
    ])
    await page.close()
  })

  it('plays a seeded progressive story with media from the catalog: parts, images and audio as blob: URLs', async () => {
    const page = await e2e.browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`${e2e.player.url}#/story/tide-bell`)
    await page.waitForSelector('.envelope')
    await page.click('text=Start reading')
    await page.waitForSelector('.choices button')
    const img = page.locator('.transcript img').first()
    expect(await img.getAttribute('src')).toMatch(/^blob:/)
    expect(await img.getAttribute('alt')).toContain('The shore at low tide')
    const clicked = await playToEnd(page)
    expect(clicked[0]).toBe('Ask her about the bell')
    expect(await page.locator('.transcript audio').getAttribute('src')).toMatch(/^blob:/)
    expect(await page.locator('.transcript h2').allInnerTexts()).toEqual([
      'The Shore',
      'The Causeway',
      'The Chapel',
    ])
    // Emphasis kept as markup.
    expect(await page.locator('.transcript strong').first().innerText()).toBe('The end.')
    await screenshot(page, 'core-progressive-end')
    expect(errors).toEqual([])
    await page.close()
  })
})
