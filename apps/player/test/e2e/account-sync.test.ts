/**
 * Sign-in through the development identity provider's own pages (PKCE, the callback at / of the player), a seeded
 * story played a few steps with its progress saved to the account, a SECOND browser context signed in as the same
 * user that lists the story under #/progress and resumes it at the same place, and sign-out.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInThroughProvider } from './account-sign-in'
import { launchBrowser, noBrowser, type StartedPlayer, screenshot, startPlayer } from './harness'

let player: StartedPlayer
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  if (noBrowser) return
  ;[player, browser] = await Promise.all([startPlayer(), launchBrowser()])
}, 180_000)

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {})
  await browser?.close()
  await player?.close()
})

async function newPage(): Promise<Page> {
  const context = await browser.newContext()
  contexts.push(context)
  return context.newPage()
}

/** The texts of the story's blocks shown, in order. */
const blocks = (page: Page) => page.locator('.transcript .block').allInnerTexts()

/** Clicks the first choice `steps` times, waiting each time for the text it leads to. */
async function play(page: Page, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) {
    await page.waitForSelector('.choices button.option')
    const before = await page.locator('.transcript > *').count()
    await page.locator('.choices button.option').first().click()
    await page.waitForFunction((n) => document.querySelectorAll('.transcript > *').length > n, before)
  }
  await page.waitForSelector('.choices button, .the-end')
}

describe.skipIf(noBrowser)('player account: sign-in, progress synced to another browser, sign-out', () => {
  it('signs in, saves to the account, resumes in a second context, lists it, and signs out', async () => {
    // First browser: sign in from the story's page, come back to it, play three steps.
    const a = await newPage()
    await a.goto(`${player.url}#/story/tide-bell`)
    await a.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await signInThroughProvider(a, player.issuer, 'reader')
    expect(new URL(a.url()).search).toBe('')
    expect(new URL(a.url()).hash).toBe('#/story/tide-bell')
    await a.getByRole('button', { name: /^(Start|Continue) reading$/ }).click()
    await play(a, 3)
    const shown = await blocks(a)
    expect(shown.length).toBeGreaterThan(2)
    await screenshot(a, 'account-sync-first-browser')

    // Second browser, same user: the story is listed and resumes at the same place.
    const b = await newPage()
    await b.goto(`${player.url}#/progress`)
    await b.getByRole('heading', { name: 'Stories in progress' }).waitFor()
    await signInThroughProvider(b, player.issuer, 'reader')
    expect(new URL(b.url()).hash).toBe('#/progress')
    const entry = b.locator('.progress-list li', { hasText: 'The Tide Bell' })
    await entry.waitFor()
    expect(await entry.textContent()).toMatch(/Saved in your account/)
    await screenshot(b, 'account-sync-progress-list')
    await entry.getByRole('link', { name: 'Continue “The Tide Bell”' }).click()
    await b.waitForSelector('.choices button, .the-end')
    await expect.poll(() => blocks(b)).toEqual(shown)
    await screenshot(b, 'account-sync-second-browser')

    // Sign-out: the header offers sign-in again, and the list is the device's (empty here).
    await b.getByRole('button', { name: 'Sign out' }).click()
    await b.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await b.goto(`${player.url}#/progress`)
    await b.getByText('The stories saved on this device.', { exact: false }).waitFor()
    expect(await b.locator('.progress-list li').count()).toBe(0)
    // Signed out, a step is saved on the device, and listed as such.
    await b.goto(`${player.url}#/story/tide-bell/play`)
    await play(b, 1)
    await b.goto(`${player.url}#/progress`)
    const local = b.locator('.progress-list li', { hasText: 'The Tide Bell' })
    await local.waitFor()
    expect(await local.textContent()).toMatch(/Saved on this device/)

    // The first browser stays signed in; a new tab there is handed the session, and signing out in it ends the
    // session in every tab of that browser.
    await a.reload()
    await a.getByText('Signed in as reader').waitFor()
    const a2 = await a.context().newPage()
    await a2.goto(`${player.url}#/progress`)
    await a2.getByText('Signed in as reader').waitFor()
    await a2.locator('.progress-list li', { hasText: 'The Tide Bell' }).waitFor()
    await a2.getByRole('button', { name: 'Sign out' }).click()
    await a2.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await a.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    expect(await a.getByText('Signed in as reader').count()).toBe(0)
  })
})
