/**
 * `node --conditions=@spkg/source --import tsx bench/reader-browser/profile.ts [case] [package]`:
 * cold runs of a case (`RUNS`, default 1), each in a fresh Chromium context under the DevTools CPU
 * profiler, printing the functions with the most self time per run (a tool for finding where the
 * cold pipeline spends its time; average several runs, one is noisy on a loaded machine).
 */
import { coldPage, coldPages } from './cold-page'

const name = process.argv[2] ?? 'default web backend (shipped choice)'
const key = process.argv[3] ?? 'small-500'
const runs = Number(process.env.RUNS ?? 1)
const { browser, script, body } = await coldPages(key)
const self = new Map<string, number>()
const walls: number[] = []
try {
  for (let r = 0; r < runs; r++) {
    const { page, run } = await coldPage(browser, script, body, name)
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 100) })
    await cdp.send('Profiler.start')
    walls.push(await run())
    const { profile } = await cdp.send('Profiler.stop')
    await page.context().close()
    const byId = new Map(profile.nodes.map((n) => [n.id, n]))
    const dt = profile.timeDeltas ?? []
    profile.samples?.forEach((id, i) => {
      const n = byId.get(id)!
      const f = n.callFrame
      const k = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`
      self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000 / runs)
    })
  }
  console.log(
    `${name} on ${key}: ${runs} runs, wall ${walls.map((w) => w.toFixed(1)).join(' ')} ms; self time per run`,
  )
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`)
} finally {
  await browser.close()
}
