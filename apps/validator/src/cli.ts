/**
 * `spkg` argument handling: selects a command by its words, parses its options with
 * `node:util` parseArgs, prints help and maps failures to the exit codes 0, 1 and 2.
 */
import { parseArgs } from 'node:util'
import { type CliIO, type Command, EXIT, type ExitCode, IOFailure, UsageError } from './cli-types'
import { COMMANDS } from './commands'
import { VERSION } from './version'

const GLOBAL_HELP_FOOTER = `
Exit codes: 0 ok (warnings allowed), 1 the input is invalid, 2 usage or I/O error.
Run 'spkg <command> --help' for a command's options.`

function formatOptions(cmd: Command): string {
  const rows: [string, string][] = []
  for (const [name, spec] of Object.entries(cmd.options ?? {})) {
    const short = spec.short ? `-${spec.short}, ` : '    '
    const value = spec.type === 'string' ? ` ${spec.valueName ?? '<value>'}` : ''
    rows.push([
      `${short}--${name}${value}`,
      spec.description + (spec.default !== undefined ? ` (default: ${String(spec.default)})` : ''),
    ])
  }
  rows.push(['-h, --help', 'show this help'])
  const width = Math.max(...rows.map(([l]) => l.length))
  return rows.map(([l, r]) => `  ${l.padEnd(width)}  ${r}`).join('\n')
}

/** The `--help` text of one command. */
export function commandHelp(cmd: Command): string {
  let text = `Usage: spkg ${cmd.usage}\n\n${cmd.summary}\n`
  if (cmd.description) text += `\n${cmd.description.trim()}\n`
  text += `\nOptions:\n${formatOptions(cmd)}\n`
  if (cmd.examples?.length) text += `\nExamples:\n${cmd.examples.map((e) => `  ${e}`).join('\n')}\n`
  return text
}

/** The top-level `--help` text. */
export function globalHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.path.join(' ').length))
  const list = COMMANDS.map((c) => `  ${c.path.join(' ').padEnd(width)}  ${c.summary}`).join('\n')
  return `spkg ${VERSION}: validate, pack, sign, verify, inspect and play story packages (.spkg)

Usage: spkg <command> [options]

Commands:
${list}

Global options:
  -h, --help     show help
  -V, --version  print the version
${GLOBAL_HELP_FOOTER}
`
}

function findCommand(args: readonly string[]): { cmd: Command; rest: string[] } | undefined {
  let best: Command | undefined
  for (const cmd of COMMANDS) {
    if (cmd.path.every((w, i) => args[i] === w) && (!best || cmd.path.length > best.path.length)) best = cmd
  }
  return best ? { cmd: best, rest: args.slice(best.path.length) } : undefined
}

function groupHelp(word: string): string | undefined {
  const group = COMMANDS.filter((c) => c.path[0] === word && c.path.length > 1)
  if (group.length === 0) return undefined
  const width = Math.max(...group.map((c) => c.path.join(' ').length))
  return `Usage: spkg ${word} <command> [options]\n\nCommands:\n${group
    .map((c) => `  ${c.path.join(' ').padEnd(width)}  ${c.summary}`)
    .join('\n')}\n`
}

/** Runs `spkg` with `argv` (without the node and script words) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIO): Promise<ExitCode> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    const target = argv[0] === 'help' && argv.length > 1 ? findCommand(argv.slice(1)) : undefined
    io.stdout.write(target ? commandHelp(target.cmd) : globalHelp())
    return argv.length === 0 ? EXIT.usage : EXIT.ok
  }
  if (argv[0] === '--version' || argv[0] === '-V') {
    io.stdout.write(`${VERSION}\n`)
    return EXIT.ok
  }
  const found = findCommand(argv)
  if (!found) {
    const group = argv[0] ? groupHelp(argv[0]) : undefined
    if (group && (argv.length === 1 || argv[1] === '--help' || argv[1] === '-h')) {
      io.stdout.write(group)
      return argv.length === 1 ? EXIT.usage : EXIT.ok
    }
    io.stderr.write(
      `spkg: unknown command '${argv.slice(0, group ? 2 : 1).join(' ')}'\n${group ?? ''}Run 'spkg --help' for the list of commands.\n`,
    )
    return EXIT.usage
  }
  const { cmd, rest } = found
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(commandHelp(cmd))
    return EXIT.ok
  }
  try {
    const options: Record<
      string,
      Omit<NonNullable<Command['options']>[string], 'description' | 'valueName'>
    > = {}
    for (const [name, { description: _d, valueName: _v, ...spec }] of Object.entries(cmd.options ?? {}))
      options[name] = spec
    let parsed: ReturnType<typeof parseArgs>
    try {
      parsed = parseArgs({ args: [...rest], options, allowPositionals: true, strict: true })
    } catch (e) {
      throw new UsageError((e as Error).message)
    }
    const [min, max] = cmd.positionals ?? [0, 0]
    if (parsed.positionals.length < min)
      throw new UsageError(`missing argument: expected ${min === max ? min : `at least ${min}`}`)
    if (parsed.positionals.length > max)
      throw new UsageError(`unexpected argument '${parsed.positionals[max]}'`)
    return await cmd.run({ values: parsed.values, positionals: parsed.positionals, io })
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(
        `spkg ${cmd.path.join(' ')}: ${e.message}\nUsage: spkg ${cmd.usage}\nRun 'spkg ${cmd.path.join(' ')} --help' for details.\n`,
      )
      return EXIT.usage
    }
    if (e instanceof IOFailure) {
      io.stderr.write(`spkg ${cmd.path.join(' ')}: ${e.message}\n`)
      return EXIT.usage
    }
    io.stderr.write(`spkg ${cmd.path.join(' ')}: internal error: ${(e as Error)?.message ?? String(e)}\n`)
    return EXIT.usage
  }
}
