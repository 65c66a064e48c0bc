/**
 * `pnpm bench state`: save and load time of reading states through `@spkg/state`.
 * A typical state (40 variables, 300 decisions) and a big one (75,000 choices), each timed for
 * serialize (validate + JSON), parse (JSON + validate), a store round trip over the memory driver,
 * and an atomic file save (temp + fsync + rename) with the fs driver.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseReadingStateText, type ReadingState } from '@spkg/manifest'
import { createStateStore, serializeReadingState } from '@spkg/state'
import { createMemoryDriver } from '@spkg/state/drivers/memory'
import { createFsDriver } from '@spkg/state/node'

function makeState(decisions: number, variables: number): ReadingState {
  const choices: Record<string, string[]> = {}
  const visited: string[] = []
  for (let i = 0; i < decisions; i++) {
    const key = `story/${String(1 + (i % 12)).padStart(4, '0')}-part.sty:s${i}@1`
    choices[key] = [`option-${i % 3}`]
    visited.push(key)
  }
  const vars: Record<string, ReadingState['variables'][string]> = {}
  for (let i = 0; i < variables; i++) {
    vars[`var${i}`] =
      i % 4 === 0 ? `text ${i}` : i % 4 === 1 ? i * 1.5 : i % 4 === 2 ? i % 2 === 0 : [i, { n: i }]
  }
  return {
    format: 1,
    id: '7f9c2ba4-e88f-4e2b-9d6a-0c1d2e3f4a5b',
    version: '1.0.0',
    variables: vars,
    choices,
    visitedChoiceGroups: visited,
    rng: { algorithm: 'mulberry32', seed: 7, state: 123_456 },
    currentPart: 'story/0012-part.sty',
    visitedParts: Array.from({ length: 11 }, (_, i) => `story/${String(i + 1).padStart(4, '0')}-part.sty`),
    renderedParagraph: 4,
  }
}

async function time(label: string, runs: number, fn: () => unknown | Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(runs, 20); i++) await fn()
  const t0 = performance.now()
  for (let i = 0; i < runs; i++) await fn()
  const ms = (performance.now() - t0) / runs
  console.log(`${label.padEnd(44)} ${ms.toFixed(3)} ms`)
  return ms
}

const rows: string[] = []
const dir = await mkdtemp(join(tmpdir(), 'spkg-bench-state-'))
try {
  for (const [name, state, runs] of [
    ['typical (40 variables, 300 choices)', makeState(300, 40), 2000],
    ['big (75,000 choices)', makeState(75_000, 200), 20],
  ] as const) {
    const text = serializeReadingState(state)
    console.log(`${name}: ${(text.length / 1024).toFixed(1)} KiB of JSON`)
    const ser = await time('  serialize (validate + stringify)', runs, () => serializeReadingState(state))
    const par = await time('  parse (JSON.parse + validate)', runs, () => parseReadingStateText(text))
    const store = createStateStore(createMemoryDriver(), { storyId: state.id })
    const mem = await time('  store save + load, memory driver', runs, async () => {
      await store.save('s', state)
      await store.load('s')
    })
    const fsStore = createStateStore(createFsDriver({ dir }), { storyId: state.id })
    const fsRuns = Math.min(runs, 50)
    const fsSave = await time('  store save, fs driver (atomic, fsync)', fsRuns, () =>
      fsStore.save('s', state, { force: true }),
    )
    const fsLoad = await time('  store load, fs driver', fsRuns, () => fsStore.load('s'))
    rows.push(
      `| ${name} | ${(text.length / 1024).toFixed(1)} KiB | ${ser.toFixed(3)} | ${par.toFixed(3)} | ${mem.toFixed(3)} | ${fsSave.toFixed(3)} | ${fsLoad.toFixed(3)} |`,
    )
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}

console.log(`\nMachine: ${cpus()[0]?.model ?? 'unknown'} (${cpus().length} cores), Node ${process.version}`)
console.log('Command: pnpm bench state\n')
console.log(
  '| State | JSON | serialize (ms) | parse (ms) | save+load, memory (ms) | save, fs (ms) | load, fs (ms) |',
)
console.log('|---|---|---|---|---|---|---|')
for (const row of rows) console.log(row)
