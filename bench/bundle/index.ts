/**
 * `pnpm bench bundle`: the weight of a browser player built on `@spkg/reader` + `@spkg/story`.
 * `app/main.ts` (open a package, play, save, resume from a checked saved state) is built for
 * production twice, from the workspace sources (the `@spkg/source` condition, so no
 * `pnpm build` is needed): with Vite (its default minifier) and with esbuild
 * (`--bundle --minify --format=esm --platform=browser --splitting`). Prints minified and gzip
 * sizes and the share of zod in each (Vite: rendered module bytes before minifying; esbuild: the
 * metafile's minified bytes per input). Two sizes each: every emitted JavaScript file (what the
 * target counts), and the initial load alone (the entry and what it imports statically; the
 * lazy chunks, such as the reader's `.spkg.enc` decryption, which a player fetches only for an
 * encrypted package, are left out). `@noble/ed25519`, the Ed25519 fallback, is opt-in
 * (`@spkg/reader/ed25519-noble`) and this player does not ask for it.
 *
 * Then the Node cold start of `@spkg/manifest`: its entry bundled as `tsup` ships it (one ESM
 * file, `zod` left external), imported in a fresh process, then a first `parseManifest` of a
 * small loose manifest with one bad field (`direction`, so the validation path runs) and a first
 * `parseReadingState`; `RUNS` processes (default 21), the median
 * and the spread. With `BEFORE=<dir>` the two checkouts' processes alternate, one each in turn.
 *
 * `ROOT=<dir>` weighs another checkout instead (e.g. `git archive <commit>` unpacked, with this
 * checkout's node_modules linked in: see RESULTS.md), for before/after figures or while the
 * working tree is mid-change; `app/` is copied into it when missing.
 *
 * Target: at most 60 KB gzip with Vite, the same order with esbuild.
 */

import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build as esbuild } from 'esbuild'
import { esbuildWeight, viteWeight, type Weight } from './weigh.ts'

const here = process.env.ROOT ? join(resolve(process.env.ROOT), 'bench/bundle') : import.meta.dirname
const app = join(here, 'app')
if (!existsSync(app)) cpSync(join(import.meta.dirname, 'app'), app, { recursive: true })
const KB = 1024

const kb = (n: number) => `${(n / KB).toFixed(1)} KB`
const pct = (x: number) => `${Math.round(x * 100)}%`
const rows: Array<[string, Weight]> = [
  ['Vite (production)', await viteWeight(app)],
  ['esbuild --bundle --minify', await esbuildWeight(app)],
]
const commit = (() => {
  try {
    const head = readFileSync(join(here, '../../.git/HEAD'), 'utf8').trim()
    const ref = head.startsWith('ref: ') ? head.slice(5) : undefined
    return (ref ? readFileSync(join(here, '../../.git', ref), 'utf8') : head).trim().slice(0, 7)
  } catch {
    return process.env.ROOT ?? '?'
  }
})()
for (const [name, w] of rows)
  console.log(
    `${name}: ${kb(w.minified)} minified, ${kb(w.gzip)} gzip; initial load ${kb(w.initialMinified)} minified, ${kb(w.initialGzip)} gzip (${w.lazyChunks} lazy chunk(s) left out); zod ${pct(w.zodShare)} (${w.zodModules} modules)`,
  )
console.log(
  `\nload ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, commit ${commit}\n`,
)
console.log(
  '| Build | Minified | Gzip | Initial load, gzip | zod share | Target |\n|---|---|---|---|---|---|',
)
for (const [name, w] of rows)
  console.log(
    `| ${name} | ${kb(w.minified)} | ${kb(w.gzip)} | ${kb(w.initialGzip)} | ${pct(w.zodShare)} | ≤ 60 KB gzip |`,
  )

// Node cold start of @spkg/manifest.
const RUNS = Number(process.env.RUNS ?? 21)
const probe = `
const t0 = performance.now()
const m = await import(process.argv[2])
const t1 = performance.now()
m.parseManifest({ id: 'x', title: 'T', author: 'A', parts: ['story/0001-inn.sty'], tags: 'one', direction: 'up' })
const t2 = performance.now()
m.parseReadingState({ format: 1, id: 'x', variables: { a: 1 }, choices: {}, visitedChoiceGroups: [], rng: { algorithm: 'mulberry32', seed: 1, state: 2 }, visitedParts: [], renderedParagraph: 0 })
const t3 = performance.now()
console.log(JSON.stringify({ importMs: t1 - t0, parseMs: t2 - t1, stateMs: t3 - t2 }))
`
const scratch = mkdtempSync(join(tmpdir(), 'spkg-manifest-cold-'))
try {
  writeFileSync(join(scratch, 'probe.mjs'), probe)
  const roots: Array<[string, string]> = [['now', join(here, '../..')]]
  if (process.env.BEFORE) roots.unshift(['before', resolve(process.env.BEFORE)])
  const files = new Map<string, string>()
  for (const [name, root] of roots) {
    const out = join(root, 'packages/manifest', `.cold-${name}.mjs`)
    await esbuild({
      entryPoints: [join(root, 'packages/manifest/src/index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      external: ['zod', 'zod/*'],
      outfile: out,
      logLevel: 'silent',
    })
    files.set(name, out)
  }
  const samples = new Map<string, Array<{ importMs: number; parseMs: number; stateMs: number }>>()
  for (let i = 0; i < RUNS; i++)
    for (const [name] of roots) {
      const r = spawnSync(process.execPath, [join(scratch, 'probe.mjs'), files.get(name)!], {
        encoding: 'utf8',
      })
      if (r.status !== 0) throw new Error(r.stderr)
      samples.set(name, [...(samples.get(name) ?? []), JSON.parse(r.stdout)])
    }
  for (const out of files.values()) rmSync(out, { force: true })
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const spread = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    return `${s[Math.floor(s.length / 4)]!.toFixed(1)}-${s[Math.floor((s.length * 3) / 4)]!.toFixed(1)}`
  }
  console.log(
    `\n@spkg/manifest cold in Node (${RUNS} fresh processes each, alternating; load ${loadavg()[0]!.toFixed(2)})`,
  )
  console.log(
    '| Checkout | import (median, IQR) | first parseManifest | first parseReadingState |\n|---|---|---|---|',
  )
  for (const [name, xs] of samples)
    console.log(
      `| ${name} | ${med(xs.map((x) => x.importMs)).toFixed(1)} ms (${spread(xs.map((x) => x.importMs))}) | ${med(xs.map((x) => x.parseMs)).toFixed(1)} ms | ${med(xs.map((x) => x.stateMs)).toFixed(1)} ms |`,
    )
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
