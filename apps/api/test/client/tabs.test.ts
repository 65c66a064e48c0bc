/**
 * Token refresh across two tabs, in headless Chromium against the real development OpenID provider: both tabs need a
 * refresh at the same moment, exactly one refresh request reaches the token endpoint (counted at the provider's
 * server), and both tabs end with the same rotated tokens. The other tab must not spend the refresh token a second
 * time: with rotation, the provider treats a reused refresh token as stolen and revokes the grant.
 */
import { existsSync } from 'node:fs'
import { createAuth, type TokenSet } from '@spkg/client/auth'
import { bundleForBrowser, CHROMIUM_PATH, launchChromium } from '@spkg/test-utils/chromium'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestIdp, type TestIdp } from '../helpers/auth'
import { memoryStorage, REDIRECT, signInAtProvider, webClient } from './sign-in'

const run = existsSync(CHROMIUM_PATH) || process.env.CI !== undefined
/** Enough rounds that the race between the lock grant and the channel message shows (before the fix: in 3 runs of 3). */
const ROUNDS = 20
/** The app's origin: the origin of the registered callback, which the provider allows for CORS. */
const APP = new URL(REDIRECT).origin

let idp: TestIdp
let browser: Browser
let context: BrowserContext
let tokens: TokenSet

type TabApi = Record<string, (arg?: unknown) => unknown>
const call = (page: Page, name: string, arg?: unknown) =>
  page.evaluate(([n, a]) => (globalThis as unknown as { tabTest: TabApi }).tabTest[n as string]?.(a), [
    name,
    arg,
  ] as const)

async function openTab(): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`${APP}/tab`)
  await page.waitForFunction(() => typeof (globalThis as { tabTest?: unknown }).tabTest === 'object')
  return page
}

beforeAll(async () => {
  if (!run) return
  idp = await startTestIdp()
  const script = await bundleForBrowser(new URL('./browser/tabs-entry.ts', import.meta.url))
  // The app page comes from a route, with no address, so Chromium would count it public and refuse its requests to
  // the loopback provider (Local Network Access); a real app on 127.0.0.1:5173 is loopback itself.
  browser = await launchChromium(['--disable-features=LocalNetworkAccessChecks'])

  // A real session: PKCE login at the provider's pages, code exchanged in Node.
  const navigations: string[] = []
  const auth = createAuth({
    ...webClient(idp.issuer),
    storage: memoryStorage(),
    navigate: (u) => navigations.push(u),
    currentUrl: () => 'http://127.0.0.1:5173/stories',
  })
  await auth.login()
  tokens = await auth.handleCallback(await signInAtProvider(browser, navigations[0] as string))
  auth.close()

  // The tabs live on the app's origin (served by the test); discovery and the token endpoint are the provider's,
  // cross-origin as in production.
  context = await browser.newContext()
  await context.route(`${APP}/**`, (route) => {
    const path = new URL(route.request().url()).pathname
    if (path === '/tab.js') return route.fulfill({ contentType: 'text/javascript', body: script })
    if (path === '/tab') {
      return route.fulfill({
        contentType: 'text/html',
        body: '<script type="module" src="/tab.js"></script>',
      })
    }
    return route.fulfill({ status: 404, body: '' })
  })
}, 90_000)
afterAll(async () => {
  await browser?.close()
  await idp?.close()
})

describe.skipIf(!run)('@spkg/client/auth in two tabs', () => {
  it('two tabs needing a refresh at once send one refresh request and share the rotated tokens', async () => {
    expect(tokens.refreshToken).toBeTruthy()
    const a = await openTab()
    const b = await openTab()
    const holder = await openTab()
    await call(a, 'start', { tokens, at: idp.issuer })
    await call(b, 'start', { tokens, at: idp.issuer })

    let previous = tokens
    for (let round = 0; round < ROUNDS; round++) {
      // Both tabs ask for a token while a third page holds the refresh lock, so both are waiting for it together.
      await call(holder, 'hold')
      await call(a, 'expireSoon')
      await call(b, 'expireSoon')
      const before = idp.counts.other
      await call(a, 'begin')
      await call(b, 'begin')
      await expect.poll(() => call(holder, 'waiting')).toBe(2)
      await call(holder, 'release')
      const [ta, tb] = await Promise.all([call(a, 'finish'), call(b, 'finish')])

      expect(idp.counts.other - before, `token requests in round ${round}`).toBe(1)
      expect(ta).toBeTypeOf('string')
      expect(tb).toBe(ta)
      expect(ta).not.toBe(previous.accessToken)
      const [sa, sb] = (await Promise.all([call(a, 'state'), call(b, 'state')])) as Array<{
        tokens: TokenSet
        accessToken: string
      }>
      expect(sb).toEqual(sa)
      expect(sa?.accessToken).toBe(ta)
      expect(sa?.tokens.accessToken).toBe(ta)
      expect(sa?.tokens.refreshToken).toBeTruthy()
      expect(sa?.tokens.refreshToken).not.toBe(previous.refreshToken)
      previous = sa?.tokens as TokenSet
    }
    await Promise.all([a.close(), b.close(), holder.close()])
  }, 60_000)
})
