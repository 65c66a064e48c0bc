/**
 * `pnpm bench reader-hostile`: a server's view of the reader. `COUNT` hostile packages (default
 * 10,000; bench/reader-hostile/corpus.ts: byte-mutated from valid and bomb seeds, fixed `SEED`)
 * opened one after another with `@spkg/reader/node` `openPackage` in one fresh process, whose peak
 * RSS (VmHWM) must stay under 300 MiB: native memory (zlib state, output buffers) has to be
 * released as each package is done with, not when the garbage collector gets to it. Also the same
 * process generating the corpus without opening anything (the generator's own footprint), the
 * RSS after a full GC, the slowest open, and how the packages ended. `RUNS=n` runs of each
 * (default 1), alternating.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleForNode } from '../reader/bundle.ts'

const COUNT = Number(process.env.COUNT ?? 10_000)
const SEED = Number(process.env.SEED ?? 0x5eed)
const RUNS = Number(process.env.RUNS ?? 1)
const TARGET_MIB = 300
const here = import.meta.dirname

interface Run {
  mode: string
  peakKiB: number
  hwmAt: number[]
  rssAfterGcKiB: number
  totalMs: number
  slowestMs: number
  slowestKind: string
  loaded: number
  refused: number
  threw: number
  codes: Record<string, number>
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
const work = mkdtempSync(join(tmpdir(), 'spkg-bench-reader-hostile-'))
const childScript = join(work, 'child.mjs')
try {
  await bundleForNode(join(here, 'child.ts'), childScript)
  const run = (mode: 'open' | 'baseline'): Run =>
    JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', childScript, mode, String(COUNT), String(SEED)], {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      })
        .trim()
        .split('\n')
        .pop()!,
    ) as Run
  console.log(
    `machine: ${cpus()[0]?.model} × ${cpus().length}, Node ${process.version}, COUNT=${COUNT}, SEED=${SEED}, RUNS=${RUNS}`,
  )
  const mib = (k: number) => (k / 1024).toFixed(0)
  const rows: string[] = []
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ['baseline', 'open'] as const) {
      const before = load()
      const r = run(mode)
      const line =
        mode === 'open'
          ? `${r.loaded} loaded, ${r.refused} refused, ${r.threw} threw; slowest open ${r.slowestMs.toFixed(0)} ms (${r.slowestKind})`
          : 'generation only'
      console.log(
        `${mode.padEnd(8)} peak RSS ${mib(r.peakKiB)} MiB (${mode === 'open' ? (r.peakKiB / 1024 <= TARGET_MIB ? 'under' : 'OVER') : 'n/a'} the ${TARGET_MIB} MiB target), after a full GC ${mib(r.rssAfterGcKiB)} MiB, ${(r.totalMs / 1000).toFixed(1)} s; ${line}; load ${before} -> ${load()}`,
      )
      console.log(`         peak RSS after each tenth (MiB): ${r.hwmAt.map(mib).join(' ')}`)
      if (mode === 'open')
        console.log(
          `         fatal codes: ${Object.entries(r.codes)
            .sort((a, b) => b[1] - a[1])
            .map(([c, n]) => `${c} ${n}`)
            .join(', ')}`,
        )
      rows.push(
        `| ${mode === 'open' ? 'openPackage, one after another' : 'generation only (baseline)'} | ${COUNT} | ${mib(r.peakKiB)} | ${mib(r.rssAfterGcKiB)} | ${(r.totalMs / 1000).toFixed(1)} | ${mode === 'open' ? r.slowestMs.toFixed(0) : 'n/a'} | ${mode === 'open' ? `${r.loaded} / ${r.refused} / ${r.threw}` : 'n/a'} | ${before} |`,
      )
    }
  }
  console.log(
    '\n| Run | Packages | peak RSS MiB | RSS after full GC MiB | total s | slowest open ms | loaded / refused / threw | load (1/5/15 min) |',
  )
  console.log('|---|---:|---:|---:|---:|---:|---|---|')
  for (const r of rows) console.log(r)
} finally {
  rmSync(work, { recursive: true, force: true })
}
