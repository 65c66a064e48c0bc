/**
 * `pnpm bench language-server [sections] [sections per part] [edits]`: the time from a keystroke
 * (`textDocument/didChange`) inside one part to the diagnostics the server publishes for it, on
 * the bench story split into parts (split-story.ts), driven over stdio as an editor drives it.
 * The server runs from its sources with no debounce (`debounceMs: 0`: what is timed is the work,
 * not the quiet time an editor waits) and the whole-folder check postponed, so each figure is the
 * keystroke's own path. Every other edit makes an error (an unknown variable), so the published
 * diagnostics change; the last ones are compared with a full `checkStory` of the folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { checkStory } from '@spkg/story'
import { spawnLsp } from './lsp-stdio.ts'
import { splitBenchStory } from './split-story.ts'

const [sections = 2000, partSize = 50, edits = 100] = process.argv.slice(2).map(Number)
const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = fileURLToPath(new URL('../../packages/language-server/src/node/bin.ts', import.meta.url))

const story = splitBenchStory(sections, partSize)
const dir = mkdtempSync(join(tmpdir(), 'spkg-bench-ls-'))
for (const [path, text] of Object.entries(story.files)) {
  mkdirSync(dirname(join(dir, path)), { recursive: true })
  writeFileSync(join(dir, path), text)
}
const edited = story.parts[Math.floor(story.parts.length / 2)]!
const base = story.files[edited]!
const lineCount = Object.values(story.files).reduce((n, t) => n + t.split('\n').length, 0)
console.log(
  `story: ${sections} sections in ${story.parts.length} parts (${lineCount} lines); editing ${edited} (${base.split('\n').length} lines)`,
)
console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`)

type Published = {
  uri: string
  version?: number
  diagnostics: Array<{ code: string; range: { start: { line: number } } }>
}
/** Starts the server from its sources and completes the handshake with these options. */
async function startServer(initializationOptions: object) {
  const server = spawnLsp(
    process.execPath,
    ['--conditions=@spkg/source', '--import', 'tsx', bin, '--stdio'],
    root,
  )
  await server.request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    capabilities: {},
    initializationOptions,
  })
  server.notify('initialized', {})
  server.on<{ message: string }>('window/logMessage', (p) => console.error(p.message))
  return server
}
const lsp = await startServer({ debounceMs: 0, fullCheckDelayMs: 3_600_000 })
const uri = pathToFileURL(join(dir, edited)).href
const published = (version: number) =>
  lsp.next<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri && p.version === version)

let t = performance.now()
let wait = published(1)
lsp.notify('textDocument/didOpen', {
  textDocument: { uri, languageId: 'spkg-story', version: 1, text: base },
})
const opened = await wait
console.log(
  `open (reads and indexes the folder): ${(opened.at - t).toFixed(1)} ms, ${opened.params.diagnostics.length} diagnostics`,
)

// A keystroke: one character more in a paragraph, and every other time an undeclared variable.
const textOf = (k: number) =>
  base.replace(/You are in room (\d+) with \$\{gold\}/, (_m, n) =>
    k % 2 === 0
      ? `You are in room ${n}${'!'.repeat(k % 7)} with \${gold}`
      : `You are in room ${n} with \${goldd}`,
  )
const times: number[] = []
const warmUp = 20
let last: Published | undefined
for (let k = 0; k < warmUp + edits; k++) {
  const version = k + 2
  wait = published(version)
  t = performance.now()
  lsp.notify('textDocument/didChange', {
    textDocument: { uri, version },
    contentChanges: [{ text: textOf(k) }],
  })
  const got = await wait
  if (k >= warmUp) times.push(got.at - t)
  last = got.params
}
await lsp.close()

// Requests and keystrokes while the whole folder is checked: a second server whose full check
// starts as soon as the edited part's diagnostics are out (fullCheckDelayMs: 0). Each round: a
// keystroke, its part's diagnostics, then at once a completion request and another keystroke;
// what is timed is how long they wait (the full check of the folder runs meanwhile).
const busy = await startServer({ debounceMs: 0, fullCheckDelayMs: 0 })
// The n-th diagnostics published for the edited part at `version` (the part's, then the folder's).
const counts = new Map<number, number>()
busy.on<Published>('textDocument/publishDiagnostics', (p) => {
  if (p.uri === uri && p.version !== undefined) counts.set(p.version, (counts.get(p.version) ?? 0) + 1)
})
const nth = (version: number, n: number) =>
  busy.next<Published>(
    'textDocument/publishDiagnostics',
    (p) => p.uri === uri && p.version === version && counts.get(version) === n,
  )
const opening = nth(1, 2)
busy.notify('textDocument/didOpen', {
  textDocument: { uri, languageId: 'spkg-story', version: 1, text: base },
})
await opening
// Inside `${gold}` (or `${goldd}`) of the edited paragraph: variable names are offered there.
const goldLine = base.split('\n').findIndex((l) => l.includes(`with \${gold}`))
const goldAt = (text: string) => ({
  line: goldLine,
  character: text.split('\n')[goldLine]!.indexOf('${gold') + 4,
})
const requestWaits: number[] = []
const keystrokeWaits: number[] = []
const fullChecks: number[] = []
const rounds = 12
for (let r = 0; r < rounds; r++) {
  const version = 2 + 2 * r
  const partDone = nth(version, 1)
  const t0 = performance.now()
  busy.notify('textDocument/didChange', {
    textDocument: { uri, version },
    contentChanges: [{ text: textOf(r) }],
  })
  await partDone
  const t1 = performance.now()
  const answered = busy.request('textDocument/completion', {
    textDocument: { uri },
    position: goldAt(textOf(r)),
  })
  const typed = nth(version + 1, 1)
  const fullDone = nth(version + 1, 2)
  busy.notify('textDocument/didChange', {
    textDocument: { uri, version: version + 1 },
    contentChanges: [{ text: textOf(r + 1) }],
  })
  const items = (await answered) as Array<{ label: string }>
  if (!items.some((i) => i.label === 'gold')) throw new Error('completion did not offer gold')
  requestWaits.push(performance.now() - t1)
  keystrokeWaits.push((await typed).at - t1)
  fullChecks.push((await fullDone).at - t0)
}
await busy.close()
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`
console.log(
  `during a whole-folder check (${rounds} rounds): completion answered in median ${median(requestWaits).toFixed(1)} ms (${spread(requestWaits)}); a keystroke's diagnostics in median ${median(keystrokeWaits).toFixed(1)} ms (${spread(keystrokeWaits)}); keystroke → every file checked ${median(fullChecks).toFixed(0)} ms (${spread(fullChecks)})`,
)

const sorted = [...times].sort((a, b) => a - b)
const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
console.log(
  `didChange → publishDiagnostics over ${edits} edits: median ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`,
)

// The same diagnostics as a full check of the folder, and what a full check costs.
const parts: Record<string, string> = {}
for (const p of story.parts) parts[p] = p === edited ? textOf(warmUp + edits - 1) : story.files[p]!
const full: number[] = []
let fullFound: ReturnType<typeof checkStory> = []
for (let i = 0; i < 3; i++) {
  t = performance.now()
  fullFound = checkStory({
    parts,
    order: story.parts,
    modules: { 'extensions/lib.xty': story.files['extensions/lib.xty']! },
  })
  full.push(performance.now() - t)
}
const expected = fullFound.filter((d) => d.path === edited).map((d) => `${d.line}:${d.code}`)
const got = last!.diagnostics.map((d) => `${d.range.start.line + 1}:${d.code}`)
const same = JSON.stringify(expected) === JSON.stringify(got)
console.log(`last published (${got.length}) equal to the full check's for the part: ${same ? 'yes' : 'NO'}`)
console.log(
  `full checkStory of the folder, in process (3 runs): ${full.map((f) => f.toFixed(0)).join(', ')} ms`,
)
console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`)
console.log('\n| Measure | Target | Current | Ratio |\n|---|---|---|---|')
console.log(
  `| a completion request sent as the whole-folder check starts: time to its answer (median of ${rounds}) | no stated target | ${median(requestWaits).toFixed(1)} ms (${spread(requestWaits)}) | — |`,
)
console.log(
  `| didChange → diagnostics, one part of ${sections} sections in ${story.parts.length} parts (median / p95 of ${edits}) | under 50 ms | ${q(0.5).toFixed(1)} / ${q(0.95).toFixed(1)} ms | ${(q(0.5) / 50).toFixed(2)}-${(q(0.95) / 50).toFixed(2)}× the target |`,
)
if (!same) process.exitCode = 1
