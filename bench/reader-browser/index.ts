/**
 * `pnpm bench reader-browser`: the browser path of `@spkg/reader` (web backend: fflate or
 * `DecompressionStream('deflate-raw')`, WebCrypto or a synchronous JS SHA-256) on the three
 * packages of `pnpm bench reader`, in Node (one fresh process per cold run) and in Debian's
 * Chromium (one fresh browser context per cold run, the package already in memory), side by side
 * with the native tools (`unzip -qo` to tmpfs, then `sha256sum -c --strict`).
 * `RUNS=n` cold runs per case (default 3), `WARM=n` warm repetitions after each (default 3),
 * `ONLY=node|chromium` one environment, `PACKAGES=small-500,...` some packages, `CASES=...` some cases,
 * `JS_FLAGS=...` V8 flags for Chromium (investigation only: never for published figures).
 * `SETTLE=ms` (default 300) is the pause before every cold run: in Chromium after the page has
 * loaded and holds the package, so the previous run's renderer teardown (kernel reclaim) and the
 * spare renderer Chromium launches after a navigation are over before the clock starts; before
 * every Node and native process too. `SETTLE=0` measures right after the load.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { CHROMIUM_PATH } from '@spkg/test-utils/chromium'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { pause, SETTLE, settle } from '../reader/settle'
import { CASES as ALL_CASES } from './cases'
import { pack, specs } from './packages'

const RUNS = Number(process.env.RUNS ?? 3)
const WARM = Number(process.env.WARM ?? 3)
const ONLY = process.env.ONLY
const PACKAGES = process.env.PACKAGES?.split(',')
/** `CASES=name,name` runs some cases only (names as printed). */
const CASES = process.env.CASES
  ? ALL_CASES.filter((c) => process.env.CASES!.split(',').includes(c))
  : ALL_CASES
const MB = 1024 * 1024
const here = import.meta.dirname

interface Sample {
  /** Wall time of the cold run. */
  ms: number
  /** CPU time of the cold run: the process's (Node, native tools) or the renderer's (Chromium). */
  cpuMs: number
  /** Median wall time of the warm runs. */
  warmMs: number
}
interface Figures {
  median: number
  best: number
  cpuMedian: number
  cpuBest: number
  warm: number
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const figures = (s: Sample[]): Figures => ({
  median: median(s.map((x) => x.ms)),
  best: Math.min(...s.map((x) => x.ms)),
  cpuMedian: median(s.map((x) => x.cpuMs)),
  cpuBest: Math.min(...s.map((x) => x.cpuMs)),
  warm: median(s.map((x) => x.warmMs)),
})

const work = mkdtempSync(join(tmpdir(), 'spkg-bench-reader-browser-'))
const bundle = async (entry: string, platform: 'node' | 'browser', outfile?: string) => {
  const r = await build({
    entryPoints: [join(here, entry)],
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
const childScript = join(work, 'child.mjs')
await bundle('child.ts', 'node', childScript)
const pageScript = await bundle('page.ts', 'browser')

function nodeRun(name: string, file: string): Sample {
  pause()
  const out = execFileSync(process.execPath, [childScript, name, file, String(WARM)], { encoding: 'utf8' })
  return JSON.parse(out.trim().split('\n').pop()!) as Sample
}

/** unzip to tmpfs, then sha256sum -c on the same files; wall and CPU time (bash's `time`). */
function nativeRun(file: string, sums: string): Sample {
  const dir = mkdtempSync(join('/dev/shm', 'spkg-bench-'))
  pause()
  try {
    const script = `TIMEFORMAT='%3R %3U %3S'; time ( unzip -qo '${file}' -d '${dir}' && cd '${dir}' && sha256sum -c --quiet --strict '${sums}' )`
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`native tools failed: ${r.stderr}`)
    const [real, user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [
      number,
      number,
      number,
    ]
    return { ms: real * 1000, cpuMs: (user + sys) * 1000, warmMs: Number.NaN }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One cold run of every case in Chromium: one browser, a fresh context (renderer) per case. */
async function chromiumRuns(body: Uint8Array): Promise<Map<string, Sample>> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      // For investigation only (e.g. JS_FLAGS=--no-lazy shows what lazy compilation costs).
      ...(process.env.JS_FLAGS ? [`--js-flags=${process.env.JS_FLAGS}`] : []),
    ],
  })
  const out = new Map<string, Sample>()
  try {
    for (const name of CASES) {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.route('http://localhost/**', (route) => {
        const url = route.request().url()
        if (url.endsWith('/app.js'))
          return route.fulfill({ contentType: 'text/javascript', body: pageScript })
        if (url.endsWith('/package.spkg'))
          return route.fulfill({ contentType: 'application/octet-stream', body: Buffer.from(body) })
        return route.fulfill({
          contentType: 'text/html',
          body: '<script type="module" src="/app.js"></script>',
        })
      })
      await page.goto('http://localhost/')
      await page.waitForFunction(() => typeof (globalThis as { runBench?: unknown }).runBench === 'function')
      await page.evaluate(() =>
        (globalThis as unknown as { loadBench: (u: string) => Promise<number> }).loadBench('/package.spkg'),
      )
      const cdp = await context.newCDPSession(page)
      await cdp.send('Performance.enable')
      const processTime = async () =>
        (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ProcessTime')?.value ??
        Number.NaN
      const run = () =>
        page.evaluate(
          (n) => (globalThis as unknown as { runBench: (n: string) => Promise<number> }).runBench(n),
          name,
        )
      await settle()
      const cpu0 = await processTime()
      const ms = await run()
      const cpuMs = ((await processTime()) - cpu0) * 1000
      const warm: number[] = []
      for (let i = 0; i < WARM; i++) warm.push(await run())
      const s: Sample = { ms, cpuMs, warmMs: warm.length ? median(warm) : Number.NaN }
      out.set(name, s)
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return out
}

const loads: string[] = []
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
console.log(
  `machine: ${cpus()[0]?.model} × ${cpus().length}, Node ${process.version}, Chromium ${execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).trim()}, RUNS=${RUNS}, WARM=${WARM}, SETTLE=${SETTLE}`,
)
const rows: string[] = []
const n1 = (v: number) => (Number.isNaN(v) ? 'n/a' : v.toFixed(1))
try {
  for (const spec of specs) {
    if (PACKAGES && !PACKAGES.includes(spec.key)) continue
    const bytes = pack(spec)
    const file = join(work, `${spec.key}.spkg`)
    writeFileSync(file, bytes)
    const sums = join(work, `${spec.key}.sums`)
    const files = { ...spec.parts, ...spec.media }
    writeFileSync(
      sums,
      Object.entries(files)
        .map(([k, v]) => `${createHash('sha256').update(v).digest('hex')}  ${k}\n`)
        .join(''),
    )
    const total = Object.values(files).reduce(
      (t, v) => t + (typeof v === 'string' ? Buffer.byteLength(v) : v.length),
      0,
    )
    console.log(
      `\n${spec.name}: ${Object.keys(files).length + 1} entries, ${(total / MB).toFixed(1)} MiB inflated, ${(bytes.length / MB).toFixed(1)} MiB file (load ${load()})`,
    )
    loads.push(load())
    const native = figures(Array.from({ length: RUNS }, () => nativeRun(file, sums)))
    const report = (env: string, name: string, f: Figures) => {
      const pipeline = !name.includes(':') && !name.startsWith('peek') && env !== 'native'
      const verdict = pipeline
        ? `${f.best <= native.best ? 'yes' : 'no'} / ${f.cpuBest <= native.cpuBest ? 'yes' : 'no'}`
        : ''
      rows.push(
        `| ${spec.key} | ${env} | ${name} | ${n1(f.median)} | ${n1(f.best)} | ${n1(f.cpuMedian)} | ${n1(f.cpuBest)} | ${n1(f.warm)} | ${verdict} |`,
      )
      console.log(
        `  ${env.padEnd(8)} ${name.padEnd(50)} cold ${n1(f.median).padStart(7)} ms (best ${n1(f.best).padStart(7)}, cpu ${n1(f.cpuBest).padStart(7)})  warm ${n1(f.warm).padStart(7)} ms ${verdict && `  ≤ native (wall/cpu): ${verdict}`}`,
      )
    }
    report('native', 'unzip -qo + sha256sum -c', native)
    if (ONLY !== 'chromium')
      for (const name of CASES)
        report('node', name, figures(Array.from({ length: RUNS }, () => nodeRun(name, file))))
    if (ONLY !== 'node') {
      const runs: Map<string, Sample>[] = []
      for (let i = 0; i < RUNS; i++) runs.push(await chromiumRuns(bytes))
      for (const name of CASES) report('chromium', name, figures(runs.map((r) => r.get(name)!)))
    }
    console.log(`  (load after: ${load()})`)
    loads.push(load())
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
console.log(`\nload averages (1/5/15 min) around the packages: ${loads.join(' | ')}`)
console.log(
  '\n| Package | Env | Case | cold wall ms (median) | cold wall ms (best) | cold CPU ms (median) | cold CPU ms (best) | warm wall ms | best ≤ native best (wall / CPU) |',
)
console.log('|---|---|---|---:|---:|---:|---:|---:|:---:|')
for (const r of rows) console.log(r)
