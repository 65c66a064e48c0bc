/**
 * How `pnpm bench bundle` weighs a browser app: a Vite and an esbuild production build, every
 * emitted JavaScript file and the initial load apart (see the header of `index.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build as esbuild } from 'esbuild'
import { build as vite } from 'vite'

export interface Weight {
  /** Every emitted JavaScript file, concatenated (minified bytes, then gzip level 9). */
  minified: number
  gzip: number
  /** The entry chunk and the chunks it imports statically: what every player downloads. */
  initialMinified: number
  initialGzip: number
  /** Chunks loaded only through a dynamic `import()`. */
  lazyChunks: number
  /** The input modules (paths as the bundler names them) found only in those lazy chunks. */
  lazyModules: string[]
  /** Every input module with bytes in some chunk. */
  modules: string[]
  /** Fraction of the bundle that is zod (see the header for how each bundler measures it). */
  zodShare: number
  zodModules: number
}

const isZod = (id: string) =>
  /[\\/]node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?zod[\\/]/.test(id)

const gzip = (code: string) => gzipSync(Buffer.from(code), { level: 9 }).length

/** The chunks `entries` load before they run: themselves and their static imports, transitively. */
function initialChunks(entries: string[], imports: (chunk: string) => string[]): Set<string> {
  const seen = new Set<string>()
  const visit = (c: string) => {
    if (seen.has(c)) return
    seen.add(c)
    for (const i of imports(c)) visit(i)
  }
  for (const e of entries) visit(e)
  return seen
}

/** What a build emitted: each chunk's code, its static imports, and its input modules' bytes. */
interface Chunk {
  code: string
  imports: string[]
  /** Input module (as the bundler names it) -> its bytes in this chunk (Vite: rendered, before minifying). */
  modules: Map<string, number>
}

/** Sizes of the emitted chunks, all of them and those the `entries` load first; zod's share. */
function weigh(chunks: Map<string, Chunk>, entries: string[]): Weight {
  const initial = initialChunks(entries, (c) => chunks.get(c)?.imports ?? [])
  const all = [...chunks.values()].map((c) => c.code).join('')
  const first = [...chunks].filter(([name]) => initial.has(name)).map(([, c]) => c.code)
  const present = (c: Chunk) => [...c.modules].filter(([, n]) => n > 0)
  const eager = new Set([...initial].flatMap((name) => present(chunks.get(name)!).map(([m]) => m)))
  const lazyModules = [...chunks]
    .filter(([name]) => !initial.has(name))
    .flatMap(([, c]) => present(c).map(([m]) => m))
    .filter((m) => !eager.has(m))
  const sized = [...chunks.values()].flatMap(present)
  const total = sized.reduce((n, [, b]) => n + b, 0)
  const zod = sized.filter(([m]) => isZod(m))
  return {
    minified: Buffer.byteLength(all),
    gzip: gzip(all),
    initialMinified: Buffer.byteLength(first.join('')),
    initialGzip: gzip(first.join('')),
    lazyChunks: chunks.size - first.length,
    lazyModules,
    modules: [...new Set(sized.map(([m]) => m))],
    zodShare: total ? zod.reduce((n, [, b]) => n + b, 0) / total : 0,
    zodModules: zod.length,
  }
}

/** Vite production build of `app` (its index.html), with its default minifier. */
export async function viteWeight(app: string): Promise<Weight> {
  const outDir = mkdtempSync(join(tmpdir(), 'spkg-bundle-vite-'))
  try {
    const result = await vite({
      root: app,
      logLevel: 'silent',
      configFile: false,
      resolve: { conditions: ['@spkg/source', 'module', 'browser', 'production', 'default'] },
      build: { outDir, emptyOutDir: true, write: false, modulePreload: false, reportCompressedSize: false },
    })
    const outputs = (Array.isArray(result) ? result : [result]) as Array<{
      output: Array<{
        type: string
        fileName: string
        code?: string
        isEntry?: boolean
        imports?: string[]
        modules?: Record<string, { renderedLength: number }>
      }>
    }>
    const chunks = new Map<string, Chunk>()
    const entries: string[] = []
    for (const out of outputs)
      for (const chunk of out.output) {
        if (chunk.type !== 'chunk' || !chunk.code) continue
        if (chunk.isEntry) entries.push(chunk.fileName)
        chunks.set(chunk.fileName, {
          code: chunk.code,
          imports: chunk.imports ?? [],
          modules: new Map(Object.entries(chunk.modules ?? {}).map(([id, m]) => [id, m.renderedLength])),
        })
      }
    return weigh(chunks, entries)
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}

/** esbuild `--bundle --minify --splitting` of `app/main.ts` (bytes per module: the metafile's, minified). */
export async function esbuildWeight(app: string): Promise<Weight> {
  const outdir = join(tmpdir(), 'spkg-bundle-esbuild')
  const result = await esbuild({
    entryPoints: [join(app, 'main.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    conditions: ['@spkg/source'],
    write: false,
    metafile: true,
    logLevel: 'silent',
    outdir,
  })
  const code = new Map(result.outputFiles.map((f) => [relative(process.cwd(), f.path), f.text]))
  const chunks = new Map<string, Chunk>()
  for (const [name, out] of Object.entries(result.metafile.outputs)) {
    if (!name.endsWith('.js')) continue
    chunks.set(name, {
      code: code.get(name) ?? '',
      imports: out.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path),
      modules: new Map(Object.entries(out.inputs).map(([p, i]) => [p, i.bytesInOutput])),
    })
  }
  // Each dynamic import() target is an entry point of its own to esbuild: the page loads main.ts.
  const main = relative(process.cwd(), join(app, 'main.ts'))
  return weigh(
    chunks,
    Object.keys(result.metafile.outputs).filter((o) => result.metafile.outputs[o]!.entryPoint === main),
  )
}
