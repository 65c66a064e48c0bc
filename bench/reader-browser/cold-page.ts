/**
 * A fresh Chromium page holding a bench package, ready for one cold run of a case (index.ts,
 * profile.ts and trace.ts): page.ts's bundle served from http://localhost, the package fetched into memory, then
 * the settle pause of the bench (see index.ts).
 */

import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchChromium, routeEntryPage } from '@spkg/test-utils/chromium'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { COMPILE_HINT } from '../../apps/player/src/build/compile-hint'
import { settle } from '../reader/settle'
import { pack, specs } from './packages'

/**
 * V8's compile hint, the player's (Chromium 136 and later): every function of the script is
 * compiled as the script loads, on the thread that streams it, instead of on its first call.
 * `HINT=1` puts it at the top of the page's script, as the player ships the chunks that hold the
 * reader (reader README, "The first open in a fresh page").
 */
export { COMPILE_HINT }

/** The repository this file belongs to. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * A bench entry of the repository at `root` (this one by default, another checkout for ab.ts),
 * bundled for `platform` from the packages' sources, to `outfile` or returned.
 */
export async function benchBundle(
  entry: string,
  platform: 'node' | 'browser',
  { root = ROOT, outfile }: { root?: string; outfile?: string } = {},
): Promise<string> {
  const r = await build({
    entryPoints: [join(root, 'bench/reader-browser', entry)],
    bundle: true,
    platform,
    format: 'esm',
    target: platform === 'node' ? 'node20' : 'chrome120',
    conditions: ['@spkg/source'],
    write: outfile !== undefined,
    ...(outfile ? { outfile } : {}),
    logLevel: 'warning',
  })
  return r.outputFiles?.[0]?.text ?? ''
}

/** page.ts of the repository at `root` bundled for Chromium (see {@link benchBundle}). */
export function pageScript(root = ROOT): Promise<string> {
  return benchBundle('page.ts', 'browser', { root })
}

/** Bench package `key`'s bytes. */
export function packageBody(key: string): Buffer {
  const spec = specs.find((s) => s.key === key)
  if (!spec) throw new Error(`unknown package ${key}`)
  return Buffer.from(pack(spec))
}

/**
 * The bench's Chromium: test-utils' headless flags, plus `--js-flags=$JS_FLAGS` when set (for
 * investigation only: JS_FLAGS=--no-lazy shows what lazy compilation costs, say).
 */
export function launchBench(): Promise<Browser> {
  return launchChromium(process.env.JS_FLAGS ? [`--js-flags=${process.env.JS_FLAGS}`] : [])
}

/** Launches Chromium and bundles page.ts (`HINT=1`: with the compile hint); `body` is package `key`'s bytes. */
export async function coldPages(key: string): Promise<{ browser: Browser; script: string; body: Buffer }> {
  const body = packageBody(key)
  const script = await pageScript()
  return {
    browser: await launchBench(),
    script: process.env.HINT === '1' ? COMPILE_HINT + script : script,
    body,
  }
}

/**
 * A page in a fresh context, holding the package (and settled, unless `settled` is false: the
 * caller settles); `run()` runs the case once (wall ms), the first call being the cold run.
 */
export async function coldPage(
  browser: Browser,
  script: string,
  body: Buffer,
  name: string,
  settled = true,
): Promise<{ page: Page; run: () => Promise<number> }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await routeEntryPage(page, 'http://localhost', script)
  // Registered last, so it is asked first.
  await page.route('http://localhost/package.spkg', (route) =>
    route.fulfill({ contentType: 'application/octet-stream', body }),
  )
  await page.goto('http://localhost/')
  await page.waitForFunction(() => typeof (globalThis as { runBench?: unknown }).runBench === 'function')
  await page.evaluate(
    (n) =>
      (globalThis as unknown as { loadBench: (u: string, n: string) => Promise<number> }).loadBench(
        '/package.spkg',
        n,
      ),
    name,
  )
  if (settled) await settle()
  const run = () =>
    page.evaluate(
      (n) => (globalThis as unknown as { runBench: (n: string) => Promise<number> }).runBench(n),
      name,
    )
  return { page, run }
}
