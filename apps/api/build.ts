/**
 * `pnpm --filter @spkg/api build`: the API as plain JavaScript, what production runs (`node dist/bin/server.mjs`,
 * the container image's command, `pnpm --filter @spkg/api serve`; `pnpm start` runs the sources through tsx, for
 * development). Three self-contained ESM files under
 * `dist/bin/`, bundled by esbuild from the TypeScript sources:
 *
 *   server.mjs            src/server.ts, the API process
 *   migrate-cli.mjs       src/db/migrate-cli.ts, `pnpm --filter @spkg/api migrate` without starting the server
 *   validate-worker.mjs   src/publishing/validate-worker.ts, the validation pool's thread (worker-bundle.ts
 *                         takes it when it sits next to the running server instead of bundling it at start-up)
 *
 * Why a build rather than tsx at run time (bench/api-upload): tsx keeps its module loader thread (a second V8
 * isolate), the transformed sources and their source maps in the API process for its whole life (about 215 MiB
 * resident at rest through tsx, 130-140 MiB built), and compiles every module at each start.
 *
 * The workspace packages (`@spkg/*`) are bundled from their sources (the `@spkg/source` condition), together with
 * the third-party code only they use; the API's own dependencies stay imports, resolved from
 * `apps/api/node_modules` at run time. No code splitting: a module that finds files relative to its own file
 * (`new URL('../../drizzle', import.meta.url)`, the player's build, the examples) sits one folder below the
 * package as in `src/<folder>/`, so `dist/bin/` keeps those paths right.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import { REQUIRE_BANNER } from './src/publishing/worker-bundle'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const pkg = JSON.parse(readFileSync(here('./package.json'), 'utf8')) as {
  dependencies: Record<string, string>
}
/** The API's own third-party dependencies, with their subpaths: left as imports. */
const external = Object.keys(pkg.dependencies)
  .filter((name) => !name.startsWith('@spkg/'))
  .flatMap((name) => [name, `${name}/*`])

// Written over the previous build rather than after removing it: a server already running from dist/ still finds
// its validation worker (the entry names are fixed, so nothing stale is left behind).
const out = here('./dist/')
const result = await esbuild.build({
  entryPoints: {
    'bin/server': here('./src/server.ts'),
    'bin/migrate-cli': here('./src/db/migrate-cli.ts'),
    'bin/validate-worker': here('./src/publishing/validate-worker.ts'),
  },
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@spkg/source'],
  external,
  legalComments: 'none',
  sourcemap: 'linked',
  banner: { js: REQUIRE_BANNER },
  metafile: true,
  logLevel: 'warning',
})
for (const [file, o] of Object.entries(result.metafile.outputs))
  if (file.endsWith('.mjs'))
    console.log(`${file.slice(file.indexOf('dist/'))}  ${(o.bytes / 1024).toFixed(0)} KiB`)
