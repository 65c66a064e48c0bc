/**
 * Browser tests in Debian's Chromium (the machine has no Playwright browser download): bundle a
 * test entry module for the browser with esbuild and load it in a headless page on an http origin
 * (a secure context, so `crypto.subtle`, localStorage and IndexedDB exist).
 */
import * as esbuild from 'esbuild'
import { type Browser, chromium, type Page } from 'playwright-core'

/** Where Debian installs Chromium (`apt-get install chromium`). */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * Bundles `entry` (sources resolved through the `@spkg/source` condition), opens it as a module
 * script on a page at `origin` (served with `pageHeaders`, for instance a Content Security Policy),
 * and waits until the entry has defined `globalThis[ready]`. The caller closes `browser`.
 *
 * @example
 * const { browser, page } = await openEntryInChromium(new URL('./entry.ts', import.meta.url), 'runAll')
 * const results = await page.evaluate(() => globalThis.runAll())
 */
export async function openEntryInChromium(
  entry: URL,
  ready: string,
  origin = 'http://localhost',
  pageHeaders: Record<string, string> = {},
): Promise<{ browser: Browser; page: Page }> {
  const bundle = await esbuild.build({
    entryPoints: [entry.pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['@spkg/source'],
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]?.text ?? ''
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  try {
    const page = await browser.newPage()
    await page.route(`${origin}/**`, (route) =>
      route.request().url().endsWith('/app.js')
        ? route.fulfill({ contentType: 'text/javascript', body: script })
        : route.fulfill({
            contentType: 'text/html',
            headers: pageHeaders,
            body: '<script type="module" src="/app.js"></script>',
          }),
    )
    await page.goto(`${origin}/`)
    await page.waitForFunction(
      (name) => typeof (globalThis as Record<string, unknown>)[name] === 'function',
      ready,
    )
    return { browser, page }
  } catch (err) {
    await browser.close()
    throw err
  }
}
