/**
 * The work of `validate.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg validate <file.spkg|folder>`: everything a reader checks, plus what an author wants to
 * know before publishing. A folder is validated as the package `spkg pack` would make of it.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Diagnostic } from '@spkg/manifest'
import type { CommandContext, ExitCode } from '../cli-types'
import { EXIT } from '../cli-types'
import { isRefusal, readPackageInput, resolvePath } from '../io'
import { packFolder } from '../pack/pack-folder'
import { createProgress } from '../pack/progress'
import {
  formatArchiveAnnotation,
  formatGithubAnnotation,
  jsonDiagnostic,
  parseFormat,
  writeJsonList,
  writeTextDiagnostics,
} from '../report'
import { readDecryptionKey } from '../validate/decryption-key'
import { readNamespaces, readTrustedKeys } from '../validate/trusted-keys'
import { type ValidationReport, validatePackageBytes } from '../validate/validate-package'

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** Runs `spkg validate` (its options and help are in `validate.ts`). */
export async function runValidate({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const format = parseFormat(values.format, ['text', 'json', 'github'] as const)
  const target = positionals[0]!
  const quiet = values.quiet === true
  const trustedKeys = await readTrustedKeys(io, values['trusted-key'])
  const hostNamespaces = readNamespaces(values['host-namespace'])
  const progress = createProgress(io, !quiet && format !== 'json')
  const abs = resolvePath(io, target)
  const folder = await isFolder(abs)
  let report: ValidationReport
  const refusedReport = (diagnostics: Diagnostic[]): ValidationReport => ({
    loads: false,
    valid: false,
    layout: null,
    type: null,
    entry: null,
    parts: [],
    manifest: null,
    diagnostics,
  })
  if (folder) {
    const packed = await packFolder(abs, target, { progress })
    if (packed.bytes) {
      progress.update('validating')
      report = await validatePackageBytes(packed.bytes, {
        trustedKeys,
        hostNamespaces,
        before: packed.diagnostics,
        built: true,
      })
    } else report = refusedReport(packed.diagnostics)
  } else {
    const bytes = await readPackageInput(io, target)
    progress.update(`validating ${target}`)
    const decryptionKey = await readDecryptionKey(io, values['decryption-key'])
    report = isRefusal(bytes)
      ? refusedReport([bytes.refused])
      : await validatePackageBytes(bytes, {
          trustedKeys,
          hostNamespaces,
          ...(decryptionKey ? { decryptionKey } : {}),
        })
  }
  progress.done()
  const shown: Diagnostic[] = quiet
    ? report.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'fatal')
    : report.diagnostics
  if (format === 'json') {
    // Every diagnostic carries `path` (null when it is about the archive as a whole).
    writeJsonList(io, report, 'diagnostics', shown, jsonDiagnostic)
  } else if (format === 'github') {
    const fileOf = (p: string | undefined) => (p ? join(target, p) : target)
    for (const d of shown)
      io.stdout.write(`${folder ? formatGithubAnnotation(d, fileOf) : formatArchiveAnnotation(d, target)}\n`)
  } else {
    const verdict = report.valid ? 'valid' : report.loads ? 'invalid (a reader still opens it)' : 'refused'
    writeTextDiagnostics(io, shown, `${target}: ${verdict}`)
  }
  return report.valid ? EXIT.ok : EXIT.invalid
}
