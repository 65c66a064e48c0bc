/**
 * The work of `validate.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg validate <file.spkg|folder|repository URL>`: everything a reader checks, plus what an author
 * wants to know before publishing. A folder is validated as the package `spkg pack` would make of
 * it; a repository as the platform imports it (its root is the package root, paths are
 * repository-relative).
 */
import { stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { countBySeverity, type Diagnostic } from '@spkg/manifest'
import type { CommandContext, ExitCode } from '../cli-types'
import { EXIT, UsageError } from '../cli-types'
import { classifyInput, inputFailure, isRefusal, readPackageInput } from '../io'
import { packFolder, packStoryFile } from '../pack/pack-folder'
import { createProgress } from '../pack/progress'
import { checkLangInput, parseLangOption } from '../play/story-lang'
import {
  formatArchiveAnnotation,
  formatGithubAnnotation,
  jsonDiagnostic,
  omittedLine,
  parseFormat,
  writeJsonList,
  writeTextDiagnostics,
} from '../report'
import { readRepository } from '../repository-input'
import { readDecryptionKey } from '../validate/decryption-key'
import { applyRules, resolveRules } from '../validate/rules'
import { readNamespaces, readTrustedKeys } from '../validate/trusted-keys'
import {
  capDiagnostics,
  DEFAULT_MAX_DIAGNOSTICS,
  type ValidationReport,
  validatePackageBytes,
} from '../validate/validate-package'

/** Runs `spkg validate` (its options and help are in `validate.ts`). */
export async function runValidate({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const format = parseFormat(values.format, ['text', 'json', 'github'] as const)
  const target = positionals[0]!
  const quiet = values.quiet === true
  const maxDiagnostics = parseMaxDiagnostics(values['max-diagnostics'])
  try {
    return await validateInput({ values, positionals, io }, format, target, quiet, maxDiagnostics)
  } catch (e) {
    // In JSON a package that cannot be read is still a report: refused, with its code (exit 2, said on stderr).
    const refused = format === 'json' ? inputFailure(e) : undefined
    if (refused) writeJsonList(io, refusedReport([refused]), 'diagnostics', [refused], jsonDiagnostic)
    throw e
  }
}

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

async function validateInput(
  { values, io }: CommandContext,
  format: 'text' | 'json' | 'github',
  target: string,
  quiet: boolean,
  maxDiagnostics: number,
): Promise<ExitCode> {
  const trustedKeys = await readTrustedKeys(io, values['trusted-key'])
  const hostNamespaces = readNamespaces(values['host-namespace'])
  const progress = createProgress(io, !quiet && format !== 'json')
  const input = await classifyInput(io, target)
  // The project's rules: spkg.config.json beside the manifest of a folder; for a package, the
  // nearest one from the file's folder up, then from the current directory up; --rule over it.
  const rules = await resolveRules(
    input.kind === 'folder'
      ? { folder: input.path }
      : { cwd: io.cwd, ...(input.kind === 'file' ? { packageFile: input.path } : {}) },
    values,
  )
  const storyFile = input.kind === 'file' && input.path.endsWith('.sty') && (await isFile(input.path))
  const lang = parseLangOption(values.lang)
  if (lang)
    await checkLangInput(
      lang,
      input.kind === 'folder'
        ? { kind: 'folder', path: input.path }
        : storyFile
          ? { kind: 'sty' }
          : { kind: 'package' },
    )
  // The paths of a folder's (or a .sty's folder's) findings are files of the checkout.
  const folder = input.kind === 'folder' || storyFile
  let report: ValidationReport
  // A folder, or one .sty: the flat package 'spkg play' plays of it (with the modules and media beside it).
  const packed =
    input.kind === 'folder'
      ? await packFolder(input.path, target, { progress })
      : storyFile && input.kind === 'file'
        ? await packStoryFile(input.path, { progress })
        : undefined
  if (packed) {
    if (packed.bytes) {
      progress.update('validating')
      report = await validatePackageBytes(packed.bytes, {
        trustedKeys,
        hostNamespaces,
        before: packed.diagnostics,
        built: true,
        maxDiagnostics: ALL,
        ...(lang ? { storyLang: lang } : {}),
      })
    } else report = refusedReport(packed.diagnostics)
  } else if (input.kind === 'repository') {
    progress.update(`downloading ${target}`)
    const got = await readRepository(io, input.url)
    progress.update(`validating ${target}`)
    report = got.ok
      ? await validatePackageBytes(got.bytes, {
          trustedKeys,
          hostNamespaces,
          before: got.diagnostics,
          maxDiagnostics: ALL,
        })
      : refusedReport(got.diagnostics)
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
          maxDiagnostics: ALL,
        })
  }
  progress.done()
  if (rules.rules.size > 0) {
    const diagnostics = applyRules(report.diagnostics, rules.rules)
    const failing = diagnostics.some((d) => d.severity === 'error' || d.severity === 'fatal')
    report = { ...report, diagnostics, valid: report.loads && !failing }
  }
  const counts = countBySeverity(report.diagnostics)
  const tooManyWarnings = rules.maxWarnings !== undefined && counts.warning > rules.maxWarnings
  // The rules and --quiet first, then the cap (the most severe kept; what is left out is counted).
  const listed = quiet
    ? report.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'fatal')
    : report.diagnostics
  const { diagnostics: shown, omitted } = capDiagnostics(listed, maxDiagnostics)
  if (format === 'json') {
    // Every diagnostic carries `path` (null when it is about the archive as a whole).
    // Each links to its entry in docs/diagnostic-codes.md (`docs`, after the other fields).
    // `omitted` ({count, byCode}) only when the cap left some out; `diagnostics` stays the last field.
    writeJsonList(io, { ...report, ...(omitted ? { omitted } : {}) }, 'diagnostics', shown, jsonDiagnostic)
  } else if (format === 'github') {
    // A repository's paths are relative to its root, which is what a CI checkout annotates.
    const fileOf =
      input.kind === 'repository'
        ? (p: string | undefined) => p
        : (p: string | undefined) => (p ? join(storyFile ? dirname(target) : target, p) : target)
    for (const d of shown)
      io.stdout.write(
        `${folder || input.kind === 'repository' ? formatGithubAnnotation(d, fileOf) : formatArchiveAnnotation(d, target)}\n`,
      )
    if (omitted) io.stdout.write(`${omittedLine(omitted)}\n`)
    // A plain line in the job's log (not an annotation): the counts by severity and the verdict.
    io.stdout.write(
      `spkg validate ${target}: ${verdictOf(report.valid, report.loads, tooManyWarnings, rules.maxWarnings)}: ${counts.fatal} fatal, ${counts.error} error${counts.error === 1 ? '' : 's'}, ${counts.warning} warning${counts.warning === 1 ? '' : 's'}, ${counts.info} info\n`,
    )
  } else {
    writeTextDiagnostics(
      io,
      shown,
      `${target}: ${verdictOf(report.valid, report.loads, tooManyWarnings, rules.maxWarnings)}`,
      omitted && { omitted, counted: listed },
    )
  }
  if (tooManyWarnings && format === 'json')
    io.stderr.write(
      `spkg validate: ${counts.warning} warnings, more than --max-warnings ${rules.maxWarnings}\n`,
    )
  return report.valid && !tooManyWarnings ? EXIT.ok : EXIT.invalid
}

/** Asks the library for every finding: the rules apply to all of them, then the command caps what it prints. */
const ALL = Number.POSITIVE_INFINITY

/** `--max-diagnostics <n|all>`: a whole number, or `all`; {@link DEFAULT_MAX_DIAGNOSTICS} without it. */
function parseMaxDiagnostics(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_DIAGNOSTICS
  if (value === 'all') return ALL
  if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value)
  throw new UsageError(`--max-diagnostics must be a whole number or 'all' (got '${String(value)}')`)
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

function verdictOf(
  valid: boolean,
  loads: boolean,
  tooManyWarnings: boolean,
  max: number | undefined,
): string {
  if (!valid) return loads ? 'invalid (a reader still opens it)' : 'refused'
  return tooManyWarnings ? `too many warnings (at most ${max} allowed)` : 'valid'
}
