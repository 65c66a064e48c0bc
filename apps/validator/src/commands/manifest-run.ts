/**
 * The work of `manifest.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg manifest check` and `spkg manifest normalize`: the manifest library on the command line.
 */
import { randomUUID } from 'node:crypto'
import { dirname } from 'node:path'
import {
  checkManifestBounds,
  countBySeverity,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  isPlainObject,
  type ManifestResult,
  parseJsonText,
  parseManifestText,
} from '@spkg/manifest'
import type { CommandContext, ExitCode } from '../cli-types'
import { type CliIO, EXIT } from '../cli-types'
import { readInput, resolvePath, writeOutputAtomic } from '../io'
import { canonicalSourceText, completeManifest } from '../pack/complete-manifest'
import { readFolder } from '../pack/read-folder'
import {
  formatDiagnosticLine,
  formatGithubAnnotation,
  parseFormat,
  useColor,
  writeJson,
  writeTextDiagnostics,
} from '../report'

/** Reads a manifest file's text; invalid UTF-8 is reported like invalid JSON. */
async function readManifestText(io: CliIO, file: string): Promise<string | Diagnostic> {
  const bytes = await readInput(io, file)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return createDiagnostic('manifest/not-json', `${file} is not valid UTF-8 text.`, { path: file })
  }
}

/** Reads and parses a manifest file. */
async function loadManifest(io: CliIO, file: string): Promise<ManifestResult> {
  const text = await readManifestText(io, file)
  return typeof text === 'string'
    ? parseManifestText(text, { path: file, bounds: checkManifestBounds })
    : { diagnostics: [text] }
}

/**
 * The files of the story folder a manifest file sits in, for what `normalize` infers as `pack`
 * does (`parts` from `story/**\/*.sty`, `assets` from `assets/**`); `undefined` for standard
 * input, or a folder with no part under `story/` (then nothing is inferred).
 */
async function folderPaths(io: CliIO, file: string): Promise<string[] | undefined> {
  if (file === '-') return undefined
  try {
    const { paths } = await readFolder(dirname(resolvePath(io, file)), file, { read: false })
    return paths.some((p) => p.startsWith('story/') && p.endsWith('.sty')) ? paths : undefined
  } catch {
    return undefined
  }
}

/**
 * `spkg manifest normalize`: the source manifest completed as `spkg pack` completes it (same code:
 * versions, `parts` and `assets` from the folder, an `id` when there is none) in canonical form,
 * with `$schema` kept for editors. The notes say what was completed.
 */
async function normalizeManifest(
  io: CliIO,
  file: string,
): Promise<{ text?: string; diagnostics: Diagnostic[] }> {
  const text = await readManifestText(io, file)
  if (typeof text !== 'string') return { diagnostics: [text] }
  const json = parseJsonText(text)
  if (!json.ok || !isPlainObject(json.value))
    return parseManifestText(text, { path: file, bounds: checkManifestBounds })
  const value: Record<string, unknown> = { ...json.value }
  const notes: Diagnostic[] = []
  completeManifest(value, await folderPaths(io, file), notes)
  if (typeof value.id !== 'string' || value.id.trim() === '') {
    value.id = randomUUID()
    notes.push(
      createDiagnostic(
        'pkg/generated-id',
        `the manifest had no usable "id"; the new id ${value.id} was written: keep it, it identifies the story in every build and saved state`,
        { path: 'manifest.json', field: '/id' },
      ),
    )
  }
  const canonical = canonicalSourceText(value)
  const diagnostics = [
    ...canonical.diagnostics.map((d) => (d.path === 'manifest.json' ? { ...d, path: file } : d)),
    ...notes.map((d) => ({ ...d, path: file })),
  ]
  return canonical.text === undefined ? { diagnostics } : { text: canonical.text, diagnostics }
}

/** Runs `spkg manifestCheck` (its options and help are in `manifest.ts`). */
export async function runManifestCheck({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const format = parseFormat(values.format, ['text', 'json', 'github'] as const)
  const file = positionals[0]!
  const result = await loadManifest(io, file)
  const shown: Diagnostic[] = values.quiet
    ? result.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'fatal')
    : result.diagnostics
  const valid = !hasErrors(result.diagnostics)
  if (format === 'json') {
    writeJson(io, {
      file,
      valid,
      counts: countBySeverity(result.diagnostics),
      manifest: result.manifest ?? null,
      diagnostics: shown,
    })
  } else if (format === 'github') {
    for (const d of shown) io.stdout.write(`${formatGithubAnnotation(d, () => file)}\n`)
  } else {
    writeTextDiagnostics(io, shown, file)
  }
  return valid ? EXIT.ok : EXIT.invalid
}

/** Runs `spkg manifestNormalize` (its options and help are in `manifest.ts`). */
export async function runManifestNormalize({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const { text, diagnostics } = await normalizeManifest(io, positionals[0]!)
  const color = useColor(io, 'stderr')
  // The looser forms it normalised are what normalize is for: not worth a line each.
  for (const d of diagnostics)
    if (d.code !== 'manifest/normalized') io.stderr.write(`${formatDiagnosticLine(d, color)}\n`)
  if (text === undefined || hasErrors(diagnostics)) {
    io.stderr.write('spkg manifest normalize: the manifest has errors; nothing was written.\n')
    return EXIT.invalid
  }
  if (typeof values.output === 'string') await writeOutputAtomic(io, values.output, text)
  else io.stdout.write(text)
  return EXIT.ok
}
