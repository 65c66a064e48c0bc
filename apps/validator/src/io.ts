/**
 * File input and output for commands: clear one-line failures, never a half-written file.
 */
import { randomBytes } from 'node:crypto'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { CliIO } from './cli-types'
import { IOFailure } from './cli-types'

/** Resolves a command-line path against the command's working directory. */
export function resolvePath(io: CliIO, p: string): string {
  return resolve(io.cwd, p)
}

function describe(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'EISDIR':
      return 'is a directory'
    case 'ENOTDIR':
      return 'a parent is not a directory'
    default:
      return (e as Error)?.message ?? String(e)
  }
}

/** Reads a file given on the command line (`-` reads standard input). */
export async function readInput(io: CliIO, p: string): Promise<Uint8Array> {
  if (p === '-') {
    if (!io.stdin) throw new IOFailure('standard input is not available')
    const chunks: Uint8Array[] = []
    for await (const c of io.stdin) chunks.push(typeof c === 'string' ? new TextEncoder().encode(c) : c)
    return Buffer.concat(chunks)
  }
  try {
    return new Uint8Array(await readFile(resolvePath(io, p)))
  } catch (e) {
    throw new IOFailure(`cannot read '${p}': ${describe(e)}`)
  }
}

/**
 * Writes a file atomically: the bytes go to a temporary file beside the target, which is then
 * renamed over it, so an interrupted write never leaves a truncated file behind.
 */
export async function writeOutputAtomic(io: CliIO, p: string, data: Uint8Array | string): Promise<void> {
  const target = resolvePath(io, p)
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(tmp, data, { flag: 'wx' })
    await rename(tmp, target)
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {})
    throw new IOFailure(`cannot write '${p}': ${describe(e)}`)
  }
}
