/**
 * One cold Node run of `pnpm bench reader-browser`: `child.mjs <case> <file> <warm>` reads the
 * package into memory, runs the case once (cold) and `warm` more times, and prints
 * `{ ms, warmMs }` (warmMs: median of the warm runs).
 */
import { readFileSync } from 'node:fs'
import { runCase } from './cases'

const [name, file, warm] = process.argv.slice(2)
const bytes = new Uint8Array(readFileSync(file!))
const ms = await runCase(bytes, name!)
const warmRuns: number[] = []
for (let i = 0; i < Number(warm ?? 0); i++) warmRuns.push(await runCase(bytes, name!))
warmRuns.sort((a, b) => a - b)
console.log(JSON.stringify({ ms, warmMs: warmRuns[Math.floor(warmRuns.length / 2)] ?? Number.NaN }))
