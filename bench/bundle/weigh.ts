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

/**
 * Sizes of the emitted chunks (file name -> code), all of them and the initial ones, and the
 * modules (chunk -> its input modules) that only lazy chunks hold.
 */
function weigh(chunks: Map<string, string>, initial: Set<string>, modules: Map<string, string[]>) {
  const all = [...chunks.values()].join('')
  const first = [...chunks].filter(([name]) => initial.has(name)).map(([, code]) => code)
  const eager = new Set([...initial].flatMap((c) => modules.get(c) ?? []))
  const lazyModules = [...modules]
    .filter(([c]) => !initial.has(c))
    .flatMap(([, ms]) => ms)
    .filter((m) => !eager.has(m))
  return {
    lazyModules,
    minified: Buffer.byteLength(all),
    gzip: gzip(all),
    initialMinified: Buffer.byteLength(first.join('')),
    initialGzip: gzip(first.join('')),
    lazyChunks: chunks.size - first.length,
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
    const chunks = new Map<string, string>()
    const staticImports = new Map<string, string[]>()
    const entries: string[] = []
    const modules = new Map<string, string[]>()
    let rendered = 0
    let zodRendered = 0
    let zodModules = 0
    for (const out of outputs)
      for (const chunk of out.output) {
        if (chunk.type !== 'chunk' || !chunk.code) continue
        chunks.set(chunk.fileName, chunk.code)
        staticImports.set(chunk.fileName, chunk.imports ?? [])
        if (chunk.isEntry) entries.push(chunk.fileName)
        modules.set(
          chunk.fileName,
          Object.entries(chunk.modules ?? {})
            .filter(([, m]) => m.renderedLength > 0)
            .map(([id]) => id),
        )
        for (const [id, m] of Object.entries(chunk.modules ?? {})) {
          rendered += m.renderedLength
          if (isZod(id) && m.renderedLength > 0) {
            zodRendered += m.renderedLength
            zodModules++
          }
        }
      }
    return {
      ...weigh(
        chunks,
        initialChunks(entries, (c) => staticImports.get(c) ?? []),
        modules,
      ),
      zodShare: rendered ? zodRendered / rendered : 0,
      zodModules,
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}

/** esbuild `--bundle --minify --splitting` of `app/main.ts`. */
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
  const chunks = new Map(
    result.outputFiles
      .filter((f) => f.path.endsWith('.js'))
      .map((f) => [relative(process.cwd(), f.path), f.text]),
  )
  const outputs = result.metafile.outputs
  // Each dynamic import() target is an entry point of its own to esbuild: the page loads main.ts.
  const main = relative(process.cwd(), join(app, 'main.ts'))
  const entries = Object.keys(outputs).filter((o) => outputs[o]!.entryPoint === main)
  const initial = initialChunks(entries, (c) =>
    (outputs[c]?.imports ?? []).filter((i) => i.kind === 'import-statement').map((i) => i.path),
  )
  let total = 0
  let zod = 0
  let zodModules = 0
  for (const out of Object.values(result.metafile.outputs))
    for (const [path, input] of Object.entries(out.inputs)) {
      total += input.bytesInOutput
      if (isZod(path) && input.bytesInOutput > 0) {
        zod += input.bytesInOutput
        zodModules++
      }
    }
  return {
    ...weigh(
      chunks,
      initial,
      new Map(
        Object.entries(outputs).map(([o, out]) => [
          o,
          Object.entries(out.inputs)
            .filter(([, i]) => i.bytesInOutput > 0)
            .map(([p]) => p),
        ]),
      ),
    ),
    zodShare: total ? zod / total : 0,
    zodModules,
  }
}
