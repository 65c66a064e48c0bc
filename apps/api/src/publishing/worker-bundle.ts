/**
 * The validation worker as one pre-bundled JavaScript file (esbuild, once per process, cached on disk by content).
 * Without it every worker thread registers tsx and compiles the validator, reader and story checker from their
 * TypeScript sources: a second copy of TypeScript tooling in each isolate, about 100 MiB of the API's peak RSS
 * during an upload (bench/api-upload). The bundle holds only what the worker runs (about 300 KB, Node built-ins
 * left as imports) and loads in tens of milliseconds.
 *
 * It is written under `apps/api/node_modules/.cache/spkg-api/` (`validate-worker-<sha256 of the text>.mjs`,
 * atomically: a temporary file renamed into place), rebuilt at each start from the current sources, so an edited
 * source never runs stale; bundles of other sources are removed once a week old. When esbuild or the folder is
 * unavailable the pool falls back to the tsx boot.
 *
 * The built API (`node dist/bin/server.mjs`, see build.ts) ships the worker already bundled next to the server
 * (`dist/bin/validate-worker.mjs`): that file is used as it is, and esbuild is not loaded at all.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ENTRY = new URL('./validate-worker.ts', import.meta.url)
const CACHE = new URL('../../node_modules/.cache/spkg-api/', import.meta.url)
/** The worker built with the API (build.ts): beside this module once it is bundled into dist/bin/server.mjs. */
const PREBUILT = new URL('./validate-worker.mjs', import.meta.url)

/** Bundled CommonJS code finds `require` through this, relative to the bundle's own file (build.ts uses it too). */
export const REQUIRE_BANNER =
  "import { createRequire as __spkgCreateRequire } from 'node:module'; const require = __spkgCreateRequire(import.meta.url);"

let bundled: Promise<URL | null> | undefined

/**
 * The bundled worker's file URL, built on first call and shared by every pool of the process; null when it could
 * not be built (the caller uses the tsx boot). `onError` hears why, once.
 */
export async function bundledWorker(onError?: (err: unknown) => void): Promise<URL | null> {
  const built = bundled ? await bundled : undefined
  // Removed meanwhile (a cache clean-up): build it again rather than fail to start a thread.
  if (built && !existsSync(built)) bundled = undefined
  bundled ??= (existsSync(PREBUILT) ? Promise.resolve(PREBUILT) : build()).catch((err: unknown) => {
    onError?.(err)
    return null
  })
  return bundled
}

/** Bundles of other sources (older builds) are removed after this long unused. */
const STALE_MS = 7 * 24 * 3600 * 1000

async function pruneStale(dir: string, keep: string): Promise<void> {
  const now = Date.now()
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name === keep || !name.startsWith('validate-worker-')) continue
    const s = await stat(`${dir}${name}`).catch(() => null)
    if (s && now - s.mtimeMs > STALE_MS) await rm(`${dir}${name}`, { force: true })
  }
}

async function build(): Promise<URL> {
  const esbuild = await import('esbuild')
  const result = await esbuild
    .build({
      entryPoints: [fileURLToPath(ENTRY)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // The workspace packages from their TypeScript sources, as the API itself runs them.
      conditions: ['@spkg/source'],
      write: false,
      logLevel: 'silent',
      legalComments: 'none',
      banner: { js: REQUIRE_BANNER },
    })
    // esbuild's service process is not needed once the file is built.
    .finally(() => esbuild.stop())
  const text = result.outputFiles?.[0]?.text
  if (!text) throw new Error('esbuild produced no output')
  const dir = fileURLToPath(CACHE)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const name = `validate-worker-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`
  const file = `${dir}${name}`
  const tmp = `${file}.${randomBytes(6).toString('hex')}.part`
  try {
    await writeFile(tmp, text, { mode: 0o600 })
    await rename(tmp, file)
  } catch (err) {
    await rm(tmp, { force: true })
    throw err
  }
  await pruneStale(dir, name)
  return pathToFileURL(file)
}
