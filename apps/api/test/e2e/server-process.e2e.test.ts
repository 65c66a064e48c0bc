/**
 * The server-process helper's failure paths: a server that exits before it listens, and one that is not ready in
 * time, give an error naming the process and carrying its output, and leave no process behind.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { ServerStartError, startServerProcess, stopAllServerProcesses } from '../helpers/server-process.ts'

afterAll(() => stopAllServerProcesses())

describe('startServerProcess', () => {
  it('reports a server that exits before it listens, with its exit code and captured stderr', async () => {
    const err = await startServerProcess({
      name: 'bad-config',
      env: { OIDC_ROLES_CLAIM: 'bad claim!' },
    }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(ServerStartError)
    const message = (err as Error).message
    expect(message).toContain('server process "bad-config" exited before it was ready (code 1')
    expect(message).toContain('Invalid configuration:')
    expect(message).toContain('OIDC_ROLES_CLAIM')
  }, 60_000)

  it('kills a server that is not ready within the timeout and says so', async () => {
    const err = await startServerProcess({
      name: 'never-ready',
      readyTimeoutMs: 1000,
      ready: () => false,
    }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(ServerStartError)
    const e = err as ServerStartError
    expect(e.message).toContain('server process "never-ready" was not ready within 1000 ms')
    expect(e.message).toContain('--- stdout (tail) ---')
    // Stopped before the error was thrown: the process has ended (by SIGTERM, or exit code 0 once listening).
    expect(e.exit.signal === 'SIGTERM' || e.exit.code === 0).toBe(true)
  }, 30_000)
})
