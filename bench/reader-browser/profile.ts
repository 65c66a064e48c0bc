/**
 * `node --conditions=@spkg/source --import tsx bench/reader-browser/profile.ts [case] [package]`:
 * one cold run of a case in a fresh Chromium context under the DevTools CPU profiler, printing the
 * functions with the most self time (a tool for finding where the cold pipeline spends its time).
 */
import { CHROMIUM_PATH } from '@spkg/test-utils/chromium'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { settle } from '../reader/settle'
import { pack, specs } from './packages'

const name = process.argv[2] ?? 'default web backend (shipped choice)'
const key = process.argv[3] ?? 'small-500'
const spec = specs.find((s) => s.key === key)
if (!spec) throw new Error(`unknown package ${key}`)
const body = Buffer.from(pack(spec))
const r = await build({
  entryPoints: [new URL('./page.ts', import.meta.url).pathname],
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'chrome120',
  conditions: ['@spkg/source'],
  write: false,
  logLevel: 'warning',
})
const pageScript = r.outputFiles[0]!.text
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})
try {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.route('http://localhost/**', (route) => {
    const url = route.request().url()
    if (url.endsWith('/app.js')) return route.fulfill({ contentType: 'text/javascript', body: pageScript })
    if (url.endsWith('/package.spkg')) return route.fulfill({ contentType: 'application/octet-stream', body })
    return route.fulfill({ contentType: 'text/html', body: '<script type="module" src="/app.js"></script>' })
  })
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
  const cdp = await context.newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 100) })
  await settle()
  await cdp.send('Profiler.start')
  const ms = await page.evaluate(
    (n) => (globalThis as unknown as { runBench: (n: string) => Promise<number> }).runBench(n),
    name,
  )
  const { profile } = await cdp.send('Profiler.stop')
  const self = new Map<string, number>()
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const dt = profile.timeDeltas ?? []
  profile.samples?.forEach((id, i) => {
    const n = byId.get(id)!
    const f = n.callFrame
    const k = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`
    self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000)
  })
  console.log(`${name} on ${key}: ${ms.toFixed(1)} ms`)
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`)
} finally {
  await browser.close()
}
