/**
 * The reader under exactly the SPEC's Content Security Policy (Response security headers), which
 * has no `'wasm-unsafe-eval'`: the browser refuses the WebAssembly inflater. The open must still
 * succeed on the JavaScript inflater and the stream; with `wasm: false` the page sees no
 * `securitypolicyviolation` (so the browser sends no report) and no console error. Skips if Chromium is absent.
 */
import { existsSync } from 'node:fs'
import { buildPackage, specCsp } from '@spkg/test-utils'
import { CHROMIUM_PATH, openEntryInChromium } from '@spkg/test-utils/chromium'
import type { Browser, Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { callInPage } from '../helpers/call-in-page'

/** The SPEC's policy, with the example deployment's hosts filled in as apps/api's tests send it. */
const SPEC_CSP = specCsp()
const ORIGIN = 'https://spkg.test'

const prose = (n: number) => 'The lamp gutters; the innkeeper counts the keys again. '.repeat(n)
const parts = { 'story/0001-a.sty': prose(2000), 'story/0002-b.sty': prose(3), 'story/0003-c.sty': prose(40) }
const good = Buffer.from(buildPackage({ parts, integrity: true })).toString('base64')

const browsers: Browser[] = []
afterAll(async () => {
  for (const b of browsers) await b.close()
})

/** A fresh page under the policy, watching its console and uncaught errors. */
async function strictPage(): Promise<{ page: Page; console: string[] }> {
  const { browser, page } = await openEntryInChromium(
    new URL('./csp-page.ts', import.meta.url),
    'openUnderCsp',
    ORIGIN,
    {
      'content-security-policy': SPEC_CSP,
      'reporting-endpoints': `csp-endpoint="${ORIGIN}/api/csp-report"`,
    },
  )
  browsers.push(browser)
  const seen = { page, console: [] as string[] }
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.console.push(`${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => seen.console.push(`pageerror: ${e.message}`))
  return seen
}

const open = (page: Page, wasm: boolean | undefined) =>
  callInPage<Record<string, unknown>>(page, 'openUnderCsp', good, wasm, 'story/0001-a.sty')

describe.skipIf(!existsSync(CHROMIUM_PATH))("the reader under the SPEC's Content Security Policy", () => {
  it('with wasm: false opens and reads with no violation and no console message', async () => {
    const seen = await strictPage()
    const r = await open(seen.page, false)
    expect(r).toEqual({ ok: true, fatal: [], text: parts['story/0001-a.sty'], violations: [] })
    // A second open on the same page: still nothing.
    expect((await open(seen.page, false)).violations).toEqual([])
    await seen.page.waitForTimeout(200)
    expect(seen.console).toEqual([])
  }, 60_000)

  it('by default still opens and reads: the refused module falls back to JavaScript and the stream', async () => {
    const seen = await strictPage()
    const r = await open(seen.page, undefined)
    expect(r).toMatchObject({ ok: true, fatal: [], text: parts['story/0001-a.sty'] })
    // What wasm: false avoids: the browser reports the refused compile (once per page).
    expect(r.violations).toEqual([expect.stringMatching(/^script-src /)])
    expect((await open(seen.page, undefined)).violations).toHaveLength(1)
    // Chromium logs nothing for it, and the fallback itself raises no error.
    expect(seen.console).toEqual([])
  }, 60_000)
})
