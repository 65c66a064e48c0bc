/**
 * A real sign-in at the development OpenID provider: its login and consent pages driven in headless Chromium, ending
 * at the registered callback, whose address (with the authorisation code) is returned for `handleCallback`.
 */
import type { Browser } from 'playwright-core'

/** The callback registered for `spkg-web` at the development provider. */
export const REDIRECT = 'http://127.0.0.1:5173/callback'

/** The `createAuth` settings of the development provider's browser client `spkg-web` (loopback http allowed). */
export const webClient = (issuer: string) => ({
  issuer,
  clientId: 'spkg-web',
  redirectUri: REDIRECT,
  extraParams: { resource: 'urn:spkg:api' },
  allowHttp: true,
})

/** Web Storage over a Map (`map`, for the test to look into). */
export function memoryStorage() {
  const m = new Map<string, string>()
  return {
    map: m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  }
}

/** Opens `authorizeUrl`, signs `login` in (any password), consents, and returns the callback URL. */
export async function signInAtProvider(
  browser: Browser,
  authorizeUrl: string,
  login = 'reader',
): Promise<string> {
  let callback = ''
  const page = await browser.newPage()
  try {
    await page.route(`${REDIRECT}**`, (route) => {
      callback = route.request().url()
      return route.fulfill({ contentType: 'text/html', body: '<p>signed in</p>' })
    })
    await page.goto(authorizeUrl)
    await page.fill('input[name=login]', login)
    await page.fill('input[name=password]', 'any')
    await page.click('button[type=submit]')
    for (let i = 0; i < 3 && !callback; i++) {
      await page.waitForLoadState()
      if (callback) break
      const consent = page.locator('button[type=submit]')
      if ((await consent.count()) > 0) await consent.first().click()
    }
    await page.waitForURL(`${REDIRECT}**`)
  } finally {
    await page.close()
  }
  return callback
}
