/**
 * The work of `pack.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg pack <folder|repo-url> -o <file.spkg>`: an author's folder (or a repository) becomes a
 * deterministic, canonical package. Nothing is written when the result would be refused by a reader.
 */
import { hasErrors, hasFatal } from '@spkg/manifest'
import type { CommandContext, ExitCode } from '../cli-types'
import { EXIT, UsageError } from '../cli-types'
import { classifyInput, messageStream, resolvePath, writeOutputAtomic } from '../io'
import { packFolder } from '../pack/pack-folder'
import { packRepository } from '../pack/pack-repository'
import { createProgress } from '../pack/progress'
import { formatDiagnosticLine, summarize, useColor } from '../report'
import { readNamespaces } from '../validate/trusted-keys'
import { validatePackageBytes } from '../validate/validate-package'

/** Runs `spkg pack` (its options and help are in `pack.ts`). */
export async function runPack({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const out = values.output
  if (typeof out !== 'string' || out === '') throw new UsageError('missing -o <file.spkg>')
  const folder = positionals[0]!
  const quiet = values.quiet === true
  const hostNamespaces = readNamespaces(values['host-namespace'])
  // With the package on standard output, everything a person reads goes to standard error.
  const { toStdout, say } = messageStream(io, out, '<file.spkg>')
  const progress = createProgress(io, !quiet)
  const input = await classifyInput(io, folder)
  let packed =
    input.kind === 'repository'
      ? await packRepository(io, input.url, { progress, hostNamespaces })
      : await packFolder(resolvePath(io, folder), folder, {
          exclude: toStdout ? [] : [resolvePath(io, out)],
          progress,
        })
  if (values.minify === true && packed.bytes) {
    const { minifyPacked } = await import('./minify-pack')
    packed = minifyPacked(packed)
  }
  let diagnostics = packed.diagnostics
  if (packed.bytes) {
    progress.update('validating the package')
    // The folder's findings go first; the package's own (a manifest warning again) are not repeated.
    const report = await validatePackageBytes(packed.bytes, {
      built: true,
      before: packed.diagnostics,
      hostNamespaces,
      maxDiagnostics: Number.POSITIVE_INFINITY,
    })
    diagnostics = report.diagnostics
  }
  progress.done()
  const color = useColor(io, toStdout ? 'stderr' : 'stdout')
  for (const d of diagnostics) {
    if (quiet && d.severity !== 'error' && d.severity !== 'fatal') continue
    say.write(`${formatDiagnosticLine(d, color)}\n`)
  }
  if (!packed.bytes || hasFatal(diagnostics) || (hasErrors(diagnostics) && values['allow-errors'] !== true)) {
    say.write(`${folder}: ${summarize(diagnostics)}; nothing was written\n`)
    return EXIT.invalid
  }
  await writeOutputAtomic(io, out, packed.bytes)
  const stored = packed.entries.filter((e) => e.method === 0).length
  say.write(
    `wrote ${toStdout ? 'standard output' : out}: ${packed.entries.length} entries (${packed.entries.length - stored} deflated, ${stored} stored), ${packed.bytes.length} bytes; ${summarize(diagnostics)}\n`,
  )
  return EXIT.ok
}
