/**
 * Key files on disk, shared by `spkg keygen` (signing keys, keygen-run.ts) and `spkg keygen
 * --encryption` (encrypt-run.ts): written atomically with their mode, never over an existing file
 * unless `--force`, and write failures worded for the command line. Leaf file.
 */
import { randomBytes } from 'node:crypto'
import { chmod, link, lstat, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { IOFailure } from '../cli-types'
import { removeOnInterrupt } from '../io'

/** Whether `path` exists (a dangling link counts). */
export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw e
  }
}

/**
 * Writes `data` to `target` through a temporary file with `mode`: `rename` replaces an existing
 * file (`--force`); `link` refuses one atomically (EEXIST), so two runs never clobber each other.
 */
export async function writeKeyFile(
  target: string,
  data: string,
  mode: number,
  force: boolean,
): Promise<void> {
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
  const release = removeOnInterrupt(tmp)
  try {
    await writeFile(tmp, data, { flag: 'wx', mode })
    await chmod(tmp, mode)
    if (force) await rename(tmp, target)
    else await link(tmp, target)
  } finally {
    await rm(tmp, { force: true }).catch(() => {})
    release()
  }
}

/** A failed write of the file the user named `shown`, as the command reports it. */
export function writeFailure(e: unknown, shown: string): IOFailure {
  const code = (e as NodeJS.ErrnoException)?.code
  if (code === 'EEXIST') return new IOFailure(`'${shown}' already exists; use --force to overwrite it`)
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new IOFailure(`cannot write '${shown}': no such directory`)
  if (code === 'EACCES' || code === 'EPERM')
    return new IOFailure(`cannot write '${shown}': permission denied`)
  return new IOFailure(`cannot write '${shown}': ${(e as Error)?.message ?? String(e)}`)
}
