/**
 * `node --conditions=@spkg/source --import tsx bench/reader-browser/profile.ts [case] [package]`:
 * one cold run of a case in a fresh Chromium context under the DevTools CPU profiler, printing the
 * functions with the most self time (a tool for finding where the cold pipeline spends its time).
 */
import { coldPage, coldPages } from './cold-page'

const name = process.argv[2] ?? 'default web backend (shipped choice)'
const key = process.argv[3] ?? 'small-500'
const { browser, script, body } = await coldPages(key)
try {
  const { page, run } = await coldPage(browser, script, body, name)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 100) })
  await cdp.send('Profiler.start')
  const ms = await run()
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
