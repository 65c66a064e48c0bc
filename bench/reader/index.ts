/**
 * `pnpm bench reader`: open + verify every entry (inflate, CRC-32, SHA-256 of every
 * integrity-listed file) of three packages, each case cold in its own process, side by side with
 * (a) the native tools (`unzip` then `sha256sum -c` on the same files) and (b) the floor, a
 * minimal central-directory walk on node:zlib + node:crypto (bench/reader/child.ts). Also peek
 * time (beside a peek floor: the file's tail, a bare directory walk, the manifest inflated and
 * JSON.parse'd) and peak memory (VmHWM of the case's process). `RUNS=n` sets the cold runs per case
 * (default 3), `WARM=n` the warm repetitions inside each case process (default 3), `SETTLE=ms`
 * the pause before every process (default 300), so the previous process's teardown is over
 * before the next one starts, for every case alike.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleForNode } from './bundle.ts'
import { checksums, nativeCommand, pack, specs } from './packages.ts'
import { pause, SETTLE } from './settle.ts'

const MB = 1024 * 1024
const RUNS = Number(process.env.RUNS ?? 3)
const here = import.meta.dirname

interface Sample {
  ms: number
  /** CPU time of the cold run (all threads of the process). */
  cpuMs: number
  warmMs: number
  maxRssKiB: number
  ok: boolean
}

/** Warm repetitions inside each case process, after its cold run. */
const WARM = Number(process.env.WARM ?? 3)

const work = mkdtempSync(join(tmpdir(), 'spkg-bench-reader-'))
// The cases run as one plain ESM bundle (no tsx in the measured processes): honest startup and memory.
const childScript = join(work, 'child.mjs')
await bundleForNode(join(here, 'child.ts'), childScript)

function child(kind: string, file: string): Sample {
  pause()
  const out = execFileSync(process.execPath, [childScript, kind, file, String(WARM)], { encoding: 'utf8' })
  const s = JSON.parse(out.trim().split('\n').pop()!) as Sample
  // JSON has no NaN: with WARM=0 there is no warm figure, and the child writes null.
  return { ...s, warmMs: s.warmMs ?? Number.NaN }
}

/** unzip to tmpfs, then sha256sum -c on the same files; wall time and peak RSS via /usr/bin/time. */
function native(file: string, sums: string): Sample {
  const dir = mkdtempSync(join('/dev/shm', 'spkg-bench-'))
  pause()
  try {
    const script = nativeCommand(file, dir, sums)
    const t0 = performance.now()
    const r = spawnSync('/usr/bin/time', ['-f', '%M', 'sh', '-c', script], { encoding: 'utf8' })
    const ms = performance.now() - t0
    const rss = Number(r.stderr.trim().split('\n').pop())
    return { ms, cpuMs: Number.NaN, warmMs: Number.NaN, maxRssKiB: rss, ok: r.status === 0 }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

interface Figures {
  /** Median of the cold runs (one fresh process each). */
  ms: number
  /** Best cold run: the least disturbed by other load on the machine. */
  best: number
  /** Median CPU time of the cold runs (all threads; NaN for the native tools). */
  cpu: number
  /** Median of the warm repetitions. */
  warm: number
  rssMiB: number
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

function measure(run: () => Sample): Figures {
  const samples = range(RUNS).map(run)
  if (!samples.every((s) => s.ok)) throw new Error('a case failed to verify the package')
  return {
    ms: median(samples.map((s) => s.ms)),
    best: Math.min(...samples.map((s) => s.ms)),
    cpu: median(samples.map((s) => s.cpuMs)),
    warm: median(samples.map((s) => s.warmMs)),
    rssMiB: median(samples.map((s) => s.maxRssKiB)) / 1024,
  }
}

const rows: string[] = []
console.log(
  `machine: ${cpus()[0]?.model} × ${cpus().length}, Node ${process.version}, RUNS=${RUNS}, SETTLE=${SETTLE}`,
)
const base = measure(() => child('baseline', ''))
console.log(`baseline process (node, reader bundle loaded): ${base.rssMiB.toFixed(0)} MiB maxRSS`)
try {
  for (const spec of specs) {
    const bytes = pack(spec)
    const file = join(work, 'package.spkg')
    writeFileSync(file, bytes)
    const sums = join(work, 'sums.txt')
    const files = { ...spec.parts, ...spec.media }
    writeFileSync(sums, checksums(spec))
    const total = Object.values(files).reduce(
      (n, v) => n + (typeof v === 'string' ? Buffer.byteLength(v) : v.length),
      0,
    )
    const label = `${spec.name}: ${Object.keys(files).length + 1} entries, ${(total / MB).toFixed(1)} MiB inflated, ${(bytes.length / MB).toFixed(1)} MiB file`
    console.log(`\n${label}`)
    const results: [string, Figures][] = [
      ['floor (node:zlib + node:crypto, minimal walk)', measure(() => child('floor', file))],
      ['@spkg/reader/node openPackageFile', measure(() => child('reader-node', file))],
      [
        '@spkg/reader openPackage (WebAssembly inflater + WebCrypto)',
        measure(() => child('reader-web', file)),
      ],
      ['unzip + sha256sum -c (native)', measure(() => native(file, sums))],
      ['peek floor (tail + directory walk + manifest, node:zlib)', measure(() => child('peek-floor', file))],
      ['@spkg/reader/node peekPackageFile', measure(() => child('peek-node', file))],
      ['@spkg/reader peekPackage (file read + peek)', measure(() => child('peek-web', file))],
    ]
    const floor = results[0]![1]
    const x = (v: number, f: number) => (Number.isNaN(v) ? 'n/a' : `${(v / f).toFixed(2)}×`)
    const n = (v: number) => (Number.isNaN(v) ? 'n/a' : v.toFixed(1))
    for (const [method, r] of results) {
      rows.push(
        `| ${spec.name} | ${method} | ${n(r.ms)} | ${n(r.best)} | ${x(r.best, floor.best)} | ${n(r.cpu)} | ${x(r.cpu, floor.cpu)} | ${n(r.warm)} | ${x(r.warm, floor.warm)} | ${r.rssMiB.toFixed(0)} | ${x(r.rssMiB, floor.rssMiB)} |`,
      )
      console.log(
        `  ${method.padEnd(48)} cold ${n(r.ms).padStart(7)} ms (best ${n(r.best)}, ${x(r.best, floor.best)}; CPU ${n(r.cpu)}, ${x(r.cpu, floor.cpu)})  warm ${n(r.warm).padStart(6)} ms (${x(r.warm, floor.warm)})  maxRSS ${r.rssMiB.toFixed(0)} MiB (${x(r.rssMiB, floor.rssMiB)})`,
      )
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
console.log(
  '\n| Package | Method | cold ms (median) | cold ms (best) | best vs floor | cold CPU ms (median) | CPU vs floor | warm ms | warm vs floor | peak RSS MiB | vs floor |',
)
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const r of rows) console.log(r)
