/**
 * How the play view behaves: right-to-left stories, dice rolls, keyboard alone with focus on the new text, storage
 * `none` versus the device, and the publisher notices of a signed package (unverified, then trusted on this device).
 */
import { randomBytes } from 'node:crypto'
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packExample, smallStory } from './core-fixtures'
import { launchBrowser, noBrowser, type StartedPlayer, screenshot, startPlayer } from './harness'

let player: StartedPlayer
let browser: Browser
let signed: Buffer
/** tide-bell, progressive but not kept offline: its later parts are read only when needed. */
let progressive: Buffer

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
  ;[player, browser, signed, progressive] = await Promise.all([
    startPlayer(),
    launchBrowser(),
    packExample('crooked-inn', { signed: true }),
    packExample('tide-bell', {
      manifest: (m) => {
        delete m.offline
      },
      // Later parts larger than the reader's first read of the archive's tail (64 KiB): they stay on the server.
      files: async (folder) => {
        for (const part of ['0002-causeway.sty', '0003-chapel.sty']) {
          const lines = Array.from({ length: 1200 }, () => `// ${randomBytes(60).toString('base64')}`)
          await appendFile(join(folder, 'story', part), `\n${lines.join('\n')}\n`)
        }
      },
    }),
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

/**
 * Serves `bytes` with HTTP ranges (206, `Content-Range`, a strong `ETag`), as the files route does; while `hold()`
 * returns a promise, range reads wait for it; while `fail()` is true they fail as a lost connection would. Returns
 * the address and the reads made.
 */
async function serveRanged(
  page: Page,
  name: string,
  bytes: Buffer,
  hold: () => Promise<void> | undefined,
  fail: () => boolean = () => false,
): Promise<{ url: string; reads: string[] }> {
  const url = `${player.url}core-test/${name}`
  const reads: string[] = []
  await page.route(url, async (route) => {
    const range = route.request().headers().range
    const size = bytes.length
    const headers = {
      'content-type': 'application/octet-stream',
      etag: '"core-test-1"',
      'accept-ranges': 'bytes',
    }
    if (!range) return route.fulfill({ status: 200, body: bytes, headers })
    const m = /^bytes=(\d*)-(\d*)$/.exec(range)
    if (!m) return route.fulfill({ status: 416, headers: { 'content-range': `bytes */${size}` } })
    let start: number
    let end: number
    if (m[1] === '') {
      start = Math.max(0, size - Number(m[2]))
      end = size - 1
    } else {
      start = Number(m[1])
      end = m[2] === '' ? size - 1 : Math.min(size - 1, Number(m[2]))
    }
    reads.push(range)
    if (fail()) return route.abort('connectionfailed')
    const wait = hold()
    if (wait) await wait
    return route.fulfill({
      status: 206,
      body: bytes.subarray(start, end + 1),
      headers: { ...headers, 'content-range': `bytes ${start}-${end}/${size}` },
    })
  })
  return { url, reads }
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
    ).toContain('⚄')
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
    expect(await page.locator('.the-end').getAttribute('dir')).toBe('ltr')
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

  it('shows a loading state, never a blank, while a progressive part is still on its way', async () => {
    const page = await browser.newPage()
    // A browser without Cache Storage keeps nothing for offline play (docs/offline.md): the parts the open leaves on
    // the server are then fetched only as the story goes on, which is what this test watches.
    await page.addInitScript(() => Object.defineProperty(window, 'caches', { value: undefined }))
    const warnings: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text())
    })
    let holding = false
    let held = 0
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => {
      release = r
    })
    const { url, reads } = await serveRanged(page, 'tide-bell.spkg', progressive, () => {
      if (!holding) return undefined
      held++
      return gate
    })
    await page.goto(`${player.url}#/url/${encodeURIComponent(url)}`)
    await page.waitForSelector('.envelope')
    const atOpen = reads.length
    expect(atOpen).toBeGreaterThan(0)
    // From now on, the parts the open left on the server wait until the test has seen the loading state.
    holding = true
    await page.click('text=Start reading')
    await page.waitForSelector('.choices button')
    let sawLoading = ''
    for (let i = 0; i < 30 && !(await page.locator('.the-end').count()); i++) {
      const before = await page.locator('.transcript > *').count()
      await page.locator('.choices button').first().click()
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll('.transcript > *').length > n &&
          !!(
            document.querySelector('.choices button, .the-end') || document.querySelector('.play-status.busy')
          ),
        before,
      )
      // One reading of the page: a loading state can end between two separate queries (a part
      // that was not held arrives), and a locator would then wait for an element that is gone.
      const busy = await page.evaluate(() => {
        const status = document.querySelector('.play-status.busy')
        return status
          ? {
              text: (status as HTMLElement).innerText,
              ariaBusy: document.querySelector('section.play')?.getAttribute('aria-busy'),
              choices: document.querySelectorAll('.choices button').length,
            }
          : undefined
      })
      if (busy) {
        sawLoading = busy.text
        expect(busy.ariaBusy).toBe('true')
        expect(busy.choices).toBe(0)
        await screenshot(page, 'core-progressive-loading')
        holding = false
        release()
        await page.waitForSelector('.choices button, .the-end')
        expect(await page.locator('.play-status.busy').count()).toBe(0)
      }
    }
    expect(held).toBeGreaterThan(0)
    expect(sawLoading).toBe('Loading the next part…')
    await page.waitForSelector('.the-end')
    expect(await page.locator('.transcript h2').allInnerTexts()).toEqual([
      'The Shore',
      'The Causeway',
      'The Chapel',
    ])
    expect(reads.length).toBeGreaterThan(atOpen)
    expect(warnings.filter((w) => w.includes('story/'))).toEqual([])
    await page.close()
  })

  it('says when a part cannot be loaded, and tries again from the last pause', async () => {
    const page = await browser.newPage()
    await page.addInitScript(() => Object.defineProperty(window, 'caches', { value: undefined }))
    let failing = false
    const { url } = await serveRanged(
      page,
      'tide-bell-fail.spkg',
      progressive,
      () => undefined,
      () => failing,
    )
    await page.goto(`${player.url}#/url/${encodeURIComponent(url)}/play`)
    await page.waitForSelector('.choices button')
    failing = true
    // The third option leaves the first part.
    await page.getByRole('button', { name: 'Set out along the causeway' }).click()
    await page.waitForSelector('.load-failed', { timeout: 20_000 })
    expect(await page.locator('.load-failed').innerText()).toContain('story/load-failed')
    expect(await page.locator('.the-end').count()).toBe(0)
    await screenshot(page, 'core-part-failed')
    failing = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await page.waitForSelector('.choices button:has-text("Set out along the causeway")')
    await page.getByRole('button', { name: 'Set out along the causeway' }).click()
    await page.waitForSelector('.choices button:has-text("Walk towards the sound")')
    expect(await page.locator('.transcript h2').allInnerTexts()).toEqual(['The Shore', 'The Causeway'])
    await page.close()
  })
})
