/**
 * Browser tests in Debian's Chromium (the machine has no Playwright browser download): bundle a
 * test entry module for the browser with esbuild and load it in a headless page on an http origin
 * (a secure context, so `crypto.subtle`, localStorage and IndexedDB exist).
 */
import * as esbuild from 'esbuild'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

/** Where Debian installs Chromium (`apt-get install chromium`). */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/** The flags every headless test browser runs with. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
]

/** Bundles `entry` for the browser (sources resolved through the `@spkg/source` condition); the script's text. */
export async function bundleForBrowser(entry: URL): Promise<string> {
  const bundle = await esbuild.build({
    entryPoints: [entry.pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['@spkg/source'],
    logLevel: 'silent',
  })
  return bundle.outputFiles[0]?.text ?? ''
}

/** Launches Debian's Chromium headless with {@link CHROMIUM_ARGS} and `extraArgs`. The caller closes it. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] })
}

/**
 * Answers every address under `origin` in `target` (a page or a whole context): `/app.js` with `script`, anything
 * else with a page that loads it as a module script (served with `pageHeaders`, for instance a CSP).
 */
export async function routeEntryPage(
  target: Page | BrowserContext,
  origin: string,
  script: string,
  pageHeaders: Record<string, string> = {},
): Promise<void> {
  await target.route(`${origin}/**`, (route) =>
    route.request().url().endsWith('/app.js')
      ? route.fulfill({ contentType: 'text/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          headers: pageHeaders,
          body: '<script type="module" src="/app.js"></script>',
        }),
  )
}

/**
 * Bundles `entry`, opens it as a module script on a page at `origin` (served with `pageHeaders`, for instance a
 * Content Security Policy), and waits until the entry has defined `globalThis[ready]`. The caller closes `browser`.
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
  const script = await bundleForBrowser(entry)
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await routeEntryPage(page, origin, script, pageHeaders)
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
