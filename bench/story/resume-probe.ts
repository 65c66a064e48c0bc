/**
 * Resume alone, for iterating on the replay: `node --conditions=@spkg/source --import tsx
 * bench/story/resume-probe.ts [sections] [choices] [rounds]`. Saves a state after `choices` random
 * choices on the generated story, then times `resumeStoryRun` plus draining the replayed events
 * (as `pnpm bench story` does) `rounds` times and prints min / median / mean (wall ms), with
 * `process.cpuUsage()` CPU time beside. The final figure for RESULTS.md comes from `pnpm bench story`.
 */
import { PerformanceObserver } from 'node:perf_hooks'
import { createStoryRun, resumeStoryRun, type StoryRun } from '@spkg/story'
import { generateSpkgStory, mulberry32, spkgBenchSource } from './generate'

const sections = Number(process.argv[2] ?? 2000)
const choices = Number(process.argv[3] ?? 5000)
const rounds = Number(process.argv[4] ?? 15)
const story = generateSpkgStory(sections)
const source = spkgBenchSource(story)

async function walk(run: StoryRun, pick: () => number, count: number) {
  let made = 0
  for (;;) {
    const ev = await run.next()
    if (ev === undefined || ev.type === 'end') throw new Error('the story ended')
    if (ev.type === 'pause') {
      if (made === count) return
      const n = Math.floor((pick() * ev.options.length) / 2 ** 32)
      run.choose({ option: ev.options[n]?.id ?? '' })
      made++
    }
  }
}

const run = createStoryRun(source, {})
await walk(run, mulberry32(3), choices)
const state = run.saveState()
let gcMs = 0
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration
}).observe({ entryTypes: ['gc'] })
const gcs: number[] = []
const wall: number[] = []
const cpu: number[] = []
const split: number[] = []
let events = 0
for (let i = 0; i < rounds + 1; i++) {
  await new Promise((r) => setTimeout(r, 0))
  const g0 = gcMs
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const { run: resumed } = await resumeStoryRun(source, state)
  split.push(performance.now() - t0)
  events = 0
  for (;;) {
    const ev = await resumed.next()
    events++
    if (ev === undefined || (ev.type === 'pause' && !ev.replay)) break
  }
  const t = performance.now() - t0
  const c = process.cpuUsage(c0)
  await new Promise((r) => setTimeout(r, 0))
  if (i === 0) continue
  gcs.push(gcMs - g0)
  wall.push(t)
  cpu.push((c.user + c.system) / 1000)
}
const stats = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y)
  const mean = a.reduce((x, y) => x + y, 0) / a.length
  return `min ${s[0]!.toFixed(1)} / median ${s[s.length >> 1]!.toFixed(1)} / mean ${mean.toFixed(1)}`
}
console.log(`resume of ${choices} choices (${events} events drained), ${rounds} rounds after a warm-up`)
console.log(`wall ms: ${stats(wall)}`)
console.log(`cpu ms:  ${stats(cpu)}`)
console.log(`gc ms (main thread pauses):  ${stats(gcs)}`)
console.log(`per round wall/gc: ${wall.map((w, i) => `${w.toFixed(0)}/${gcs[i]!.toFixed(0)}`).join(' ')}`)
console.log(`resumeStoryRun alone, wall ms: ${stats(split.slice(1))}`)
