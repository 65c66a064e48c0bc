/**
 * The player as `pnpm start` serves it: every answer the page loads carries the SPEC's content security policy
 * (the API's own header, plus `media-src 'self' blob:`), the page runs under it with no violation and no console
 * error, Chromium finds the app installable (manifest, icons, service worker), assets have the right types and
 * caching, the service worker and manifest are served right, and no path leaves the player's folder.
 */
import { rawGet } from '@spkg/test-utils'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { noBrowser, screenshot } from './harness'
import { playerAndBrowser } from './per-file'

const e2e = playerAndBrowser()

/** CSP violations reported in the page (listened to before any script of the page runs). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] }
    w.__cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`)
    })
  })
  return () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)
}

describe.skipIf(noBrowser)('the served player', () => {
  it('loads the catalog under the policy: every answer has it, no violation, no console error', async () => {
    const apiCsp = (await fetch(`${e2e.player.apiBase}/api/health`)).headers.get('content-security-policy')
    expect(apiCsp).toContain("script-src 'self'")
    const context = await e2e.browser.newContext()
    const page = await context.newPage()
    const violations = await watchViolations(page)
    const errors: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    page.on('pageerror', (e) => errors.push(String(e)))
    const answers: Array<{ url: string; csp: string | undefined }> = []
    page.on('response', (r) => {
      if (r.url().startsWith(e2e.player.apiBase))
        answers.push({ url: r.url(), csp: r.headers()['content-security-policy'] })
    })
    await page.goto(e2e.player.url)
    // The seeded catalog is listed: the page ran its scripts and called the API under the policy.
    await page.getByRole('heading', { level: 2 }).first().waitFor()
    await page.evaluate(() => navigator.serviceWorker.ready)
    await screenshot(page, 'platform-home')
    expect(answers.length).toBeGreaterThan(3)
    for (const a of answers) {
      expect(a.csp, a.url).toBeDefined()
      // A stored file (a cover) has the files' own policy: nothing runs in it, whatever it is.
      if (new URL(a.url).pathname.startsWith('/files/')) {
        expect(a.csp, a.url).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox")
        continue
      }
      // The API's own policy, directive for directive, on every other answer (the player's files add media-src and
      // the repository loader's hosts to connect-src).
      for (const directive of (apiCsp as string).split(';')) expect(a.csp, a.url).toContain(directive)
    }
    const page0 = answers.find((a) => a.url === e2e.player.url)
    const withRepoHosts = (apiCsp as string).replace(
      /(connect-src [^;]*)/,
      '$1 https://api.github.com https://codeload.github.com',
    )
    expect(page0?.csp).toBe(`${withRepoHosts};media-src 'self' blob:`)
    expect(await violations()).toEqual([])
    expect(errors).toEqual([])
    // Installable: Chromium reads the manifest without errors and finds nothing missing.
    const cdp = await context.newCDPSession(page)
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] }
    expect(manifest.url).toBe(`${e2e.player.apiBase}/manifest.webmanifest`)
    expect(manifest.errors).toEqual([])
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>
    }
    // A test context is an incognito profile, where Chromium never offers to install: that one reason aside.
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([])
    await context.close()
  })

  it('lets the page play blob: audio, as the reader hands it out (media-src)', async () => {
    const context = await e2e.browser.newContext()
    const page = await context.newPage()
    const violations = await watchViolations(page)
    await page.goto(e2e.player.url)
    await page.getByRole('heading', { level: 2 }).first().waitFor()
    // A tenth of a second of silence as a WAV file, through a blob: URL, like a story's sound.
    const outcome = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const samples = 800
          const buf = new DataView(new ArrayBuffer(44 + samples))
          const text = (at: number, s: string) => {
            for (let i = 0; i < s.length; i++) buf.setUint8(at + i, s.charCodeAt(i))
          }
          text(0, 'RIFF')
          buf.setUint32(4, 36 + samples, true)
          text(8, 'WAVEfmt ')
          buf.setUint32(16, 16, true)
          buf.setUint16(20, 1, true)
          buf.setUint16(22, 1, true)
          buf.setUint32(24, 8000, true)
          buf.setUint32(28, 8000, true)
          buf.setUint16(32, 1, true)
          buf.setUint16(34, 8, true)
          text(36, 'data')
          buf.setUint32(40, samples, true)
          for (let i = 0; i < samples; i++) buf.setUint8(44 + i, 128)
          const audio = new Audio(URL.createObjectURL(new Blob([buf.buffer], { type: 'audio/wav' })))
          audio.addEventListener('loadedmetadata', () => resolve(`loaded ${audio.duration.toFixed(1)} s`))
          audio.addEventListener('error', () => resolve(`error ${audio.error?.code}`))
        }),
    )
    expect(outcome).toBe('loaded 0.1 s')
    expect(await violations()).toEqual([])
    await context.close()
  })

  it('serves assets, the service worker and the manifest with the right types and caching', async () => {
    const html = await (await fetch(e2e.player.url)).text()
    const scripts = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] as string)
    const styles = [...html.matchAll(/href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1] as string)
    expect(scripts.length).toBeGreaterThan(0)
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/) // no inline script
    for (const path of scripts) {
      const r = await fetch(e2e.player.apiBase + path)
      expect(r.status, path).toBe(200)
      expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
    for (const path of styles) {
      const r = await fetch(e2e.player.apiBase + path)
      expect(r.headers.get('content-type')).toBe('text/css; charset=utf-8')
    }
    const index = await fetch(e2e.player.url)
    expect(index.headers.get('cache-control')).toBe('no-cache')
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const sw = await fetch(`${e2e.player.apiBase}/sw.js`)
    expect(sw.status).toBe(200)
    expect(sw.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(sw.headers.get('cache-control')).toBe('no-cache')
    expect(await sw.text()).toContain('precacheAndRoute')
    const manifest = await fetch(`${e2e.player.apiBase}/manifest.webmanifest`)
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8')
    const m = (await manifest.json()) as { name: string; icons: Array<{ src: string; sizes: string }> }
    expect(m.name).toBe('spkg player')
    for (const icon of m.icons) {
      const r = await fetch(e2e.player.apiBase + icon.src)
      expect(r.status, icon.src).toBe(200)
      expect(r.headers.get('content-type')).toMatch(/^image\/(png|svg\+xml)$/)
    }
    // The API keeps its routes.
    expect((await fetch(`${e2e.player.apiBase}/catalog/stories`)).headers.get('content-type')).toContain(
      'application/json',
    )
  })

  it('refuses every way out of the player folder', async () => {
    for (const path of [
      '/../package.json',
      '/..%2F..%2Fpackage.json',
      '/assets/../../package.json',
      '/assets/..%2F..%2F..%2Fapi%2Fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
      '/assets/%2e%2e%2f%2e%2e%2fvite.config.ts',
      '/.gitignore',
    ]) {
      const answer = await rawGet(Number(new URL(e2e.player.apiBase).port), path)
      expect(answer.split('\r\n')[0], path).toMatch(/^HTTP\/1\.1 (400|404) /)
      expect(answer, path).not.toContain('"name"')
      expect(answer, path).not.toContain('defineConfig')
    }
  })
})
