/**
 * The Chromium side of `pnpm bench reader-browser`: `loadBench(url)` fetches the package into
 * memory (as a player holds it after a fetch or a File read; not timed), then each
 * `runBench(case)` runs the case once and returns its wall time; the first call in a fresh page
 * is the cold run.
 */
import { runCase } from './cases'

let bytes: Uint8Array | undefined

async function loadBench(url: string): Promise<number> {
  bytes = new Uint8Array(await (await fetch(url)).arrayBuffer())
  return bytes.length
}

function runBench(name: string): Promise<number> {
  if (!bytes) throw new Error('loadBench first')
  return runCase(bytes, name)
}

Object.assign(globalThis, { loadBench, runBench })
