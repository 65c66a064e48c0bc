/**
 * Measures what the hand-written fast paths of @spkg/manifest (`src/fast/`) gain over the
 * compiled checks alone, cold: each sample is a fresh Node process that imports the package
 * (one ESM bundle, as tsup ships it) and parses once, the fast path on or off, the two variants
 * alternating. `RUNS` processes per variant and case (default 41); prints the medians, the
 * quartiles and the load. Run: `node --import tsx packages/manifest/scripts/measure-fast.ts`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'

const RUNS = Number(process.env.RUNS ?? 41)
const pkg = join(import.meta.dirname, '..')
const dir = mkdtempSync(join(tmpdir(), 'spkg-measure-fast-'))

const hex = (i: number) => i.toString(16).padStart(64, '0')
const parts = Array.from({ length: 250 }, (_, i) => `story/${String(i + 1).padStart(4, '0')}-part-${i}.sty`)
/** What `spkg pack` writes for a large package: bare part names, every file's digest. */
const big = {
  story_lang: '1.0',
  manifest: '1.0',
  id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14',
  title: 'The Crooked Inn',
  author: [{ name: 'Ann Author' }],
  language: 'en',
  parts,
  assets: Array.from({ length: 60 }, (_, i) => ({ file: `assets/${i}.webp` })),
  integrity: Object.fromEntries(
    [...parts, ...Array.from({ length: 250 }, (_, i) => `assets/${i}.webp`)].map((p, i) => [p, hex(i)]),
  ),
}
const small = {
  id: big.id,
  title: 'Inn',
  author: [{ name: 'Ann' }],
  language: 'en',
  parts: parts.slice(0, 5).map((file) => ({ file, name: 'x' })),
}
const state = (choices: number) => ({
  format: 1,
  id: big.id,
  variables: { gold: 3, name: 'Ann', bag: ['key', 'map'], stats: { str: 3 } },
  choices: Object.fromEntries(Array.from({ length: choices }, (_, i) => [`story/0001-a.sty:g${i}`, ['>x']])),
  visitedChoiceGroups: Array.from({ length: choices }, (_, i) => `story/0001-a.sty:g${i}`),
  rng: { algorithm: 'mulberry32', seed: 1, state: 2 },
  currentPart: 'story/0001-a.sty',
  visitedParts: [],
  renderedParagraph: 3,
})
const cases = {
  'parseManifestText, 250 parts + 500 digests': { fn: 'manifest', input: JSON.stringify(big) },
  'parseManifestText, 5 parts': { fn: 'manifest', input: JSON.stringify(small) },
  'parseReadingState, 75,000 choices': { fn: 'state', input: JSON.stringify(state(75_000)) },
  'parseReadingState, 20 choices': { fn: 'state', input: JSON.stringify(state(20)) },
}

await build({
  stdin: {
    contents: `export { parseManifestWith } from './src/parse-manifest'\nexport { parseReadingStateWith } from './src/reading-state'`,
    resolveDir: pkg,
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  outfile: join(dir, 'manifest.mjs'),
  logLevel: 'silent',
})
writeFileSync(
  join(dir, 'probe.mjs'),
  `import { readFileSync } from 'node:fs'
const [fn, file, fast] = process.argv.slice(2)
const text = readFileSync(file, 'utf8')
const t0 = performance.now()
const m = await import('./manifest.mjs')
const t1 = performance.now()
const r = fn === 'manifest'
  ? m.parseManifestWith(JSON.parse(text), {}, fast === '1', true)
  : m.parseReadingStateWith(JSON.parse(text), {}, fast === '1')
const t2 = performance.now()
if (r.diagnostics.some((d) => d.severity === 'error' || d.severity === 'fatal')) throw new Error(JSON.stringify(r.diagnostics))
console.log(JSON.stringify({ importMs: t1 - t0, parseMs: t2 - t1 }))
`,
)
const quartiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const q = (f: number) => s[Math.floor((s.length - 1) * f)]!.toFixed(2)
  return `${q(0.5)} ms (${q(0.25)}-${q(0.75)})`
}
console.log(
  `load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${RUNS} fresh processes per variant, alternating`,
)
console.log('| Case | fast path on | off |\n|---|---|---|')
try {
  for (const [name, c] of Object.entries(cases)) {
    const input = join(dir, `${c.fn}-${c.input.length}.json`)
    writeFileSync(input, c.input)
    const on: number[] = []
    const off: number[] = []
    for (let i = 0; i < RUNS; i++)
      for (const fast of i % 2 ? ['0', '1'] : ['1', '0']) {
        const r = spawnSync(process.execPath, [join(dir, 'probe.mjs'), c.fn, input, fast], {
          encoding: 'utf8',
        })
        if (r.status !== 0) throw new Error(r.stderr)
        ;(fast === '1' ? on : off).push(JSON.parse(r.stdout).parseMs)
      }
    console.log(`| ${name} | ${quartiles(on)} | ${quartiles(off)} |`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
console.log(
  `load after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
)
