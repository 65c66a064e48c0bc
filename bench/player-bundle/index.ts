/**
 * `pnpm bench player-bundle`: what the web player (apps/player) costs a reader's first visit. The player is built
 * with its own Vite configuration (the PWA plugin included) into a temporary folder, with Vite's build manifest;
 * the first load is what the page asks for before it can show the catalog: `index.html`, the entry chunk and the
 * chunks it imports statically (transitively), their CSS, and `register-sw.js`. Chunks reached only through a
 * dynamic `import()` are counted apart (lazy), as is what the service worker precaches in the background after
 * that first load. Sizes: minified bytes as Vite emits them, and gzip at level 9 of each file (what a server
 * with compression sends); sizes do not depend on the machine's load.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'

const ROOT = join(import.meta.dirname, '../..')
const PLAYER = join(ROOT, 'apps/player')

/** One entry of Vite's build manifest (`.vite/manifest.json`). */
interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

interface Sizes {
  files: number
  min: number
  gzip: number
}

const sizeOf = (out: string, files: Iterable<string>): Sizes => {
  let min = 0
  let gz = 0
  let n = 0
  for (const f of files) {
    const bytes = readFileSync(join(out, f))
    min += bytes.length
    gz += gzipSync(bytes, { level: 9 }).length
    n++
  }
  return { files: n, min, gzip: gz }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

/** Builds the player into `out` with its own configuration and a build manifest. */
function buildPlayer(out: string): Promise<void> {
  const vitePkg = createRequire(join(PLAYER, 'package.json')).resolve('vite/package.json')
  const vite = join(dirname(vitePkg), 'bin', 'vite.js')
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [vite, 'build', '--outDir', out, '--emptyOutDir', '--manifest', '--logLevel', 'warn'],
      {
        cwd: PLAYER,
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    )
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited ${code}`))))
  })
}

/** The first load (entry, static imports, their CSS, the page and register-sw.js) and the rest. */
export function weighBuild(out: string): {
  firstLoad: Sizes
  firstJs: Sizes
  firstCss: Sizes
  lazyJs: Sizes
  allJs: Sizes
  precache: Sizes
} {
  const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >
  const entry = Object.entries(manifest).find(([, c]) => c.isEntry)
  if (!entry) throw new Error('no entry in the build manifest')
  const js = new Set<string>()
  const css = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (!chunk || js.has(chunk.file)) return
    js.add(chunk.file)
    for (const c of chunk.css ?? []) css.add(c)
    for (const i of chunk.imports ?? []) visit(i)
  }
  visit(entry[0])
  const everyJs = new Set(
    Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith('.js')),
  )
  const lazy = [...everyJs].filter((f) => !js.has(f))
  const sw = readFileSync(join(out, 'sw.js'), 'utf8')
  const precached = [...sw.matchAll(/\{url:"([^"]+)",revision:/g)].map((m) => m[1] as string)
  return {
    firstLoad: sizeOf(out, ['index.html', 'register-sw.js', ...js, ...css]),
    firstJs: sizeOf(out, js),
    firstCss: sizeOf(out, css),
    lazyJs: sizeOf(out, lazy),
    allJs: sizeOf(out, everyJs),
    precache: sizeOf(
      out,
      precached.filter((f) => statSync(join(out, f), { throwIfNoEntry: false })),
    ),
  }
}

const isMain = process.argv[1] === import.meta.filename
if (isMain) {
  const out = mkdtempSync(join(tmpdir(), 'spkg-player-bundle-'))
  try {
    await buildPlayer(out)
    const w = weighBuild(out)
    const line = (label: string, s: Sizes) => `| ${label} | ${s.files} | ${kb(s.min)} | ${kb(s.gzip)} |`
    console.log('| What | Files | Minified | gzip -9 |\n|---|---|---|---|')
    console.log(line('first load: page, register-sw.js, entry JS and its static imports, CSS', w.firstLoad))
    console.log(line('  of which JavaScript', w.firstJs))
    console.log(line('  of which CSS', w.firstCss))
    console.log(line('lazy JavaScript chunks (dynamic import)', w.lazyJs))
    console.log(line('every JavaScript file', w.allJs))
    console.log(line('service worker precache (background, after the first load)', w.precache))
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}
