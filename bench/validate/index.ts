/**
 * `pnpm bench validate`: time and peak memory of the static checker and of `spkg validate` on
 * large but legal packages. Every case runs cold in its own process (one plain ESM bundle, no
 * tsx): `checkStory` alone on 1, 5 and 18 MB of story text (one part, and 18 MB in 100 parts),
 * then `spkg validate --format json` on a realistic 30 MB package (120 parts, 60 media), 10 MB of
 * story in 100 parts, 45 MB of story in 250 parts and 18 MB of story in one part. The story text
 * is bench/story's generated section shape (text, interpolation, conditions, a function call,
 * rolls, five options per section).
 *
 * `RUNS=n` cold runs per case (default 3; the table gives the median and the best). `BEFORE=<dir>`
 * also runs every case on another checkout of the repository (e.g. `git archive <commit>` with
 * its node_modules links) for before/after figures. `ONLY=check|validate` runs one half.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildPackage, type EntrySpec } from '@spkg/test-utils'
import { build } from 'esbuild'
import { noise } from '../reader/packages.ts'
import { generateSpkgStory } from '../story/generate'

const MB = 1024 * 1024
const RUNS = Number(process.env.RUNS ?? 3)
const ONLY = process.env.ONLY
const here = import.meta.dirname
const roots: Array<[string, string]> = [['now', resolve(here, '../..')]]
if (process.env.BEFORE) roots.unshift(['before', resolve(process.env.BEFORE)])

/** About 410 bytes of story per generated section. */
const SECTION_BYTES = 410
const MODULE_PATH = 'extensions/lib.xty'

/**
 * `count` parts of `bytes` story text in all, each a generated story (only the entry keeps the
 * `{seed}` line: elsewhere it is an error). Every part falls through to the next.
 */
function storyParts(bytes: number, count: number): { parts: Record<string, string>; module: string } {
  const story = generateSpkgStory(Math.max(1, Math.round(bytes / count / SECTION_BYTES)))
  const rest = story.part.replace('{seed 42}\n', '')
  const parts: Record<string, string> = {}
  for (let i = 0; i < count; i++)
    parts[`story/${String(i + 1).padStart(4, '0')}-part.sty`] = i === 0 ? story.part : rest
  return { parts, module: story.module }
}

interface Sample {
  ms: number
  /** CPU time (user + system): less disturbed than wall time by other load on the machine. */
  cpuMs: number
  /** Peak resident memory of the process (KiB). */
  hwmKiB: number
  diagnostics: number
  /** `checkStory` cases: the process's peak before the check (input loaded). */
  baseKiB?: number
  valid?: boolean
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')

const work = mkdtempSync(join(tmpdir(), 'spkg-bench-validate-'))

/** Bundles the checker child and the `spkg` binary of one checkout. */
async function bundle(label: string, root: string): Promise<{ check: string; spkg: string }> {
  const check = join(work, `${label}-check.mjs`)
  const spkg = join(work, `${label}-spkg.mjs`)
  const common = {
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: 'node20',
    conditions: ['@spkg/source'],
    logLevel: 'warning' as const,
    // CommonJS dependencies bundled into ESM call require()
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  }
  // The checker child is this checkout's file, bundled against the other checkout's @spkg/story.
  await build({
    ...common,
    entryPoints: [join(here, 'child.ts')],
    outfile: check,
    nodePaths: [join(root, 'bench/node_modules')],
    alias: { '@spkg/story': join(root, 'packages/story/src/index.ts') },
  })
  await build({ ...common, entryPoints: [join(root, 'apps/validator/src/bin.ts')], outfile: spkg })
  return { check, spkg }
}

function runCheck(script: string, input: string): Sample {
  const r = spawnSync(process.execPath, [script, input], { encoding: 'utf8', maxBuffer: 64 * MB })
  if (r.status !== 0) throw new Error(`checkStory child failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Sample
}

/** `spkg validate --format json` under /usr/bin/time (its %M is the node process's own peak). */
function runValidate(script: string, file: string): Sample {
  const out = join(work, 'report.json')
  const t0 = performance.now()
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M %U %S',
      'sh',
      '-c',
      `exec "${process.execPath}" "${script}" validate "${file}" --format json > "${out}"`,
    ],
    { encoding: 'utf8' },
  )
  const ms = performance.now() - t0
  if (r.status !== 0 && r.status !== 1) throw new Error(`spkg validate failed (${r.status}): ${r.stderr}`)
  const report = JSON.parse(readFileSync(out, 'utf8')) as { valid: boolean; diagnostics: unknown[] }
  const [hwmKiB, user, system] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [
    number,
    number,
    number,
  ]
  return {
    ms,
    cpuMs: (user + system) * 1000,
    hwmKiB,
    diagnostics: report.diagnostics.length,
    valid: report.valid,
  }
}

interface Row {
  caseName: string
  code: string
  ms: number
  best: number
  cpu: number
  cpuBest: number
  peakMiB: number
  baseMiB?: number
  diagnostics: number
  valid?: boolean
  load: string
}

function measure(caseName: string, code: string, run: () => Sample): Row {
  const l = load()
  const samples = Array.from({ length: RUNS }, run)
  const row: Row = {
    caseName,
    code,
    ms: median(samples.map((s) => s.ms)),
    best: Math.min(...samples.map((s) => s.ms)),
    cpu: median(samples.map((s) => s.cpuMs)),
    cpuBest: Math.min(...samples.map((s) => s.cpuMs)),
    peakMiB: median(samples.map((s) => s.hwmKiB)) / 1024,
    diagnostics: samples[0]!.diagnostics,
    load: l,
  }
  if (samples[0]!.baseKiB !== undefined) row.baseMiB = median(samples.map((s) => s.baseKiB!)) / 1024
  if (samples[0]!.valid !== undefined) row.valid = samples[0]!.valid
  console.log(
    `  ${code.padEnd(6)} median ${(row.ms / 1000).toFixed(2)} s, best ${(row.best / 1000).toFixed(2)} s, CPU ${(row.cpu / 1000).toFixed(2)} s (best ${(row.cpuBest / 1000).toFixed(2)}), peak ${row.peakMiB.toFixed(0)} MiB${row.baseMiB === undefined ? '' : ` (input loaded: ${row.baseMiB.toFixed(0)} MiB)`}, ${row.diagnostics} diagnostics${row.valid === undefined ? '' : `, valid ${row.valid}`} (load ${l})`,
  )
  return row
}

const checkRows: Row[] = []
const validateRows: Row[] = []
console.log(`machine: ${cpus()[0]?.model} × ${cpus().length}, Node ${process.version}, RUNS=${RUNS}`)
try {
  const bundles = await Promise.all(
    roots.map(async ([label, root]) => [label, await bundle(label, root)] as const),
  )

  if (ONLY !== 'validate') {
    const checkCases: Array<[string, number, number]> = [
      ['1 MB, 1 part', 1, 1],
      ['5 MB, 1 part', 5, 1],
      ['18 MB, 1 part', 18, 1],
      ['18 MB, 100 parts', 18, 100],
    ]
    for (const [name, mb, count] of checkCases) {
      const { parts, module } = storyParts(mb * MB, count)
      const file = join(work, 'check-input.json')
      writeFileSync(
        file,
        JSON.stringify({ parts, order: Object.keys(parts), modules: { [MODULE_PATH]: module } }),
      )
      const text = Object.values(parts).reduce((n, p) => n + p.length, 0)
      console.log(`\ncheckStory, ${name}: ${(text / MB).toFixed(1)} MiB of story text`)
      for (const [label, b] of bundles) checkRows.push(measure(name, label, () => runCheck(b.check, file)))
    }
  }

  if (ONLY !== 'check') {
    const entry: Record<string, Partial<EntrySpec>> = {}
    const media = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => {
        const path = `assets/img-${String(i).padStart(4, '0')}.webp`
        entry[path] = { method: 0 }
        return [path, noise(460 * 1024, i + 7)] as const
      }),
    )
    const packages: Array<[string, number, number, Record<string, Uint8Array>]> = [
      ['realistic 30 MB (120 parts, 60 media)', 2.8, 120, media],
      ['10 MB of story, 100 parts', 10, 100, {}],
      ['45 MB of story, 250 parts', 45, 250, {}],
      ['18 MB of story, 1 part', 18, 1, {}],
    ]
    for (const [name, mb, count, assets] of packages) {
      const { parts, module } = storyParts(mb * MB, count)
      const bytes = buildPackage(
        {
          manifest: { title: name, ...(count === 120 ? { cover: 'assets/img-0000.webp' } : {}) },
          parts,
          assets,
          extensions: { [MODULE_PATH]: module },
          integrity: true,
          entry,
        },
        { level: 6 },
      )
      const file = join(work, 'package.spkg')
      writeFileSync(file, bytes)
      const text = Object.values(parts).reduce((n, p) => n + p.length, 0)
      const inflated = text + Object.values(assets).reduce((n, a) => n + a.length, 0)
      console.log(
        `\nspkg validate, ${name}: ${(text / MB).toFixed(1)} MiB of story, ${(inflated / MB).toFixed(1)} MiB inflated, ${(bytes.length / MB).toFixed(1)} MiB file`,
      )
      for (const [label, b] of bundles)
        validateRows.push(measure(name, label, () => runValidate(b.spkg, file)))
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}

const s = (ms: number) => (ms / 1000).toFixed(2)
if (checkRows.length) {
  console.log(
    '\n| checkStory | code | wall median s | wall best s | CPU median s | CPU best s | peak RSS MiB | input loaded MiB | diagnostics | load avg |',
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---|')
  for (const r of checkRows)
    console.log(
      `| ${r.caseName} | ${r.code} | ${s(r.ms)} | ${s(r.best)} | ${s(r.cpu)} | ${s(r.cpuBest)} | ${r.peakMiB.toFixed(0)} | ${r.baseMiB?.toFixed(0)} | ${r.diagnostics} | ${r.load} |`,
    )
}
if (validateRows.length) {
  console.log(
    '\n| spkg validate --format json | code | wall median s | wall best s | CPU median s | CPU best s | peak RSS MiB | diagnostics | valid | load avg |',
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|---|')
  for (const r of validateRows)
    console.log(
      `| ${r.caseName} | ${r.code} | ${s(r.ms)} | ${s(r.best)} | ${s(r.cpu)} | ${s(r.cpuBest)} | ${r.peakMiB.toFixed(0)} | ${r.diagnostics} | ${r.valid} | ${r.load} |`,
    )
}
