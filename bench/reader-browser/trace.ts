/**
 * `node --conditions=@spkg/source --import tsx bench/reader-browser/trace.ts [case] [package] [runs]`:
 * cold runs of a case, each in a fresh Chromium context under a DevTools trace, printing what the
 * renderer's main thread did during the run (lazy compilation, Maglev, garbage collection, tasks,
 * microtasks): each event's total time and count, the median over the runs. Tracing slows the run.
 */
import { coldPage, coldPages } from './cold-page'

const name = process.argv[2] ?? 'default web backend (shipped choice)'
const key = process.argv[3] ?? 'small-500'
const runs = Number(process.argv[4] ?? 5)
interface TraceEvent {
  name: string
  ph: string
  dur?: number
  tdur?: number
  pid: number
  tid: number
  args?: { name?: string }
}
const { browser, script, body } = await coldPages(key)
const totals: Map<string, number>[] = []
try {
  for (let i = 0; i < runs; i++) {
    const { page, run } = await coldPage(browser, script, body, name)
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'v8', 'v8.execute', 'disabled-by-default-v8.compile', 'toplevel'],
    })
    const ms = await run()
    const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] })
      .traceEvents
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    const tot = new Map<string, number>([['wall of the run (ms)', ms]])
    const add = (k: string, v: number) => tot.set(k, (tot.get(k) ?? 0) + v)
    for (const e of events)
      if (e.ph === 'X' && e.pid === main?.pid && e.tid === main.tid) {
        add(`${e.name} (ms, thread time)`, (e.tdur ?? e.dur ?? 0) / 1000)
        add(`${e.name} (count)`, 1)
      }
    totals.push(tot)
    await page.context().close()
  }
} finally {
  await browser.close()
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const keys = new Set(totals.flatMap((t) => [...t.keys()]))
console.log(`${name} on ${key}, ${runs} cold runs, main thread (median of each figure)`)
for (const [k, v] of [...keys]
  .map((k) => [k, median(totals.map((t) => t.get(k) ?? 0))] as const)
  .filter(([, v]) => v >= 0.5)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 40))
  console.log(`${v.toFixed(2).padStart(8)}  ${k}`)
