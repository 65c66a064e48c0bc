/**
 * @spkg/client/auth against the real development OpenID provider (oidc-provider on loopback): the authorisation
 * request (code + PKCE S256, accepted by the provider), loop protection, a full login whose sign-in and consent pages
 * are driven in headless Chromium, the code exchange, and refresh with rotation, one refresh in flight.
 */
import { existsSync } from 'node:fs'
import { createAuth } from '@spkg/client/auth'
import { CHROMIUM_PATH, launchChromium } from '@spkg/test-utils/chromium'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestIdp, type TestIdp } from '../helpers/auth'
import { memoryStorage, REDIRECT, signInAtProvider, webClient } from './sign-in'

let idp: TestIdp
beforeAll(async () => {
  idp = await startTestIdp()
}, 60_000)
afterAll(async () => {
  await idp?.close()
})

function setup(extra: { now?: () => number; currentUrl?: () => string; fetch?: typeof fetch } = {}) {
  const storage = memoryStorage()
  const navigations: string[] = []
  const auth = createAuth({
    ...webClient(idp.issuer),
    storage,
    navigate: (u) => navigations.push(u),
    currentUrl: extra.currentUrl ?? (() => 'http://127.0.0.1:5173/stories'),
    ...(extra.now && { now: extra.now }),
    ...(extra.fetch && { fetch: extra.fetch }),
  })
  return { auth, storage, navigations }
}

describe('createAuth', () => {
  it('sends an authorisation-code request with PKCE S256 that the provider accepts', async () => {
    const { auth, navigations } = setup()
    expect(await auth.login()).toBe(true)
    const url = new URL(navigations[0] as string)
    expect(url.origin).toBe(idp.issuer)
    expect(url.searchParams.get('response_type')).toBe('code')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    const res = await fetch(url, { redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).not.toContain('error=')
  })

  it('loop protection: no second redirect within the window, none from the callback page', async () => {
    let t = 1_000_000
    const { auth, navigations } = setup({ now: () => t })
    expect(await auth.login()).toBe(true)
    t += 29_000
    expect(await auth.login()).toBe(false)
    t += 2_000
    expect(await auth.login()).toBe(true)
    expect(navigations).toHaveLength(2)
    const onCallback = setup({ currentUrl: () => `${REDIRECT}?code=x&state=y` })
    expect(await onCallback.auth.login()).toBe(false)
    expect(onCallback.navigations).toEqual([])
  })

  it.skipIf(!existsSync(CHROMIUM_PATH) && !process.env.CI)(
    'full login in Chromium, code exchange, then refresh with rotation, one at a time',
    async () => {
      let tokenCalls = 0
      const counting = ((input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input instanceof Request ? input.url : input).endsWith('/token')) tokenCalls++
        return fetch(input, init)
      }) as typeof fetch
      const { auth, navigations, storage } = setup({ fetch: counting })
      await auth.login()
      const browser = await launchChromium()
      let callback = ''
      try {
        callback = await signInAtProvider(browser, navigations[0] as string)
      } finally {
        await browser.close()
      }
      expect(callback).toContain('code=')
      const tokens = await auth.handleCallback(callback)
      expect(tokens.accessToken.split('.')).toHaveLength(3)
      expect(tokens.refreshToken).toBeTruthy()
      expect(storage.map.get('spkg.access-token')).toBe(tokens.accessToken)
      expect(await auth.getToken()).toBe(tokens.accessToken)

      tokenCalls = 0
      const [a, b] = await Promise.all([auth.refresh(), auth.refresh()])
      expect(tokenCalls).toBe(1)
      expect(a).toEqual(b)
      expect(a?.refreshToken).toBeTruthy()
      expect(a?.refreshToken).not.toBe(tokens.refreshToken)
      expect(a?.accessToken).not.toBe(tokens.accessToken)
      // Rotation: the old refresh token is spent.
      storage.setItem('spkg.tokens', JSON.stringify(tokens))
      await expect(auth.refresh()).rejects.toThrow()

      auth.logout()
      expect(auth.tokens()).toBeUndefined()
      expect(await auth.getToken()).toBeUndefined()
    },
    90_000,
  )
})
