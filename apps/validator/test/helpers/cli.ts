/**
 * Test helper: runs `spkg` in-process with captured output, as a user would from a shell.
 */
import { main } from '../../src/cli'
import type { ExitCode } from '../../src/cli-types'

export interface CliRun {
  code: ExitCode
  stdout: string
  stderr: string
}

/** Runs `spkg <args>` with `cwd` as working directory and optional standard input. */
export async function runCli(
  args: string[],
  options: { cwd?: string; stdin?: string | Uint8Array; env?: Record<string, string>; tty?: boolean } = {},
): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const stdin = options.stdin
  const code = await main(args, {
    // Bytes (a package written to `-o -`) are kept one character per byte.
    stdout: {
      write: (s: string | Uint8Array) =>
        (stdout += typeof s === 'string' ? s : Buffer.from(s).toString('latin1')),
      isTTY: options.tty ?? false,
    },
    stderr: { write: (s: string) => (stderr += s), isTTY: options.tty ?? false },
    stdin:
      stdin === undefined
        ? undefined
        : (async function* () {
            yield typeof stdin === 'string' ? new TextEncoder().encode(stdin) : stdin
          })(),
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
  })
  return { code, stdout, stderr }
}

/** The JSON objects of a command's JSON-lines output (`spkg play --format json`), one per line. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}
