/**
 * The real API server (`src/server.ts`) as a child process, for end-to-end tests.
 *
 * - Environment: only what the caller passes over a small base (`PATH`, `NODE_ENV=test`, `HOST=127.0.0.1`,
 *   `LOG_LEVEL=info`, `PGLITE_DIR=memory://`, a free `PORT`); nothing leaks in from the test's own environment, so
 *   a test never talks to a `DATABASE_URL` or `REDIS_URL` it did not choose.
 * - Port: a free loopback port is chosen before the spawn (so the default `PUBLIC_URL` is right); if another process
 *   takes it first, the start is retried on a new port.
 * - Readiness: pino's `Server listening at` line on stdout (plus the caller's own condition), within a timeout;
 *   on failure the error names the process and carries the tail of its stdout and stderr, and the child is killed.
 * - Stopping: `stop()` sends SIGTERM and awaits the exit (SIGKILL if it takes longer than `timeoutMs`).
 *   {@link stopAllServerProcesses} stops every process still running; call it in `afterAll` (it is also the
 *   `exit` handler of the test worker, with SIGKILL, so a crashed test file leaves no server behind).
 *
 * @example
 * const api = await startServerProcess({ name: 'api', env: { OIDC_ISSUER: idp.issuer } })
 * await fetch(`${api.base}/api/health`)
 * afterAll(() => stopAllServerProcesses())
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { freePort } from '@spkg/test-utils'

const API_DIR = fileURLToPath(new URL('../..', import.meta.url))

/** Options of {@link startServerProcess}. */
export interface ServerProcessOptions {
  /** Name used in failure messages. @default 'api' */
  name?: string
  /** Variables set over the base environment (`PORT` here disables the free-port choice). */
  env?: Record<string, string | undefined>
  /** How long to wait for readiness, ms (the machine may be shared and busy). @default 120000 */
  readyTimeoutMs?: number
  /** An extra readiness condition checked on the output collected so far (e.g. the dev provider's token lines). */
  ready?: (output: { stdout: string; stderr: string }) => boolean
  /**
   * A command (`['cat']`) whose stdin is the server's stdout, as in `pnpm start | tee api.log`: the helper reads the
   * command's output, and killing it (`stdoutReader`) leaves the server writing into a pipe nobody reads.
   */
  stdoutThrough?: readonly [string, ...string[]]
}

/** How a server process ended. */
export interface ServerExit {
  code: number | null
  signal: NodeJS.Signals | null
}

/** A started server process. */
export interface ServerProcess {
  name: string
  child: ChildProcess
  /** The `stdoutThrough` process reading the server's stdout, when there is one. */
  stdoutReader?: ChildProcess
  /** `http://127.0.0.1:<port>` as the server logged it. */
  base: string
  port: number
  stdout(): string
  stderr(): string
  /** The JSON log lines on stdout, parsed (other lines skipped). */
  logs(): Array<Record<string, unknown>>
  /** Resolves when the process exits (never rejects). */
  exited: Promise<ServerExit>
  /** SIGTERM, then waits for the exit; SIGKILL after `timeoutMs` (default 15000). Idempotent. */
  stop(options?: { timeoutMs?: number }): Promise<ServerExit>
}

const running = new Set<ServerProcess>()
let exitHookInstalled = false

/** A loopback port that was free a moment ago (the one helper, in @spkg/test-utils). */
export { freePort }

/** Probes every `intervalMs` until `probe` returns a value; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 15_000, intervalMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

/** The last `n` characters of a captured stream, for failure messages. */
const tail = (s: string, n = 3000) => (s.length > n ? `...${s.slice(-n)}` : s) || '(empty)'

/** Thrown when a server process did not become ready; the message carries its captured output. */
export class ServerStartError extends Error {
  constructor(
    readonly processName: string,
    reason: string,
    readonly stdout: string,
    readonly stderr: string,
    /** How the process ended (it always has by the time this is thrown). */
    readonly exit: ServerExit,
  ) {
    super(
      `server process "${processName}" ${reason}\n--- stdout (tail) ---\n${tail(stdout)}\n--- stderr (tail) ---\n${tail(stderr)}`,
    )
    this.name = 'ServerStartError'
  }
}

/**
 * Spawns `node --conditions=@spkg/source --import tsx src/server.ts` and resolves once it listens.
 *
 * @throws ServerStartError when it exits first or is not ready within `readyTimeoutMs` (the child is killed)
 */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const fixedPort = options.env?.PORT !== undefined
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, fixedPort ? Number(options.env?.PORT) : await freePort())
    } catch (err) {
      // The chosen port was taken between the check and the server's listen: try another one.
      const retry =
        !fixedPort &&
        attempt < 3 &&
        err instanceof ServerStartError &&
        /EADDRINUSE/.test(err.stdout + err.stderr)
      if (!retry) throw err
    }
  }
}

async function startOnce(options: ServerProcessOptions, port: number): Promise<ServerProcess> {
  const name = options.name ?? 'api'
  const timeoutMs = options.readyTimeoutMs ?? 120_000
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info', // the 'Server listening at' line is info
    PGLITE_DIR: 'memory://',
  }
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v
  env.PORT = options.env?.PORT ?? String(port) // a caller's own PORT is passed as written (even a bad one)

  const [command, ...args] = options.stdoutThrough ?? []
  const reader = command
    ? spawn(command, args, { env: { PATH: env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'ignore'] })
    : undefined
  const child = spawn(process.execPath, ['--conditions=@spkg/source', '--import', 'tsx', 'src/server.ts'], {
    cwd: API_DIR,
    env,
    stdio: ['ignore', reader?.stdin ?? 'pipe', 'pipe'],
  })
  // The reader's stdin is the server's now: this process keeps no end of that pipe open.
  reader?.stdin?.destroy()
  let stdout = ''
  let stderr = ''
  ;(reader ?? child).stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
  })
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d
  })
  const exited = new Promise<ServerExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
    child.once('error', () => resolve({ code: null, signal: null })) // spawn failure: no 'exit' follows
  })

  let stopping: Promise<ServerExit> | undefined
  const server: ServerProcess = {
    name,
    child,
    ...(reader && { stdoutReader: reader }),
    base: `http://127.0.0.1:${port}`,
    port,
    stdout: () => stdout,
    stderr: () => stderr,
    logs: () =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>]
          } catch {
            return []
          }
        }),
    exited,
    stop: ({ timeoutMs: stopMs = 15_000 } = {}) => {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM')
          const timer = setTimeout(() => child.kill('SIGKILL'), stopMs)
          try {
            await exited
          } finally {
            clearTimeout(timer)
          }
        }
        reader?.kill('SIGKILL')
        running.delete(server)
        return exited
      })()
      return stopping
    },
  }
  running.add(server)
  installExitHook()

  const listening = /"msg":"Server listening at (http:\/\/[^"]+)"/
  const outcome = await new Promise<{ base: string } | { reason: string }>((resolve) => {
    const poll = setInterval(() => {
      const m = listening.exec(stdout)
      if (m?.[1] && (options.ready?.({ stdout, stderr }) ?? true)) finish({ base: m[1] })
    }, 25)
    const timer = setTimeout(() => finish({ reason: `was not ready within ${timeoutMs} ms` }), timeoutMs)
    exited.then((e) =>
      finish({ reason: `exited before it was ready (code ${e.code}, signal ${e.signal ?? 'none'})` }),
    )
    function finish(result: { base: string } | { reason: string }) {
      clearInterval(poll)
      clearTimeout(timer)
      resolve(result)
    }
  })
  if ('reason' in outcome) {
    const exit = await server.stop({ timeoutMs: 2000 })
    throw new ServerStartError(name, outcome.reason, stdout, stderr, exit)
  }
  server.base = outcome.base
  return server
}

/** Stops every server process this worker started and has not stopped yet (SIGTERM, then SIGKILL). */
export async function stopAllServerProcesses(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()))
}

function installExitHook() {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const s of running) {
      if (s.child.exitCode === null) s.child.kill('SIGKILL')
      s.stdoutReader?.kill('SIGKILL')
    }
  })
}
