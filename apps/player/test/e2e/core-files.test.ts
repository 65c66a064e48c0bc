/**
 * Opening packages that are not in the catalog: .spkg files from this device (file picker and drag and drop, a flat
 * story and a multi-part one with media), a package address, and hostile archives refused with their codes.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packExample, repositoryZipball, tamperedPackage, traversalPackage } from './core-fixtures'
import { launchBrowser, noBrowser, type StartedPlayer, screenshot, startPlayer } from './harness'
import { blocks, playToEnd } from './story-page'

let player: StartedPlayer
let browser: Browser
let flat: Buffer
let multi: Buffer

beforeAll(async () => {
  if (noBrowser) return
  ;[player, browser, flat, multi] = await Promise.all([
    startPlayer(),
    launchBrowser(),
    packExample('last-ferry'),
    packExample('tide-bell'),
  ])
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await player?.close()
})

/** Drops a file on the page as a reader would drag it from the desktop. */
async function dropFile(page: Page, name: string, bytes: Buffer) {
  await page.evaluate(
    ([fileName, b64]) => {
      const bin = atob(b64 as string)
      const arr = new Uint8Array(bin.length)
      for (let i = 0; i < bin.length; i++) arr[i] = bin.charCodeAt(i)
      const dt = new DataTransfer()
      dt.items.add(new File([arr], fileName as string, { type: 'application/zip' }))
      const zone = document.querySelector('[data-drop]') as HTMLElement
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }))
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
    },
    [name, bytes.toString('base64')],
  )
}

/** Opens `buffer` from the file picker as the file `name`; the text of the refusal that names it. */
async function refusal(page: Page, name: string, buffer: Buffer): Promise<string> {
  await page.setInputFiles('#open-file', { name, mimeType: 'application/zip', buffer })
  await page.waitForSelector(`.refusal:has-text("${name}")`)
  return page.locator('.refusal').innerText()
}

describe.skipIf(noBrowser)('player core: packages from files and addresses', () => {
  it('opens a flat story from the file picker (nothing uploaded) and plays it to an ending', async () => {
    const page = await browser.newPage()
    const uploads: string[] = []
    page.on('request', (r) => {
      if (r.method() !== 'GET') uploads.push(`${r.method()} ${r.url()}`)
    })
    await page.goto(`${player.url}#/open`)
    await page.setInputFiles('#open-file', {
      name: 'last-ferry.spkg',
      mimeType: 'application/zip',
      buffer: flat,
    })
    await page.waitForSelector('.envelope')
    expect(await page.locator('#envelope-title').innerText()).toBe('last-ferry')
    await page.click('text=Start reading')
    await page.waitForSelector('.choices button')
    expect((await blocks(page)).length).toBeGreaterThan(0)
    const clicked = await playToEnd(page)
    expect(clicked.length).toBeGreaterThan(0)
    await screenshot(page, 'core-flat-end')
    expect(uploads).toEqual([])
    await page.close()
  })

  it('opens a multi-part story with media dropped on the page, through all its parts', async () => {
    const page = await browser.newPage()
    await page.goto(`${player.url}#/open`)
    await page.waitForSelector('[data-drop]')
    await dropFile(page, 'tide-bell.spkg', multi)
    await page.waitForSelector('.envelope')
    expect(await page.locator('#envelope-title').innerText()).toBe('The Tide Bell')
    expect(await page.locator('.envelope img.cover').getAttribute('src')).toMatch(/^blob:/)
    await page.click('text=Start reading')
    await playToEnd(page)
    expect(await page.locator('.transcript h2').allInnerTexts()).toEqual([
      'The Shore',
      'The Causeway',
      'The Chapel',
    ])
    expect(await page.locator('.transcript img').getAttribute('alt')).toContain('The shore at low tide')
    await page.close()
  })

  it('opens a package address; a missing one is refused with pkg/fetch-failed', async () => {
    const page = await browser.newPage()
    const res = await fetch(`${player.apiBase}/catalog/stories/crooked-inn`)
    const { package: pkg } = (await res.json()) as { package: { url: string } }
    await page.goto(`${player.url}#/open`)
    await page.fill('#open-url', pkg.url)
    await page.click('form:has(#open-url) button')
    await page.waitForSelector('.envelope')
    expect(page.url()).toContain('#/url/')
    expect(await page.locator('#envelope-title').innerText()).toBe('The Crooked Inn')
    await page.click('text=Start reading')
    await page.waitForSelector('.choices button:has-text("forest path")')

    await page.goto(
      `${player.url}#/url/${encodeURIComponent(`${player.apiBase}/files/packages/nothing-here.spkg`)}`,
    )
    await page.waitForSelector('.refusal')
    expect(await page.locator('.refusal').innerText()).toContain('pkg/fetch-failed')
    await page.close()
  })

  it('refuses hostile packages in plain words with their codes', async () => {
    const page = await browser.newPage()
    await page.goto(`${player.url}#/open`)
    const text = await refusal(page, 'evil.spkg', traversalPackage())
    expect(text).toContain('“evil.spkg” could not be opened')
    expect(text).toContain('outside itself')
    expect(text).toContain('pkg/unsafe-path')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('refusal-title')
    await screenshot(page, 'core-refused-traversal')

    const tampered = await refusal(page, 'tampered.spkg', tamperedPackage())
    expect(tampered).toContain('pkg/integrity-mismatch')
    expect(tampered).toContain('does not match the checksum')
    await screenshot(page, 'core-refused-integrity')

    // A repository address the importer does not accept: refused before any request.
    await page.fill('#open-repo', 'https://example.org/not/a-repo')
    await page.click('form:has(#open-repo) button')
    await page.waitForSelector('.refusal:has-text("repository")')
    expect(await page.locator('.refusal').innerText()).toContain('repo/invalid-url')
    await page.close()
  })

  it('loads a story from a repository address under the policy the player is served with', async () => {
    const zipball = await repositoryZipball('crooked-inn', 'owner-story-0a1b2c3')
    // The player's answers add GitHub's API and download hosts to connect-src (apps/api/src/routes/player/player-routes.ts);
    // the host itself is faked here, the policy is the served one (no bypass).
    const context = await browser.newContext()
    await context.route('https://api.github.com/repos/owner/story/zipball', (r) =>
      r.fulfill({
        status: 200,
        body: zipball,
        headers: { 'content-type': 'application/zip', 'access-control-allow-origin': '*' },
      }),
    )
    const page = await context.newPage()
    const violations: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    })
    await page.goto(`${player.url}#/open`)
    await page.fill('#open-repo', 'https://github.com/owner/story')
    await page.click('form:has(#open-repo) button')
    await page.waitForSelector('.envelope, .refusal')
    expect(await page.locator('.refusal').count()).toBe(0)
    expect(await page.locator('#envelope-title').innerText()).toBe('The Crooked Inn')
    await page.click('text=Start reading')
    await page.waitForSelector('.choices button:has-text("forest path")')
    expect(violations).toEqual([])
    await screenshot(page, 'core-repo-opened')
    await context.close()
  })
})
