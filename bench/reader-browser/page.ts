/**
 * The Chromium side of `pnpm bench reader-browser`: `loadBench(url)` fetches the package into
 * memory, and keeps the response's Blob for the peek of a File (as a player holds it after a fetch or a File read; not timed), then each
 * `runBench(case)` runs the case once and returns its wall time; the first call in a fresh page
 * is the cold run.
 */
import { FILE_CASE, FILE_CASE_BEFORE, runCase } from './cases'

let bytes: Uint8Array | undefined
let blob: Blob | undefined

/** `name`: the case this page will run; the peek of a File never reads the bytes whole. */
async function loadBench(url: string, name?: string): Promise<number> {
  blob = await (await fetch(url)).blob()
  bytes =
    name === FILE_CASE || name === FILE_CASE_BEFORE
      ? new Uint8Array(0)
      : new Uint8Array(await blob.arrayBuffer())
  return blob.size
}

function runBench(name: string): Promise<number> {
  if (!bytes) throw new Error('loadBench first')
  return runCase(bytes, name, blob)
}

Object.assign(globalThis, { loadBench, runBench })
