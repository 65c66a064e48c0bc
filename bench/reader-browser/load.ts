/**
 * `node --conditions=@spkg/source --import tsx bench/reader-browser/load.ts`: what compiling the
 * open pipeline with the script costs when a page loads it. The bench's page script as the
 * packages' `dist/` is built (tools/eager-functions.ts) against the same script bundled from the
 * sources as written, alternating in fresh Chromium contexts (`RUNS` each, default 14): the time
 * from the end of the script's download to the start of its evaluation (parsing and compiling,
 * much of it on the thread that streams the script).
 */
import { routeEntryPage } from '@spkg/test-utils/chromium'
import { launchBench, pageScript } from './cold-page'

const runs = Number(process.env.RUNS ?? 14)
const scripts: Record<string, string> = {
  'as written': await pageScript(undefined, false),
  eager: await pageScript(undefined, true),
}
const res: Record<string, number[]> = { 'as written': [], eager: [] }
const browser = await launchBench()
try {
  for (let r = 0; r < runs; r++)
    for (const k of r % 2 ? ['as written', 'eager'] : ['eager', 'as written']) {
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
