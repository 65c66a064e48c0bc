/**
 * The work of `unminify.ts` (loaded only when the command runs): opens the package, restores the
 * sources from the names map and writes the folder through a temporary sibling renamed at the end.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { openPackageFile } from '@spkg/reader/node'
import { MinifyError } from '@spkg/story'
import { type CommandContext, EXIT, type ExitCode, IOFailure, UsageError } from '../cli-types'
import { removeOnInterrupt, resolvePath } from '../io'
import { formatDiagnosticLine, useColor } from '../report'
import { readDecryptionKey, withCliAdvice } from '../validate/decryption-key'
import { unminifyPackageFiles } from './minify-files'

/** Runs `spkg unminify` (its options and help are in `unminify.ts`). */
export async function runUnminify({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const out = values.output
  if (typeof out !== 'string' || out === '') throw new UsageError('missing -o <folder>')
  const target = resolvePath(io, out)
  try {
    if ((await readdir(target)).length > 0) throw new IOFailure(`'${out}' exists and is not empty`)
  } catch (e) {
    if (e instanceof IOFailure) throw e
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOTDIR') throw new IOFailure(`'${out}' exists and is not a folder`)
    if (code !== 'ENOENT') throw new IOFailure(`cannot use '${out}': ${(e as Error).message}`)
  }
  const decryptionKey = await readDecryptionKey(io, values['decryption-key'])
  const file = positionals[0]!
  const opened = await openPackageFile(resolvePath(io, file), {
    hostNamespaces: [],
    ...(decryptionKey ? { decryptionKey } : {}),
  }).catch((e: Error) => {
    throw new IOFailure(`cannot read '${file}': ${e.message}`)
  })
  const color = useColor(io, 'stderr')
  if (!opened.ok) {
    for (const d of withCliAdvice(opened.diagnostics)) io.stderr.write(`${formatDiagnosticLine(d, color)}\n`)
    io.stderr.write(`spkg unminify: ${file} cannot be opened\n`)
    return EXIT.invalid
  }
  const pkg = opened.package
  let restored: Map<string, Uint8Array>
  try {
    const files = new Map<string, Uint8Array>()
    for (const e of pkg.entries) files.set(e.path, await pkg.readBytes(e.path))
    restored = unminifyPackageFiles(files)
  } catch (e) {
    if (!(e instanceof MinifyError)) throw e
    io.stderr.write(`spkg unminify: ${file}: ${e.message} (${e.code})\n`)
    return EXIT.invalid
  } finally {
    pkg.close()
  }
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
  const release = removeOnInterrupt(tmp)
  try {
    for (const [path, bytes] of restored) {
      const dest = join(tmp, path)
      await mkdir(dirname(dest), { recursive: true })
      await writeFile(dest, bytes, { flag: 'wx' })
    }
    await rm(target, { recursive: true, force: true })
    await rename(tmp, target)
  } catch (e) {
    await rm(tmp, { recursive: true, force: true })
    throw new IOFailure(`cannot write '${out}': ${(e as Error).message}`)
  } finally {
    release()
  }
  io.stderr.write(`spkg unminify: wrote ${out}: ${restored.size} files\n`)
  return EXIT.ok
}
