/**
 * The isomorphic entry in Chromium, where a script cannot see redirects: the page calls the fake
 * repository host (real HTTPS servers on 127.0.0.1, reached as `*.test.example` through Chromium's
 * host resolver rules; the test's certificate is accepted by flag). Skips if Chromium is absent.
 */
import { existsSync } from 'node:fs'
import { bundleForBrowser, CHROMIUM_PATH, launchChromium, routeEntryPage } from '@spkg/test-utils/chromium'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeHost, redirectTo, sendBytes, startFakeHost } from './fake-host'
import { hasTools } from './tools'
import { makeZipball, SHA, storyRepository } from './zipball'

const enabled = existsSync(CHROMIUM_PATH) && hasTools
let host: FakeHost
let browser: Browser | undefined
let page: Page
let api: string
let dl: string
let evil: string

type Result = { ok: boolean; codes: string[]; title: string | null; source: Record<string, unknown> | null }
const run = (url: string) =>
  page.evaluate(
    ([u, o]) =>
      (globalThis as unknown as { importIn: (u: string, o: unknown) => Promise<Result> }).importIn(
        u as string,
        o,
      ),
    [url, { repoApiHost: api, downloadHosts: [dl], timeoutMs: 20_000 }] as const,
  )

beforeAll(async () => {
  if (!enabled) return
  host = await startFakeHost()
  api = `api.test.example:${host.api.port}`
  dl = `dl.test.example:${host.download.port}`
  evil = `evil.test.example:${host.hostile.port}`
  const script = await bundleForBrowser(new URL('./browser-entry.ts', import.meta.url))
  browser = await launchChromium([
    '--host-resolver-rules=MAP *.test.example 127.0.0.1',
    '--ignore-certificate-errors',
    // The page is served by a route, so it counts as public; the fake host is on loopback.
    '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights',
  ])
  page = await browser.newPage()
  await routeEntryPage(page, 'http://localhost', script)
  await page.goto('http://localhost/')
  await page.waitForFunction(() => typeof (globalThis as Record<string, unknown>).importIn === 'function')
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await host?.close()
})
beforeEach(() => {
  if (!enabled) return
  host.reset()
  host.download.routes.set(
    '/owner/story/v1.zip',
    sendBytes(makeZipball(storyRepository('In Chromium'), { comment: SHA })),
  )
  host.hostile.routes.set('/owner/story/v1.zip', sendBytes(makeZipball(storyRepository('Evil'))))
})

describe.skipIf(!enabled)('importRepository in Chromium', () => {
  it('loads through the redirect the browser follows, when the final URL is allowed', async () => {
    host.api.routes.set('/repos/owner/story/zipball/v1', redirectTo(`https://${dl}/owner/story/v1.zip`))
    const r = await run('https://github.com/owner/story/tree/v1')
    expect(r).toMatchObject({ ok: true, codes: [], title: 'In Chromium' })
    expect(r.source).toEqual({ owner: 'owner', repo: 'story', ref: 'v1', commit: SHA })
  }, 30_000)

  it('refuses the answer of a host off the allow-list (which the browser did request: see the README)', async () => {
    host.api.routes.set('/repos/owner/story/zipball/v1', redirectTo(`https://${evil}/owner/story/v1.zip`))
    const r = await run('https://github.com/owner/story/tree/v1')
    expect(r).toMatchObject({ ok: false, codes: ['repo/redirect-refused'] })
    expect(host.hostile.requests.map((q) => q.path)).toEqual(['/owner/story/v1.zip'])
  }, 30_000)

  it('refuses every bad URL shape before any request', async () => {
    for (const url of [
      'http://github.com/owner/story',
      'https://github.com.evil.example/owner/story',
      'https://github.com/owner/%2e%2e/story',
      'https://github.com/owner/story/tree/v1?x',
      'https://user@github.com/owner/story',
    ])
      expect((await run(url)).codes).toEqual(['repo/invalid-url'])
    expect([...host.api.requests, ...host.download.requests, ...host.hostile.requests]).toEqual([])
  }, 30_000)
})
