/**
 * The offline banner and the reconnect indicator of the player (SPEC, Client behaviour 2 and 3), in headless Chromium
 * against pnpm start's server: a signed-in reader goes offline (context.setOffline), the banner says so (role=status)
 * and no network-error notice shows; a step played offline is queued, and on reconnection the indicator says the
 * progress was synced, which a reload (resuming from the account) confirms. Then the session is revoked: the next save
 * is refused (401), the player sends the reader to sign in again (the SPEC's 401 rule), and the refused save, kept in
 * the queue, reaches the account after the sign-in. Last, the catalog's rate limit is reached for real and the notice
 * says how long to wait.
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completeProviderPages, signInThroughProvider } from './account-sign-in'
import { launchBrowser, noBrowser, type StartedPlayer, screenshot, startPlayer } from './harness'

let player: StartedPlayer
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  if (noBrowser) return
  ;[player, browser] = await Promise.all([startPlayer(), launchBrowser()])
  context = await browser.newContext()
}, 180_000)

afterAll(async () => {
  await context?.close().catch(() => {})
  await browser?.close()
  await player?.close()
})

const blocks = (page: Page) => page.locator('.transcript .block').allInnerTexts()

const isPut = (r: { method(): string; url(): string }) =>
  r.method() === 'PUT' && r.url().includes('/api/progress/')

/** How many choices the reading state a request saves has made (-1: not a reading state). */
function choicesIn(r: Request): number {
  try {
    const body = JSON.parse(r.postData() ?? '') as { choices?: Record<string, string[]> }
    return Object.values(body.choices ?? {}).flat().length
  } catch {
    return -1
  }
}

/** Clicks the first option and waits for the text it leads to. */
async function step(page: Page): Promise<void> {
  await page.waitForSelector('.choices button.option')
  const before = await page.locator('.transcript > *').count()
  await page.locator('.choices button.option').first().click()
  await page.waitForFunction((n) => document.querySelectorAll('.transcript > *').length > n, before)
  await page.waitForSelector('.choices button.option')
}

describe.skipIf(noBrowser)('player account: offline banner, reconnect indicator, offline sync', () => {
  it('shows the banner offline, queues the step played offline, and syncs it on reconnection', async () => {
    const page = await context.newPage()
    await page.goto(`${player.url}#/story/tide-bell`)
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    const banner = page.locator('.account-offline')
    expect(await banner.getAttribute('role')).toBe('status')
    expect(await banner.isVisible()).toBe(false)
    await signInThroughProvider(page, player.issuer, 'reader')
    await page.getByRole('button', { name: /^(Start|Continue) reading$/ }).click()
    // The first step's save has landed before the connection goes. Waited for by its content (one choice made): the
    // save of the first pause, sent as the story opens, may be in flight or done already, and a step's save goes out
    // a little after its options show (counting requests from here missed one or took the first for the step's).
    const stepSaved = page.waitForResponse(
      (r) => isPut(r.request()) && r.ok() && choicesIn(r.request()) === 1,
    )
    await step(page)
    await stepSaved
    const saved = page.waitForResponse((r) => isPut(r.request()))

    await context.setOffline(true)
    await banner.waitFor({ state: 'visible' })
    expect(await banner.textContent()).toMatch(/^You are offline\..*synced when the connection returns/)
    expect(await banner.getAttribute('aria-live')).toBe('polite')
    // A step played offline (the same part: no package range is needed) is saved in the queue.
    await step(page)
    const offlineBlocks = await blocks(page)
    const queued = () =>
      new Promise<number>((resolve) => {
        const req = indexedDB.open('spkg-player-queue')
        req.onsuccess = () => {
          const db = req.result
          const names = [...db.objectStoreNames]
          if (names.length === 0) return resolve(0)
          const count = db
            .transaction(names, 'readonly')
            .objectStore(names[0] as string)
            .count()
          count.onsuccess = () => resolve(count.result)
        }
        req.onerror = () => resolve(-1)
      })
    // The step's save reaches the queue a little after its options show: wait for it (a count above 0), then count.
    await page.waitForFunction(queued)
    expect(await page.evaluate(queued)).toBe(1)
    // While the banner shows, failed requests give no "could not be reached" notice.
    expect(await page.locator('.account-notice[data-kind="network-error"]').count()).toBe(0)
    await screenshot(page, 'account-offline-banner')

    await context.setOffline(false)
    const indicator = page.locator('.account-reconnected')
    await indicator.waitFor({ state: 'visible' })
    expect(await indicator.getAttribute('role')).toBe('status')
    // The queue is sent (its save answered), then the indicator says how it went; on a loaded machine that takes
    // more than the second an expect.poll gives, and a save still on its way when the next test revokes the session
    // is refused (401) and sends the page to sign in before that test's click.
    await saved
    await page.waitForFunction(() => {
      const text = document.querySelector('.account-reconnected')?.textContent ?? ''
      return text !== '' && text !== 'Back online. Syncing…'
    })
    expect(await indicator.textContent()).toBe('Back online. Progress synced (1 save).')
    expect(await banner.isVisible()).toBe(false)
    await screenshot(page, 'account-reconnected')

    // The account has the step played offline: a reload resumes there, from the account. The resumed pause is saved
    // again (a PUT as the options show): wait for it, so that no save of this page is in flight when the next test
    // revokes the session.
    const resumedSave = page.waitForResponse((r) => isPut(r.request()) && r.ok())
    await page.reload()
    await page.getByText('Signed in as reader').waitFor()
    await page.waitForSelector('.choices button.option')
    expect(await blocks(page)).toEqual(offlineBlocks)
    await resumedSave
  })

  it('sends a reader whose session ended to sign in again, and saves the refused step after it', async () => {
    const page = context.pages()[0] as Page
    await page.getByText('Signed in as reader').waitFor()
    // The reader's session is revoked (as from another device's session list). No save of the page is in flight (the
    // test before waited for each): one answered after the revocation would send the page to sign in before the click.
    const revoked = await page.evaluate(async () => {
      const headers = {
        authorization: `Bearer ${sessionStorage.getItem('spkg-player.session:spkg.access-token')}`,
      }
      const list = (await (await fetch('/api/auth/sessions', { headers })).json()) as {
        sessions: { id: string; current: boolean }[]
      }
      const current = list.sessions.find((s) => s.current)
      if (!current) return 0
      return (await fetch(`/api/auth/sessions/${current.id}`, { method: 'DELETE', headers })).status
    })
    expect(revoked).toBe(204)
    // The API refuses every token of a revoked session issued up to the revocation, by `iat` in whole seconds
    // (apps/api/src/plugins/auth/auth-plugin.ts, issuedAfter): a token issued in the second of the revocation is refused too.
    // A person takes longer than that to sign in again; this test does not, so its sign-in waits for the next second.
    const nextSecond = (Math.floor(Date.now() / 1000) + 1) * 1000
    const refused = page.waitForResponse((r) => r.url().includes('/api/progress/') && r.status() === 401)
    const before = await blocks(page)
    expect(before.join('\n')).not.toContain('You step onto the first stone.')
    await page.getByRole('button', { name: 'Set out along the causeway' }).click()
    await refused
    // Off to the provider's login page, then back to the story.
    await page.waitForURL((u) => u.origin === new URL(player.issuer).origin)
    const synced = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().includes('/api/progress/') && r.ok(),
    )
    if (Date.now() < nextSecond) await new Promise((r) => setTimeout(r, nextSecond - Date.now() + 50))
    await completeProviderPages(page, new URL(player.url).origin, 'reader')
    await page.getByText('Signed in as reader').waitFor()
    expect(new URL(page.url()).hash).toBe('#/story/tide-bell/play')
    await synced
    // The story resumes from the account with the step refused before the sign-in.
    await page.waitForSelector('.choices button.option, .the-end')
    // The refused step set out along the causeway: its text is there, after what was shown before it.
    await page.waitForSelector('.choices button.option')
    const resumed = await blocks(page)
    expect(resumed.slice(0, before.length)).toEqual(before)
    expect(resumed.join('\n')).toContain('You step onto the first stone.')
    await screenshot(page, 'account-session-ended')
  })

  it('tells the reader how long to wait when the API throttles (429)', async () => {
    const page = context.pages()[0] as Page
    // Catalog reads are limited to 5 a second and 30 a minute per address. This page reads the catalog until the
    // sustained tier refuses (its Retry-After is tens of seconds, the burst tier's 1 s) with at least 10 s left, so the
    // read #/progress makes to name the stories is refused however slowly the machine runs (refused by the burst tier
    // alone, a read that fell among the first 5 of a new second went through now and then under load).
    const statuses = await page.evaluate(async () => {
      const out: number[] = []
      const until = Date.now() + 30_000
      while (Date.now() < until) {
        const r = await fetch('/catalog/stories?limit=1')
        out.push(r.status)
        if (r.status === 429 && Number(r.headers.get('retry-after')) >= 10) break
      }
      location.hash = '#/progress?throttled'
      return out
    })
    expect(statuses).toContain(429)
    const notice = page.locator('.account-notice[data-kind="rate-limited"]')
    await notice.waitFor()
    expect(await notice.textContent()).toMatch(/^Too many requests: try again in \d+ s\./)
    expect(await page.locator('.account-notices[role="alert"] .account-notice').count()).toBeGreaterThan(0)
    await screenshot(page, 'account-rate-limited')
    await notice.getByRole('button', { name: 'Dismiss' }).click()
    expect(await notice.count()).toBe(0)
  })
})
