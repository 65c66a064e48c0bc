/**
 * The Chromium side of `pnpm bench reader-browser`: `runBench(url, case, warm)` fetches the
 * package into memory first (as a player holds it after a fetch or a File read; not timed), then
 * runs the case once in this fresh page (cold) and `warm` more times.
 */
import { runCase } from './cases'

async function runBench(url: string, name: string, warm: number): Promise<{ ms: number; warmMs: number }> {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer())
  const ms = await runCase(bytes, name)
  const runs: number[] = []
  for (let i = 0; i < warm; i++) runs.push(await runCase(bytes, name))
  runs.sort((a, b) => a - b)
  return { ms, warmMs: runs[Math.floor(runs.length / 2)] ?? Number.NaN }
}

;(globalThis as { runBench?: typeof runBench }).runBench = runBench
