/**
 * `node --conditions=@spkg/source --import tsx bench/reader-browser/load.ts`: what compiling the
 * whole script as it loads costs a page. The bench's page script with V8's compile hint (the
 * player's, see the reader README) against the same script without it, alternating in fresh
 * Chromium contexts (`RUNS` each, default 14): the time from the end of the script's download to
 * the start of its evaluation (parsing and compiling, much of it on the thread that streams the
 * script).
 */
import { routeEntryPage } from '@spkg/test-utils/chromium'
import { COMPILE_HINT, launchBench, pageScript } from './cold-page'

const runs = Number(process.env.RUNS ?? 14)
const plain = await pageScript()
const scripts: Record<string, string> = { plain, hint: COMPILE_HINT + plain }
const res: Record<string, number[]> = { plain: [], hint: [] }
const browser = await launchBench()
try {
  for (let r = 0; r < runs; r++)
    for (const k of r % 2 ? ['plain', 'hint'] : ['hint', 'plain']) {
      const context = await browser.newContext()
      const page = await context.newPage()
      await routeEntryPage(
        page,
        'http://localhost',
        `globalThis.__evaluatedAt = performance.now();
${scripts[k]}`,
      )
      await page.goto('http://localhost/')
      await page.waitForFunction(() => typeof (globalThis as { runBench?: unknown }).runBench === 'function')
      res[k]!.push(
        await page.evaluate(() => {
          const t = performance
            .getEntriesByType('resource')
            .find((e) => e.name.endsWith('/app.js')) as PerformanceResourceTiming
          return (globalThis as unknown as { __evaluatedAt: number }).__evaluatedAt - t.responseEnd
        }),
      )
      await context.close()
    }
} finally {
  await browser.close()
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
for (const [k, xs] of Object.entries(res))
  console.log(
    `${k.padEnd(10)} ${scripts[k]!.length} bytes: download end to evaluation, median ${median(xs).toFixed(1)} ms (best ${Math.min(...xs).toFixed(1)}, ${xs.length} loads)`,
  )
