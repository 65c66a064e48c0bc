/**
 * Sign-in through the development identity provider's own pages, as a reader does it: **Sign in** in the player's
 * header, the provider's login form (any user name, any password), its consent page, and back to the player.
 */
import type { Page } from 'playwright-core'

/** Signs `login` in from the player page `page`, which must show the header's **Sign in**. */
export async function signInThroughProvider(page: Page, issuer: string, login = 'reader'): Promise<void> {
  const playerOrigin = new URL(page.url()).origin
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((u) => u.origin === new URL(issuer).origin)
  await page.locator('input[name=login]').fill(login)
  await page.locator('input[name=password]').fill('any')
  await page.locator('button[type=submit]').click()
  // The consent page (a native client is always asked), then the redirect back to the player.
  for (let i = 0; i < 4 && new URL(page.url()).origin !== playerOrigin; i++) {
    await page.waitForLoadState()
    if (new URL(page.url()).origin === playerOrigin) break
    const consent = page.locator('button[type=submit]')
    if ((await consent.count()) > 0) await consent.first().click()
    await page.waitForURL((u) => u.origin === playerOrigin || u.pathname.includes('/interaction/'), {
      timeout: 10_000,
    })
  }
  await page.waitForURL((u) => u.origin === playerOrigin)
  await page.getByText(`Signed in as ${login}`).waitFor()
}
