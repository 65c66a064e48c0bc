/**
 * `pnpm bench minify`: what `minifyStory` saves: bytes of the story sources before and
 * after, raw and deflated (zlib level 6, as `spkg pack` stores text), on every example of the
 * repository and on bench/story's generated story (2,000 sections by default), the time to minify,
 * and a check that a seeded random walk of 500 choices plays the same transcript on both, the
 * minified run's events told with the original names (the figures mean nothing otherwise).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, relative, sep } from 'node:path'
import {
  createStoryRun,
  minifyStory,
  type NamesMap,
  type StoryFile,
  translateEventNames,
  unminifyStory,
} from '@spkg/story'
import { deflateSync } from 'fflate'
import { generateSpkgStory, mulberry32 } from '../story/generate.ts'

const sections = Number(process.argv[2] ?? 2000)
const enc = new TextEncoder()

function sizes(files: readonly StoryFile[]): { raw: number; deflated: number } {
  let raw = 0
  let deflated = 0
  for (const f of files) {
    const b = enc.encode(f.text)
    raw += b.length
    deflated += deflateSync(b, { level: 6 }).length
  }
  return { raw, deflated }
}

async function transcript(
  files: readonly StoryFile[],
  choices: number,
  parts: readonly string[] | undefined,
  names?: NamesMap,
): Promise<string> {
  const run = createStoryRun(
    {
      parts: parts ?? files.filter((f) => f.path.endsWith('.sty')).map((f) => f.path),
      readPart: (p) => files.find((f) => f.path === p)?.text,
      modules: files.filter((f) => f.path.endsWith('.xty')).map((f) => ({ path: f.path, source: f.text })),
    },
    { seed: 1 },
  )
  const pick = mulberry32(7)
  const out: string[] = []
  let n = 0
  for (;;) {
    const e = await run.next()
    if (!e || e.type === 'end') break
    const told = names ? translateEventNames(e, names, 'original') : e
    out.push(told.type === 'diagnostic' ? told.diagnostic.code : JSON.stringify(told))
    if (e.type === 'pause') {
      if (n++ >= choices || e.options.length === 0) break
      run.choose({ option: e.options[Math.floor((pick() * e.options.length) / 2 ** 32)]!.id })
    }
  }
  return out.join('\n')
}

/** What one story saves; returns its sizes before and after. */
async function measure(name: string, files: StoryFile[], parts?: string[], keep: string[] = []) {
  const t = performance.now()
  const min = minifyStory(files, { keep })
  const ms = performance.now() - t
  const a = sizes(files)
  // The package carries the names map (META-PKG/names.json, as `spkg pack --minify` writes it) too.
  const b = sizes([...min.files, { path: 'META-PKG/names.json', text: `${JSON.stringify(min.names)}\n` }])
  const map = sizes([{ path: 'META-PKG/names.json', text: `${JSON.stringify(min.names)}\n` }])
  // Comments and whitespace removed, names kept: the minified sources with their names restored.
  const squeezed = sizes(unminifyStory(min.files, min.names))
  const same = (await transcript(files, 500, parts)) === (await transcript(min.files, 500, parts, min.names))
  const count = (r?: Record<string, string>) => Object.keys(r ?? {}).length
  console.log(
    `${name}: raw ${a.raw} -> ${b.raw} B (${pct(a.raw, b.raw)}), deflated ${a.deflated} -> ${b.deflated} B (${pct(a.deflated, b.deflated)}), renamed ${count(min.names.variables)} variables, ${count(min.names.functions)} functions, ${count(min.names.ids)} ids, names map ${map.raw} B / ${map.deflated} B deflated; without renaming ${squeezed.raw} B / ${squeezed.deflated} B deflated; minify ${ms.toFixed(0)} ms, same transcript: ${same}`,
  )
  if (!same) process.exitCode = 1
  return { a, b }
}

/** The change from `x` to `y`, signed: `-3.1%` smaller, `+9.2%` larger. */
const pct = (x: number, y: number) => `${y > x ? '+' : ''}${((100 * (y - x)) / x).toFixed(1)}%`

/** Every example story: its .sty and .xty files, parts in manifest order, session keys kept. */
function example(dir: string): { files: StoryFile[]; parts?: string[]; keep: string[] } {
  const files: StoryFile[] = []
  const walk = (at: string) => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      const p = join(at, e.name)
      if (e.isDirectory()) walk(p)
      else if (/\.(sty|xty)$/.test(e.name))
        files.push({ path: relative(dir, p).split(sep).join('/'), text: readFileSync(p, 'utf8') })
    }
  }
  walk(dir)
  files.sort((x, y) => (x.path < y.path ? -1 : 1))
  const json = (f: string) =>
    existsSync(join(dir, f)) ? JSON.parse(readFileSync(join(dir, f), 'utf8')) : undefined
  const parts = (
    json('manifest.json') as { parts?: Array<{ file: string } | string> } | undefined
  )?.parts?.map((p) => (typeof p === 'string' ? p : p.file))
  return { files, ...(parts ? { parts } : {}), keep: Object.keys(json('session.json') ?? {}) }
}

const root = join(import.meta.dirname, '../../examples')
const total = { a: { raw: 0, deflated: 0 }, b: { raw: 0, deflated: 0 } }
for (const d of readdirSync(root, { withFileTypes: true }).filter((x) => x.isDirectory())) {
  const { files, parts, keep } = example(join(root, d.name))
  const r = await measure(`examples/${d.name}`, files, parts, keep)
  for (const k of ['raw', 'deflated'] as const) {
    total.a[k] += r.a[k]
    total.b[k] += r.b[k]
  }
}
console.log(
  `all examples: raw ${total.a.raw} -> ${total.b.raw} B (${pct(total.a.raw, total.b.raw)}), deflated ${total.a.deflated} -> ${total.b.deflated} B (${pct(total.a.deflated, total.b.deflated)})`,
)
const bench = generateSpkgStory(sections)
await measure(`bench/story (${sections} sections)`, [
  { path: 'story/0001-rooms.sty', text: bench.part },
  { path: 'extensions/lib.xty', text: bench.module },
])
console.log(
  `load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
)
