/**
 * The player's end-to-end harness: the real server, the way `pnpm start` runs it, and Debian's Chromium.
 *
 * - {@link startPlayer} spawns `apps/api/src/server.ts` exactly as `pnpm start` does (`node --conditions=@spkg/source
 *   --import tsx src/server.ts` in apps/api, `NODE_ENV=development`, the development identity provider on loopback),
 *   with its own temporary data folder (PGlite, files, uploads), the example stories seeded, and the built player
 *   (apps/player/dist, built first when missing or stale, copied into that folder so that a later rebuild does not
 *   change what this server serves). With `DATABASE_URL` set it runs on a fresh PostgreSQL
 *   database of that server instead (created here, dropped by `close()`). Resolves once the seed is published.
 * - {@link launchBrowser}: playwright-core on /usr/bin/chromium, headless. {@link noBrowser} is true when Chromium is
 *   missing and CI is not set (then tests may `describe.skipIf(noBrowser)`); with CI set a missing Chromium is an
 *   error, never a skip (tools/ci-skips.ts).
 * - {@link screenshot} keeps a PNG in apps/player/test/artifacts/ (gitignored) for people reading a failed run.
 *
 * @example
 * const player = await startPlayer()
 * const browser = await launchBrowser()
 * const page = await browser.newPage()
 * await page.goto(player.url)
 * await screenshot(page, 'home')
 * await browser.close()
 * await player.close()
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '@spkg/test-utils'
import { type Browser, chromium, type Page } from 'playwright-core'
import { ensurePlayerBuilt, newest, PLAYER_DIST, snapshotPlayer } from './build'

export { ensurePlayerBuilt, PLAYER_DIST }

const REPO = fileURLToPath(new URL('../../../../', import.meta.url))
const API_DIR = join(REPO, 'apps/api')
/** Where {@link screenshot} writes its PNGs. */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../artifacts/', import.meta.url))

/** Where Debian installs Chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium'
/** The flags every headless test browser runs with. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
]

/** `CI` is set (and not `false`/`0`): a missing tool fails instead of skipping (tools/ci-skips.ts). */
export const isCi = (env: NodeJS.ProcessEnv = process.env) =>
  env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0'

/** Chromium is missing and CI is not set: browser tests may skip themselves (`describe.skipIf(noBrowser)`). */
export const noBrowser = !existsSync(CHROMIUM_PATH) && !isCi()

/** The development identity provider's client for one role (client credentials grant). */
export interface DevClient {
  id: string
  secret: string
}

/** A running server with the player. */
export interface StartedPlayer {
  /** The player's address: `http://127.0.0.1:<port>/`. */
  url: string
  /** The API's address, no trailing slash: `http://127.0.0.1:<port>` (the player and the API share it). */
  apiBase: string
  /** The development identity provider's issuer (`http://127.0.0.1:<port>`), for sign-in tests. */
  issuer: string
  /** Its client-credentials clients by role (`reader`, `creator`, `moderator`, `administrator`). */
  devClients: Record<string, DevClient>
  /** An access token for `role` from the development provider (client credentials). */
  token(role: string): Promise<string>
  /** `postgres` when `DATABASE_URL` was set, else `pglite`. */
  database: 'postgres' | 'pglite'
  /** The slugs the seed published (from its log line). */
  seeded: string[]
  /** The server's stdout (pino JSON lines) and stderr so far. */
  output(): { stdout: string; stderr: string }
  /** Stops the server (SIGTERM, SIGKILL after 15 s), removes its data folder, drops its PostgreSQL database. */
  close(): Promise<void>
}

/** Options of {@link startPlayer}. */
export interface StartPlayerOptions {
  /** Variables set over the harness's environment (`RATE_LIMIT_MAX_FACTOR`, `SEED_EXAMPLES`, ...; not `LOG_LEVEL`). */
  env?: Record<string, string | undefined>
  /** The player folder the server serves (`PLAYER_DIR`). @default apps/player/dist, built when stale */
  playerDir?: string
  /** How long to wait for the server and its seed, ms (shared machines are slow). @default 120000 */
  readyTimeoutMs?: number
  /**
   * On PGlite, start from a copy of a database seeded once per change of its inputs (as a second `pnpm start`
   * finds its `.data` folder) instead of seeding a new one: initialising a PGlite folder costs seconds on an idle
   * machine and 15 s on a busy one. `false`: a new folder, seeded by this server. @default true
   */
  seedTemplate?: boolean
  /** Internal: run in this folder and keep it at `close()` (the seed template is made this way). */
  dataDir?: string
}

/** Runs a snippet with apps/api's own `postgres` module (the player does not depend on it). */
function runSql(databaseUrl: string, sql: string): Promise<void> {
  const code = `import postgres from 'postgres'
const sql = postgres(process.env.ADMIN_URL, { max: 1, onnotice: () => {} })
try { await sql.unsafe(process.env.SQL) } finally { await sql.end() }`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH, ADMIN_URL: databaseUrl, SQL: sql },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let err = ''
    child.stderr.on('data', (d) => {
      err += d
    })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${sql} failed: ${err}`))))
  })
}

const tail = (s: string, n = 3000) => (s.length > n ? `...${s.slice(-n)}` : s) || '(empty)'

/**
 * Starts the real server with the built player; see the module comment. Call `close()` in `afterAll`.
 *
 * @throws Error with the tail of the server's output when it exits or is not ready within `readyTimeoutMs`
 */
export async function startPlayer(options: StartPlayerOptions = {}): Promise<StartedPlayer> {
  const data = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'spkg-player-e2e-')))
  const removeData = () => (options.dataDir ? Promise.resolve() : rm(data, { recursive: true, force: true }))
  await mkdir(join(data, 'uploads'), { recursive: true })
  // A copy of its own: a rebuild while this server runs (another file, another person) leaves it alone.
  const playerDir =
    options.playerDir ?? (await snapshotPlayer(join(data, 'player'), await ensurePlayerBuilt()))
  const adminUrl = process.env.DATABASE_URL
  let templateSeeded: string[] | undefined
  if (!adminUrl && options.seedTemplate !== false && !options.dataDir && !options.env?.PGLITE_DIR) {
    const template = await ensureSeedTemplate()
    await cp(join(template.dir, 'pglite'), join(data, 'pglite'), { recursive: true })
    await cp(join(template.dir, 'files'), join(data, 'files'), { recursive: true })
    templateSeeded = template.seeded
  }
  let databaseUrl: string | undefined
  let dbName: string | undefined
  if (adminUrl) {
    dbName = `spkg_player_${randomBytes(6).toString('hex')}`
    await runSql(adminUrl, `create database ${dbName}`)
    const u = new URL(adminUrl)
    u.pathname = `/${dbName}`
    databaseUrl = u.toString()
  }
  const dropDb = async () => {
    if (adminUrl && dbName) await runSql(adminUrl, `drop database if exists ${dbName} with (force)`)
  }
  const port = await freePort()
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    PGLITE_DIR: join(data, 'pglite'),
    FILES_DIR: join(data, 'files'),
    UPLOAD_TMP_DIR: join(data, 'uploads'),
    PLAYER_DIR: playerDir,
    SEED_EXAMPLES: 'true',
    DATABASE_URL: databaseUrl,
    ...options.env,
    // Readiness is read from the "catalog at" info line.
    LOG_LEVEL: 'info',
  }
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=@spkg/source', '--import', 'tsx', 'src/server.ts'],
    { cwd: API_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  let running = true
  void exited.then(() => {
    running = false
  })
  const stop = async () => {
    if (running) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    }
  }
  const onExit = () => child.kill('SIGKILL')
  process.once('exit', onExit)

  try {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000)
    // Ready: the "catalog at" line comes after the listen and the seed (src/server.ts).
    while (!/"msg":"catalog at /.test(stdout)) {
      if (!running) throw new Error('exited before it was ready')
      if (Date.now() > deadline) throw new Error('was not ready in time')
      await new Promise((r) => setTimeout(r, 50))
    }
  } catch (err) {
    await stop()
    process.removeListener('exit', onExit)
    await removeData()
    await dropDb().catch(() => {})
    throw new Error(
      `the player server ${(err as Error).message}\n--- stdout ---\n${tail(stdout)}\n--- stderr ---\n${tail(stderr)}`,
    )
  }
  const issuer = /Development identity provider at (http:\/\/\S+?) /.exec(stderr)?.[1] ?? ''
  const devClients: Record<string, DevClient> = {}
  for (const m of stderr.matchAll(/^\s+(\w+)\s+curl -s -u ([^:\s]+):(\S+) /gm)) {
    if (m[1] && m[2] && m[3]) devClients[m[1]] = { id: m[2], secret: m[3] }
  }
  let seeded: string[] = templateSeeded ?? []
  for (const line of stdout.split('\n')) {
    if (!line.includes('seeded the catalog')) continue
    try {
      seeded = (JSON.parse(line) as { seeded?: string[] }).seeded ?? []
    } catch {}
  }
  const apiBase = `http://127.0.0.1:${port}`
  let closed = false
  return {
    url: `${apiBase}/`,
    apiBase,
    issuer,
    devClients,
    database: databaseUrl ? 'postgres' : 'pglite',
    seeded,
    async token(role) {
      const c = devClients[role]
      if (!c) throw new Error(`no development client for role ${role}`)
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${c.id}:${c.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          resource: 'urn:spkg:api',
          scope: 'api',
        }),
      })
      if (!res.ok) throw new Error(`token for ${role}: ${res.status} ${await res.text()}`)
      return ((await res.json()) as { access_token: string }).access_token
    },
    output: () => ({ stdout, stderr }),
    async close() {
      if (closed) return
      closed = true
      await stop()
      process.removeListener('exit', onExit)
      await removeData()
      await dropDb()
    },
  }
}

const TEMPLATE = join(REPO, 'apps/player/node_modules/.cache/spkg-player-seed')
const TEMPLATE_LOCK = `${TEMPLATE}.lock`

/**
 * Newest modification time of what the seeded database depends on: the examples, the migrations, and the API's
 * database, publishing (the seed itself) and storage code. Not every package the validation runs: a template
 * remade at each of their edits would cost more than it saves while people work on them.
 */
function seedInputsTime(): number {
  return Math.max(
    ...[
      'examples',
      'apps/api/drizzle',
      'apps/api/src/db',
      'apps/api/src/publishing',
      'apps/api/src/storage',
    ].map((p) => newest(join(REPO, p))),
  )
}

async function freshTemplate(): Promise<{ dir: string; seeded: string[] } | undefined> {
  try {
    const stamp = JSON.parse(await readFile(join(TEMPLATE, 'stamp.json'), 'utf8')) as {
      startedAt: number
      seeded: string[]
    }
    return stamp.startedAt >= seedInputsTime() ? { dir: TEMPLATE, seeded: stamp.seeded } : undefined
  } catch {
    return undefined
  }
}

/**
 * The seeded PGlite template (see `seedTemplate`): made by a real server start on a new folder (migrations, then
 * the seed), stopped cleanly, kept under apps/player/node_modules/.cache until examples, migrations or the code
 * that seeds change. One maker at a time across processes (a lock folder; older than 5 minutes: abandoned).
 */
export async function ensureSeedTemplate(): Promise<{ dir: string; seeded: string[] }> {
  for (;;) {
    const fresh = await freshTemplate()
    if (fresh) return fresh
    try {
      await mkdir(dirname(TEMPLATE_LOCK), { recursive: true })
      await mkdir(TEMPLATE_LOCK)
    } catch {
      const since = await stat(TEMPLATE_LOCK).then(
        (s) => s.mtimeMs,
        () => Date.now(),
      )
      if (Date.now() - since > 5 * 60_000) await rm(TEMPLATE_LOCK, { recursive: true, force: true })
      await new Promise((r) => setTimeout(r, 200))
      continue
    }
    try {
      const again = await freshTemplate()
      if (again) return again
      const startedAt = Date.now()
      const work = `${TEMPLATE}-work-${process.pid}`
      await rm(work, { recursive: true, force: true })
      await mkdir(work, { recursive: true })
      try {
        const server = await startPlayer({ dataDir: work, playerDir: join(work, 'no-player') })
        const seeded = server.seeded
        await server.close()
        if (seeded.length === 0) throw new Error(`the seed published nothing:\n${server.output().stdout}`)
        await rm(join(work, 'uploads'), { recursive: true, force: true })
        await writeFile(join(work, 'stamp.json'), JSON.stringify({ startedAt, seeded }))
        await rm(TEMPLATE, { recursive: true, force: true })
        await rename(work, TEMPLATE)
        return { dir: TEMPLATE, seeded }
      } finally {
        await rm(work, { recursive: true, force: true })
      }
    } finally {
      await rm(TEMPLATE_LOCK, { recursive: true, force: true })
    }
  }
}

/**
 * Launches Debian's Chromium headless. The caller closes it.
 *
 * @throws Error naming the path when Chromium is not installed (in CI that is a failure, not a skip)
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH} (apt-get install chromium)`)
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] })
}

/** Saves a full-page PNG of `page` as apps/player/test/artifacts/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true })
  const path = join(ARTIFACTS_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
