/**
 * One cold Node run of `pnpm bench reader-browser`: `child.mjs <case> <file> <warm>` reads the
 * package into memory, runs the case once (cold) and `warm` more times, and prints
 * `{ ms, cpuMs, warmMs }`: wall time and process CPU time (user + system, every thread: JIT,
 * libuv pool) of the cold run, median wall time of the warm runs.
 */
import { openAsBlob, readFileSync } from 'node:fs'
import { runCase } from './cases'

const [name, file, warm] = process.argv.slice(2)
const bytes = new Uint8Array(readFileSync(file!))
const blob = await openAsBlob(file!)
const cpu0 = process.cpuUsage()
const ms = await runCase(bytes, name!, blob)
const cpu = process.cpuUsage(cpu0)
const warmRuns: number[] = []
for (let i = 0; i < Number(warm ?? 0); i++) warmRuns.push(await runCase(bytes, name!, blob))
warmRuns.sort((a, b) => a - b)
console.log(
  JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    warmMs: warmRuns[Math.floor(warmRuns.length / 2)] ?? Number.NaN,
  }),
)
