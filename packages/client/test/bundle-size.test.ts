/**
 * What a browser player pays for the client: esbuild (`--bundle --minify --splitting`, browser) of an entry importing
 * `createClient`; the initial load (the entry and its static imports) stays small and holds no zod, whose schemas load
 * on the first typed call. Prints the figures (min and gzip level 9) for the README and reports.
 */
import { gzipSync } from 'node:zlib'
import * as esbuild from 'esbuild'
import { describe, expect, it } from 'vitest'

async function weigh(contents: string) {
  const r = await esbuild.build({
    stdin: { contents, resolveDir: import.meta.dirname, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    splitting: true,
    outdir: '/out',
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['@spkg/source'],
    metafile: true,
    logLevel: 'silent',
  })
  const outs = r.metafile.outputs
  const entry = Object.keys(outs).find((k) => outs[k]?.entryPoint) as string
  const initial = new Set([entry])
  for (const k of initial)
    for (const imp of outs[k]?.imports ?? []) if (imp.kind === 'import-statement') initial.add(imp.path)
  const sizes = { initialMin: 0, initialGzip: 0, allGzip: 0, initialInputs: [] as string[] }
  for (const f of r.outputFiles) {
    const key = Object.keys(outs).find((k) => f.path.endsWith(k.slice(k.lastIndexOf('/')))) as string
    const gz = gzipSync(f.contents, { level: 9 }).length
    sizes.allGzip += gz
    if (initial.has(key)) {
      sizes.initialMin += f.contents.length
      sizes.initialGzip += gz
      sizes.initialInputs.push(...Object.keys(outs[key]?.inputs ?? {}))
    }
  }
  return sizes
}

describe('browser bundle of @spkg/client', () => {
  it('createClient: initial load under 8 KB gzip, without zod', async () => {
    const s = await weigh("export { createClient, createCloudDriver } from '@spkg/client'")
    console.log(
      `createClient + createCloudDriver: initial ${(s.initialMin / 1024).toFixed(1)} KB min, ${(s.initialGzip / 1024).toFixed(1)} KB gzip; all files ${(s.allGzip / 1024).toFixed(1)} KB gzip`,
    )
    expect(s.initialGzip).toBeLessThan(8 * 1024)
    expect(s.initialInputs.filter((i) => i.includes('/zod/'))).toEqual([])
  }, 60_000)
})
