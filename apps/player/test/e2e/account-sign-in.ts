/**
 * Sign-in through the development identity provider's own pages, as a reader does it: **Sign in** in the player's
 * header, the provider's login form (any user name, any password; skipped when the provider still has a session), its
 * consent page, and back to the player.
 */
import type { Page } from 'playwright-core'

/** On the provider's pages: signs `login` in and consents until the browser is back at `playerOrigin`. */
export async function completeProviderPages(
  page: Page,
  playerOrigin: string,
  login = 'reader',
): Promise<void> {
  for (let i = 0; i < 6 && new URL(page.url()).origin !== playerOrigin; i++) {
    await page.waitForLoadState()
    if (new URL(page.url()).origin === playerOrigin) break
    const user = page.locator('input[name=login]')
    if ((await user.count()) > 0) {
      await user.fill(login)
      await page.locator('input[name=password]').fill('any')
    }
    const submit = page.locator('button[type=submit]')
    if ((await submit.count()) === 0) continue
    const from = page.url()
    await submit.first().click()
    await page.waitForURL((u) => u.href !== from, { timeout: 10_000 })
  }
  await page.waitForURL((u) => u.origin === playerOrigin)
}

/** Signs `login` in from the player page `page`, which must show the header's **Sign in**. */
export async function signInThroughProvider(page: Page, issuer: string, login = 'reader'): Promise<void> {
  const playerOrigin = new URL(page.url()).origin
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((u) => u.origin === new URL(issuer).origin)
  await completeProviderPages(page, playerOrigin, login)
  await page.getByText(`Signed in as ${login}`).waitFor()
}
