/**
 * `pnpm bench minify`: what `minifyStory` saves (issue 21): bytes of the story sources before and
 * after, raw and deflated (zlib level 6, as `spkg pack` stores text), on the repository's example and
 * on bench/story's generated story (2,000 sections by default), the time to minify, and a check that
 * a seeded random walk of 500 choices plays the same transcript on both (the figures mean nothing
 * otherwise).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createStoryRun, minifyStory, type StoryFile } from '@spkg/story'
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

async function transcript(files: readonly StoryFile[], choices: number): Promise<string> {
  const run = createStoryRun(
    {
      parts: files.filter((f) => f.path.endsWith('.sty')).map((f) => f.path),
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
    out.push(e.type === 'diagnostic' ? e.diagnostic.code : JSON.stringify(e))
    if (e.type === 'pause') {
      if (n++ >= choices || e.options.length === 0) break
      run.choose({ option: e.options[Math.floor((pick() * e.options.length) / 2 ** 32)]!.id })
    }
  }
  return out.join('\n')
}

async function measure(name: string, files: StoryFile[]): Promise<void> {
  const t = performance.now()
  const min = minifyStory(files)
  const ms = performance.now() - t
  const a = sizes(files)
  const b = sizes(min.files)
  const same = (await transcript(files, 500)) === (await transcript(min.files, 500))
  const pct = (x: number, y: number) => `${(100 * (1 - y / x)).toFixed(1)}%`
  console.log(
    `${name}: raw ${a.raw} -> ${b.raw} B (-${pct(a.raw, b.raw)}), deflated ${a.deflated} -> ${b.deflated} B (-${pct(a.deflated, b.deflated)}), ${Object.keys(min.names.variables).length} variables renamed, minify ${ms.toFixed(0)} ms, same transcript: ${same}`,
  )
  if (!same) process.exitCode = 1
}

const inn = join(import.meta.dirname, '../../examples/crooked-inn/story')
await measure(
  'examples/crooked-inn',
  readdirSync(inn)
    .sort()
    .map((f) => ({ path: `story/${f}`, text: readFileSync(join(inn, f), 'utf8') })),
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
