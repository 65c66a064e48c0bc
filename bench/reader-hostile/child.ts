/**
 * One run of `pnpm bench reader-hostile`, in a fresh process so that its peak RSS is the run's
 * own: `child.mjs <open|baseline> <count> <seed>` generates the corpus one package at a time and
 * (`open`) opens each with `@spkg/reader/node` `openPackage`, then prints one JSON line: peak RSS
 * (VmHWM) at the end and after every tenth of the corpus, the RSS after a full GC when the process
 * runs with --expose-gc, the total and slowest open, and how the packages ended (loaded, refused,
 * thrown). `baseline` generates the same corpus and opens nothing: the generator's own footprint.
 */
import { readFileSync } from 'node:fs'
import { openPackage } from '@spkg/reader/node'
import { corpus, KINDS } from './corpus'

const [mode, countArg, seedArg] = process.argv.slice(2)
const count = Number(countArg)
const seed = Number(seedArg)
const status = () => readFileSync('/proc/self/status', 'utf8')
const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())?.[1] ?? Number.NaN)

const hwmAt: number[] = []
let loaded = 0
let refused = 0
let threw = 0
let slowestMs = 0
let slowestKind = ''
const codes: Record<string, number> = {}
const t0 = performance.now()
let i = 0
for (const { kind, bytes } of corpus(count, seed)) {
  if (mode === 'open') {
    const t = performance.now()
    try {
      const r = await openPackage(bytes)
      if (r.ok) {
        loaded++
        r.package.close()
      } else refused++
      for (const d of r.diagnostics) if (d.severity === 'fatal') codes[d.code] = (codes[d.code] ?? 0) + 1
    } catch {
      threw++
    }
    const ms = performance.now() - t
    if (ms > slowestMs) {
      slowestMs = ms
      slowestKind = kind
    }
  }
  i++
  if (i % Math.max(1, Math.floor(count / 10)) === 0) hwmAt.push(kib('VmHWM'))
}
const totalMs = performance.now() - t0
const peakKiB = kib('VmHWM')
const gc = (globalThis as { gc?: () => void }).gc
gc?.()
console.log(
  JSON.stringify({
    mode,
    count,
    kinds: KINDS.length,
    peakKiB,
    hwmAt,
    rssAfterGcKiB: gc ? kib('VmRSS') : Number.NaN,
    totalMs,
    slowestMs,
    slowestKind,
    loaded,
    refused,
    threw,
    codes,
  }),
)
