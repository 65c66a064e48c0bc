/**
 * `pnpm bench inflate`: the reader's JavaScript inflater against fflate (the inflater it
 * replaced) and node:zlib, in Node and in Chromium, on ordinary streams (text parts in the reader
 * bench's prose: 500 × 2 kB, 250 × 90 kB, 5 × 2 MB) and on hostile ones (many tiny
 * blocks with 15-bit codes, which inflate to nothing). Each figure is one fresh process or page:
 * the first pass over the set (cold) and the median of the next passes (warm).
 *
 * `RUNS=n` fresh processes/pages per figure (default 3), `ONLY=node|chromium`, `INFLATERS=a,b`
 * (names as printed) to run some inflaters only.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { CHROMIUM_PATH } from '@spkg/test-utils/chromium'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { prose } from '../reader/content'
import { INFLATERS as ALL_INFLATERS, manyHuffmanBlocks, type StreamSet } from './cases'

const RUNS = Number(process.env.RUNS ?? 3)
const ONLY = process.env.ONLY
const INFLATERS = process.env.INFLATERS
  ? ALL_INFLATERS.filter((i) => process.env.INFLATERS!.split(',').includes(i))
  : ALL_INFLATERS
const here = import.meta.dirname

function textSet(name: string, count: number, size: number): StreamSet {
  const raw = Array.from({ length: count }, (_, i) => new TextEncoder().encode(prose(size, i + 1)))
  return {
    name,
    streams: raw.map((r) => new Uint8Array(deflateRawSync(r, { level: 6 }))),
    sizes: raw.map((r) => r.length),
  }
}
const sets: StreamSet[] = [
  textSet('500 text parts of 2 kB', 500, 2000),
  textSet('250 text parts of 90 kB', 250, 90_000),
  textSet('5 text parts of 2 MB', 5, 2_000_000),
  { name: 'hostile: 4,000 blocks with 15-bit codes (92 kB)', streams: [manyHuffmanBlocks(4000)], sizes: [0] },
  {
    name: 'hostile: 40,000 blocks with 15-bit codes (0.9 MB)',
    streams: [manyHuffmanBlocks(40_000)],
    sizes: [0],
  },
]
for (const set of sets)
  for (let i = 0; i < set.streams.length; i++)
    if (inflateRawSync(set.streams[i]!).length !== set.sizes[i])
      throw new Error(`zlib disagrees on ${set.name}`)

/** One fresh context's figures: [cold, warm median] per inflater. */
type Pass = (setIndex: number, inflater: string) => Promise<[number, number]>
const WARM = 3

const work = mkdtempSync(join(tmpdir(), 'spkg-bench-inflate-'))
const page = await build({
  stdin: {
    contents: `import { inflateAll, loadInflateWasm } from './cases'
globalThis.runPass = async (sets, setIndex, inflater, warm) => {
  if (inflater.startsWith('bounded WebAssembly') && !(await loadInflateWasm())) throw new Error('no WebAssembly')
  const set = sets[setIndex]
  const cold = inflateAll(set, inflater)
  const w = []
  for (let i = 0; i < warm; i++) w.push(inflateAll(set, inflater))
  w.sort((a, b) => a - b)
  return [cold, w[Math.floor(w.length / 2)] ?? cold]
}`,
    resolveDir: here,
    loader: 'ts',
  },
  bundle: true,
  format: 'iife',
  platform: 'neutral',
  conditions: ['@spkg/source'],
  write: false,
  logLevel: 'warning',
})
const script = page.outputFiles[0]!.text
const nodeScript = join(work, 'pass.cjs')
writeFileSync(
  nodeScript,
  `${script}
const fs = require('node:fs'); const zlib = require('node:zlib')
const [file, setIndex, inflater] = process.argv.slice(2)
const sets = JSON.parse(fs.readFileSync(file, 'utf8')).map((s) => ({ ...s, streams: s.streams.map((b) => new Uint8Array(Buffer.from(b, 'base64'))) }))
;(async () => {
let r
if (inflater === 'node:zlib') {
  const run = () => { const t0 = performance.now(); for (const s of sets[setIndex].streams) zlib.inflateRawSync(s); return performance.now() - t0 }
  const cold = run(); const w = [run(), run(), run()].sort((a, b) => a - b); r = [cold, w[1]]
} else r = await globalThis.runPass(sets, Number(setIndex), inflater, ${WARM})
process.stdout.write(JSON.stringify(r))
})()`,
)
const setsFile = join(work, 'sets.json')
const wire = sets.map((s) => ({ ...s, streams: s.streams.map((b) => Buffer.from(b).toString('base64')) }))
writeFileSync(setsFile, JSON.stringify(wire))

const nodePass: Pass = async (setIndex, inflater) =>
  JSON.parse(
    execFileSync(process.execPath, [nodeScript, setsFile, String(setIndex), inflater], { encoding: 'utf8' }),
  )

const browser =
  ONLY === 'node'
    ? undefined
    : await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
const chromiumPass: Pass = async (setIndex, inflater) => {
  const context = await browser!.newContext()
  try {
    const p = await context.newPage()
    await p.addScriptTag({ content: script })
    return await p.evaluate(
      ([w, i, inf, warm]) => {
        const sets = (w as { name: string; sizes: number[]; streams: string[] }[]).map((s) => ({
          ...s,
          streams: s.streams.map((b) => Uint8Array.from(atob(b), (c) => c.charCodeAt(0))),
        }))
        return (globalThis as unknown as { runPass: (...a: unknown[]) => Promise<[number, number]> }).runPass(
          sets,
          i,
          inf,
          warm,
        )
      },
      [wire, setIndex, inflater, WARM] as const,
    )
  } finally {
    await context.close()
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const rows: string[] = []
const envs: Array<[string, Pass, readonly string[]]> = []
if (ONLY !== 'chromium') envs.push(['node', nodePass, ['node:zlib', ...INFLATERS]])
if (browser) envs.push(['chromium', chromiumPass, INFLATERS])
console.log(`load before: ${execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim()}`)
for (const [env, pass, inflaters] of envs)
  for (let s = 0; s < sets.length; s++)
    for (const inflater of inflaters) {
      const cold: number[] = []
      const warm: number[] = []
      for (let r = 0; r < RUNS; r++) {
        const [c, w] = await pass(s, inflater)
        cold.push(c)
        warm.push(w)
      }
      const row = `| ${sets[s]!.name} | ${env} | ${inflater} | ${median(cold).toFixed(1)} | ${Math.min(...cold).toFixed(1)} | ${median(warm).toFixed(1)} |`
      console.log(row)
      rows.push(row)
    }
await browser?.close()
console.log(`load after: ${execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim()}`)
console.log('\n| Streams | Env | Inflater | cold ms (median) | cold ms (best) | warm ms (median) |')
console.log('|---|---|---|---:|---:|---:|')
for (const r of rows) console.log(r)
