/**
 * `pnpm bench reader-browser`: the browser path of `@spkg/reader` (web backend: its WebAssembly
 * inflater, `DecompressionStream('deflate-raw')` or JavaScript, WebCrypto or a synchronous JS
 * SHA-256) on the three packages of `pnpm bench reader`, in Node (one fresh process per cold run)
 * and in Debian's Chromium (one fresh browser context per cold run, the package already in
 * memory), side by side with the native tools (`unzip -qo` to tmpfs, then `sha256sum -c --strict`).
 *
 * The samples alternate: each of the `RUNS` rounds takes one cold sample of every case and of the
 * native tools, in an order shuffled from round to round (fixed seeds) (so no case always runs first after a
 * browser launch, or last), so a burst of load on the shared machine falls on all of them alike.
 * Each case reports its median, best, 90th percentile and interquartile range, and the machine's
 * load while it ran: the CPU time other processes used during the settle pause and the run
 * (`/proc/stat`, in cores busy) and the 1-minute load average.
 *
 * `RUNS=n` rounds (default 9), `WARM=n` warm repetitions after each cold run (default 2),
 * `ONLY=node|chromium` one environment, `PACKAGES=small-500,...` some packages, `CASES=...` some cases,
 * `JS_FLAGS=...` V8 flags for Chromium (investigation only: never for published figures),
 * `SAMPLES=path` writes every sample to `path.<package>.json`.
 * `SETTLE=ms` (default 300) is the pause before every cold run: in Chromium after the page has
 * loaded and holds the package, so the previous run's renderer teardown (kernel reclaim) and the
 * spare renderer Chromium launches after a navigation are over before the clock starts; before
 * every Node and native process too. `SETTLE=0` measures right after the load.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { CHROMIUM_PATH } from '@spkg/test-utils/chromium'
import { pause, SETTLE, settle } from '../reader/settle'
import { CASES as ALL_CASES } from './cases'
import { benchBundle, coldPage, launchBench } from './cold-page'
import { checksums, nativeCommand, pack, specs } from './packages'

const RUNS = Number(process.env.RUNS ?? 9)
const WARM = Number(process.env.WARM ?? 2)
const ONLY = process.env.ONLY
const PACKAGES = process.env.PACKAGES?.split(',')
/** `CASES=name,name` runs some cases only (names as printed). */
const CASES = process.env.CASES
  ? ALL_CASES.filter((c) => process.env.CASES!.split(',').includes(c))
  : ALL_CASES
const MB = 1024 * 1024

interface Sample {
  /** Wall time of the cold run. */
  ms: number
  /**
   * CPU time of the cold run: the process's, every thread (Node: `process.cpuUsage`; native
   * tools: bash's user + sys), or the page's renderer's (Chromium: every thread's on-CPU time,
   * from schedstat; the WebCrypto and compiler threads included).
   */
  cpuMs: number
  /** Chromium: the CPU time of its other processes during the cold run. */
  browserCpuMs?: number
  /** Median wall time of the warm runs. */
  warmMs: number
  /** Cores kept busy by everything else during the settle pause and the run (see {@link busy}). */
  others?: number
  /** 1-minute load average when the run ended. */
  load1?: number
  /** Chromium: how many cases this browser had run before this one (0: first after the launch). */
  position?: number
}

/** The `q` quantile (0..1) of `xs`, interpolated between the nearest ranks. */
function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b)
  if (s.length === 0) return Number.NaN
  const at = (s.length - 1) * q
  const lo = Math.floor(at)
  const hi = Math.ceil(at)
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo)
}
const median = (xs: readonly number[]) => quantile(xs, 0.5)

interface Figures {
  n: number
  median: number
  best: number
  p90: number
  /** Interquartile range (75th minus 25th percentile). */
  iqr: number
  cpuMedian: number
  cpuBest: number
  /** Chromium: median CPU time of its other processes during the cold runs. */
  browserCpu: number
  warm: number
  /** Median cores busy with other work around the runs. */
  others: number
  load1: number
}
const figures = (s: Sample[]): Figures => {
  const ms = s.map((x) => x.ms)
  return {
    n: s.length,
    median: median(ms),
    best: Math.min(...ms),
    p90: quantile(ms, 0.9),
    iqr: quantile(ms, 0.75) - quantile(ms, 0.25),
    cpuMedian: median(s.map((x) => x.cpuMs)),
    cpuBest: Math.min(...s.map((x) => x.cpuMs)),
    browserCpu: median(s.map((x) => x.browserCpuMs ?? Number.NaN)),
    warm: median(s.map((x) => x.warmMs)),
    others: median(s.map((x) => x.others ?? Number.NaN)),
    load1: median(s.map((x) => x.load1 ?? Number.NaN)),
  }
}

/** Busy and total CPU time of the whole machine so far (ms, from /proc/stat). */
function cpuStat(): { busy: number; at: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
  const idle = f[3]! + f[4]!
  const total = f.reduce((a, b) => a + b, 0)
  return { busy: ((total - idle) * 1000) / 100, at: performance.now() }
}
const load1 = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])

/**
 * Stamps a sample with the machine's other load since `from`: the CPU time every process used,
 * less the sample's own, over the wall time (cores busy with something else; /proc/stat counts
 * in 10 ms ticks, so this is coarse), and the 1-minute load average.
 */
function busy(from: { busy: number; at: number }, sample: Sample): Sample {
  const to = cpuStat()
  const own = (Number.isNaN(sample.cpuMs) ? 0 : sample.cpuMs) + (sample.browserCpuMs ?? 0)
  return { ...sample, others: Math.max(0, to.busy - from.busy - own) / (to.at - from.at), load1: load1() }
}

const work = mkdtempSync(join(tmpdir(), 'spkg-bench-reader-browser-'))
const childScript = join(work, 'child.mjs')
await benchBundle('child.ts', 'node', { outfile: childScript })
const pageScript = await benchBundle('page.ts', 'browser')

function nodeRun(name: string, file: string): Sample {
  const from = cpuStat()
  pause()
  const out = execFileSync(process.execPath, [childScript, name, file, String(WARM)], { encoding: 'utf8' })
  return busy(from, JSON.parse(out.trim().split('\n').pop()!) as Sample)
}

/** unzip to tmpfs, then sha256sum -c on the same files; wall and CPU time (bash's `time`). */
function nativeRun(file: string, sums: string): Sample {
  const dir = mkdtempSync(join('/dev/shm', 'spkg-bench-'))
  const from = cpuStat()
  pause()
  try {
    const script = `TIMEFORMAT='%3R %3U %3S'; time ( ${nativeCommand(file, dir, sums)} )`
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`native tools failed: ${r.stderr}`)
    const [real, user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [
      number,
      number,
      number,
    ]
    return busy(from, { ms: real * 1000, cpuMs: (user + sys) * 1000, warmMs: Number.NaN })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * On-CPU time (ns) of every thread of each given process so far, from
 * /proc/<pid>/task/<tid>/schedstat: nanosecond-precise and not inflated by waiting for a core,
 * so it stays meaningful on a loaded machine.
 */
function cpuNs(pids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>()
  for (const pid of pids) {
    let tids: string[]
    try {
      tids = readdirSync(`/proc/${pid}/task`)
    } catch {
      continue
    }
    let ns = 0
    for (const tid of tids) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
      } catch {
        // the thread ended
      }
    }
    out.set(pid, ns)
  }
  return out
}

/**
 * The CPU time (ms) between two {@link cpuNs} readings: the process that used the most (the
 * page's renderer, which runs the case) and all the others together (the browser process, the
 * network and storage services, the spare renderer...).
 */
function cpuSplit(before: Map<number, number>, after: Map<number, number>): { page: number; rest: number } {
  const deltas = [...after].map(([pid, ns]) => (ns - (before.get(pid) ?? ns)) / 1e6).sort((a, b) => b - a)
  return { page: deltas[0] ?? Number.NaN, rest: deltas.slice(1).reduce((a, b) => a + b, 0) }
}

/** Every process of the Chromium launched by this bench (its children and theirs). */
function chromiumPids(): number[] {
  const parent = new Map<number, number>()
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // gone
    }
  }
  const mine = new Set([process.pid])
  for (let grew = true; grew; ) {
    grew = false
    for (const [pid, ppid] of parent)
      if (!mine.has(pid) && mine.has(ppid)) {
        mine.add(pid)
        grew = true
      }
  }
  mine.delete(process.pid)
  return [...mine]
}

/** `xs` in an order shuffled by `seed` (the same for the same seed): every round its own order. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs]
  let x = (seed + 1) * 0x9e3779b1
  for (let i = out.length - 1; i > 0; i--) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    const j = (x >>> 0) % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/**
 * One cold run of each case in Chromium, in the given order: one browser, a fresh context
 * (renderer) per case, and `between` (the native tools' run, say) after the case at index `at`.
 */
async function chromiumRuns(
  body: Uint8Array,
  order: readonly string[],
  between?: { at: number; run: () => void },
): Promise<Map<string, Sample>> {
  const browser = await launchBench()
  const out = new Map<string, Sample>()
  try {
    for (const [i, name] of order.entries()) {
      if (between?.at === i) between.run()
      const { page, run } = await coldPage(browser, pageScript, Buffer.from(body), name, false)
      const pids = chromiumPids()
      const from = cpuStat()
      await settle()
      const cpu0 = cpuNs(pids)
      const ms = await run()
      const cpu = cpuSplit(cpu0, cpuNs(pids))
      const stamped = busy(from, { ms, cpuMs: cpu.page, browserCpuMs: cpu.rest, warmMs: Number.NaN })
      const warm: number[] = []
      for (let w = 0; w < WARM; w++) warm.push(await run())
      out.set(name, { ...stamped, warmMs: warm.length ? median(warm) : Number.NaN, position: i })
      await page.context().close()
    }
    if (between && between.at >= order.length) between.run()
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
    writeFileSync(sums, checksums(spec))
    const total = Object.values(files).reduce(
      (t, v) => t + (typeof v === 'string' ? Buffer.byteLength(v) : v.length),
      0,
    )
    console.log(
      `\n${spec.name}: ${Object.keys(files).length + 1} entries, ${(total / MB).toFixed(1)} MiB inflated, ${(bytes.length / MB).toFixed(1)} MiB file (load ${load()})`,
    )
    loads.push(load())
    const samples = new Map<string, Sample[]>()
    const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s])
    for (let r = 0; r < RUNS; r++) {
      // The native tools run at a different place among the cases each round.
      const nativeAt = r % (CASES.length + 1)
      const native = () => add('native', nativeRun(file, sums))
      if (ONLY !== 'chromium')
        for (const [i, name] of shuffled(CASES, r).entries()) {
          if (ONLY === 'node' && i === nativeAt) native()
          add(`node ${name}`, nodeRun(name, file))
        }
      if (ONLY === 'node' && nativeAt >= CASES.length) native()
      if (ONLY !== 'node') {
        const got = await chromiumRuns(bytes, shuffled(CASES, r), { at: nativeAt, run: native })
        for (const [name, s] of got) add(`chromium ${name}`, s)
      }
      process.stdout.write(`  round ${r + 1}/${RUNS} done (load ${load()})\n`)
    }
    if (process.env.SAMPLES)
      writeFileSync(
        `${process.env.SAMPLES}.${spec.key}.json`,
        JSON.stringify(Object.fromEntries(samples), null, 1),
      )
    const native = figures(samples.get('native') ?? [])
    const report = (env: string, name: string, f: Figures) => {
      const pipeline = !name.includes(':') && !name.startsWith('peek') && env !== 'native'
      const verdict = pipeline
        ? `${f.median <= native.median ? 'yes' : 'no'} / ${f.best <= native.best ? 'yes' : 'no'}`
        : ''
      rows.push(
        `| ${spec.key} | ${env} | ${name} | ${f.n} | ${n1(f.median)} | ${n1(f.best)} | ${n1(f.p90)} | ${n1(f.iqr)} | ${n1(f.cpuMedian)} | ${n1(f.browserCpu)} | ${n1(f.warm)} | ${f.others.toFixed(2)} | ${n1(f.load1)} | ${verdict} |`,
      )
      console.log(
        `  ${env.padEnd(8)} ${name.padEnd(50)} cold ${n1(f.median).padStart(7)} ms (best ${n1(f.best)}, p90 ${n1(f.p90)}, IQR ${n1(f.iqr)}; cpu ${n1(f.cpuMedian)}, other chromium cpu ${n1(f.browserCpu)})  warm ${n1(f.warm)} ms  others ${f.others.toFixed(2)} cores, load ${n1(f.load1)}${verdict && `  ≤ native (median/best): ${verdict}`}`,
      )
    }
    report('native', 'unzip -qo + sha256sum -c', native)
    for (const env of ['node', 'chromium'])
      for (const name of CASES) {
        const s = samples.get(`${env} ${name}`)
        if (s) report(env, name, figures(s))
      }
    console.log(`  (load after: ${load()})`)
    loads.push(load())
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
console.log(`\nload averages (1/5/15 min) around the packages: ${loads.join(' | ')}`)
console.log(
  '\n| Package | Env | Case | runs | cold ms median | best | p90 | IQR | cold CPU ms (median) | Chromium other processes CPU ms (median) | warm ms | other load (cores) | load avg 1 min | ≤ native (median / best) |',
)
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|')
for (const r of rows) console.log(r)
