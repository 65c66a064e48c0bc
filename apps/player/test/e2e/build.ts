/**
 * Builds the player (`vite build` in apps/player) when apps/player/dist is missing or older than its sources: the
 * player's own files and the sources of the workspace packages it bundles. One build at a time across processes (a
 * lock folder), so test files started together wait for the same build instead of racing on dist/.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { cp, mkdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const PLAYER = fileURLToPath(new URL('../../', import.meta.url))
const PACKAGES = fileURLToPath(new URL('../../../../packages/', import.meta.url))
/** The built player the server serves by default. */
export const PLAYER_DIST = join(PLAYER, 'dist')
const LOCK = join(PLAYER, 'node_modules', '.spkg-player-build.lock')

/** Newest modification time (ms) of the files under `path` (a file or a folder), skipping tests. */
export function newest(path: string): number {
  let st: ReturnType<typeof statSync>
  try {
    st = statSync(path)
  } catch {
    return 0
  }
  if (!st.isDirectory()) return st.mtimeMs
  let max = 0
  for (const e of readdirSync(path, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.endsWith('.test.ts')) continue
    max = Math.max(max, newest(join(path, e.name)))
  }
  return max
}

/** Newest modification time of everything that goes into the player's bundle. */
export function sourcesTime(): number {
  const own = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'].map((p) =>
    newest(join(PLAYER, p)),
  )
  const packages = existsSync(PACKAGES)
    ? readdirSync(PACKAGES)
        .filter((n) => n !== 'test-utils')
        .map((n) => newest(join(PACKAGES, n, 'src')))
    : []
  return Math.max(...own, ...packages)
}

/** Whether dist/index.html exists and is newer than every source. */
export function isBuildFresh(): boolean {
  const index = join(PLAYER_DIST, 'index.html')
  return existsSync(index) && statSync(index).mtimeMs >= sourcesTime()
}

function runViteBuild(outDir: string): Promise<void> {
  // vite's exports map hides bin/: resolve its package.json and take the bin from there.
  const vitePkg = createRequire(join(PLAYER, 'package.json')).resolve('vite/package.json')
  const vite = join(dirname(vitePkg), 'bin', 'vite.js')
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      {
        cwd: PLAYER,
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.stderr.on('data', (d) => {
      out += d
    })
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build of the player failed (exit ${code}):\n${out}`)),
    )
  })
}

/**
 * Builds into a folder of its own, then puts it in place of dist/ with two renames, so that a reader of dist/ (a
 * snapshot being copied) never sees a half-written build. index.html gets the build's START time as its
 * modification time: a source edited while the build ran makes the next check rebuild.
 */
async function buildAndSwap(): Promise<void> {
  const started = new Date()
  const work = join(PLAYER, 'node_modules', '.cache', `spkg-player-build-${process.pid}-${Date.now()}`)
  await mkdir(dirname(work), { recursive: true })
  try {
    await runViteBuild(work)
    await utimes(join(work, 'index.html'), started, started)
    const old = `${work}-old`
    await rename(PLAYER_DIST, old).catch(() => undefined)
    await rename(work, PLAYER_DIST)
    await rm(old, { recursive: true, force: true })
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/**
 * Copies the built player to `dest` for one server: later builds (another test file, another person's run) then
 * never change the files a running server serves. Checks that every asset index.html names is in the copy (a
 * build made in place, such as `vite build` by hand, may be half-written): else waits and copies again.
 *
 * @throws Error when no complete copy could be made within about 30 s
 */
export async function snapshotPlayer(dest: string, from: string = PLAYER_DIST): Promise<string> {
  for (let attempt = 0; attempt < 60; attempt++) {
    await rm(dest, { recursive: true, force: true })
    try {
      await cp(from, dest, { recursive: true })
      const html = await readFile(join(dest, 'index.html'), 'utf8')
      const refs = [...html.matchAll(/(?:src|href)="\/([^"#?]+)"/g)].map((m) => m[1] as string)
      if (refs.every((r) => existsSync(join(dest, r)))) return dest
    } catch {
      // dist/ is being replaced: try again.
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no complete copy of the built player could be made from ${from}`)
}

/**
 * Builds the player unless dist/ is fresh; resolves to the dist folder. Waits for a build another process runs
 * (a lock older than 5 minutes is taken as abandoned).
 */
export async function ensurePlayerBuilt(): Promise<string> {
  for (;;) {
    if (isBuildFresh()) return PLAYER_DIST
    try {
      await mkdir(join(PLAYER, 'node_modules'), { recursive: true })
      await mkdir(LOCK)
    } catch {
      const age =
        Date.now() -
        (await stat(LOCK).then(
          (s) => s.mtimeMs,
          () => Date.now(),
        ))
      if (age > 5 * 60_000) await rm(LOCK, { recursive: true, force: true })
      await new Promise((r) => setTimeout(r, 200))
      continue
    }
    try {
      if (!isBuildFresh()) await buildAndSwap()
      return PLAYER_DIST
    } finally {
      await rm(LOCK, { recursive: true, force: true })
    }
  }
}
