/**
 * The shape of a `spkg` command. Each command lives in its own file under `commands/` and is
 * listed once in `commands/index.ts`; `cli.ts` does parsing, help and exit codes for all of them.
 */
import type { ParseArgsConfig } from 'node:util'

/** Exit codes of every command: 0 ok, 1 the input is invalid, 2 usage or I/O error. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIO {
  /** Text, and the bytes of an output file given as `-` or `/dev/stdout` (`spkg pack -o -`). */
  stdout: { write(chunk: string | Uint8Array): unknown; isTTY?: boolean }
  stderr: { write(chunk: string): unknown; isTTY?: boolean }
  /** Reads standard input when a command takes `-`; absent in tests that do not need it. */
  stdin?: AsyncIterable<Uint8Array | string>
  /** Working directory used to resolve relative paths. */
  cwd: string
  /** Environment (for NO_COLOR, FORCE_COLOR). */
  env: Record<string, string | undefined>
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & {
  /** Shown in `--help`. */
  description: string
  /** Placeholder for the value in `--help` (`<file>`). */
  valueName?: string
}

export interface CommandContext {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>
  positionals: string[]
  io: CliIO
}

export interface Command {
  /** Words that select the command: `['manifest', 'check']`. */
  path: readonly string[]
  summary: string
  /** Usage line after `spkg `, e.g. `manifest check <manifest.json> [--format text|json]`. */
  usage: string
  /** Longer help text printed under the usage line. */
  description?: string
  options?: Record<string, OptionSpec>
  /** How many positionals the command takes: [min, max]. */
  positionals?: readonly [number, number]
  examples?: readonly string[]
  run(ctx: CommandContext): Promise<ExitCode>
}

/** A usage mistake: printed with the command's usage line, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/**
 * An I/O failure (file not found, not readable, not writable): exit 2 with one clear line. `code`
 * is the diagnostic code of a package input that could not be read (`pkg/fetch-failed`,
 * `pkg/remote-changed`), which a `--format json` command prints as its result before exiting.
 */
export class IOFailure extends Error {
  override name = 'IOFailure'
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message)
  }
}
