/**
 * `pnpm bench <name> [args]` runs `bench/<name>/index.ts`; `pnpm bench` lists the benchmarks.
 * Each benchmark prints its figures and a Markdown table to paste into BENCHMARKS.md.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const here = import.meta.dirname
const names = readdirSync(here).filter((n) => {
  try {
    return statSync(join(here, n, 'index.ts')).isFile()
  } catch {
    return false
  }
})
const [name, ...rest] = process.argv.slice(2)
if (!name || !names.includes(name)) {
  console.error(`usage: pnpm bench <name> [args]\nbenchmarks: ${names.join(', ') || '(none yet)'}`)
  process.exit(name ? 2 : 0)
}
process.argv = [process.argv[0]!, join(here, name, 'index.ts'), ...rest]
await import(pathToFileURL(join(here, name, 'index.ts')).href)
