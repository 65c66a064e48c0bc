/**
 * `spkg manifest check` and `spkg manifest normalize`: the manifest library on the command line.
 */
import { randomUUID } from 'node:crypto'
import { dirname } from 'node:path'
import {
  countBySeverity,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  isPlainObject,
  type ManifestResult,
  parseJsonText,
  parseManifestText,
} from '@spkg/manifest'
import { type CliIO, type Command, EXIT } from '../cli-types'
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
  return typeof text === 'string' ? parseManifestText(text, { path: file }) : { diagnostics: [text] }
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
  if (!json.ok || !isPlainObject(json.value)) return parseManifestText(text, { path: file })
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

export const manifestCheck: Command = {
  path: ['manifest', 'check'],
  summary: 'validate a manifest.json and print every problem with its code and field',
  usage: 'manifest check <manifest.json> [--format text|json|github]',
  description: `Checks one manifest file on its own: types of every field, looser forms that were normalised,
paths, cross-field rules and versions. Use '-' to read standard input. Exits 1 when there is an error
or a fatal problem; warnings and info never fail the check.`,
  positionals: [1, 1],
  options: {
    format: {
      type: 'string',
      short: 'f',
      valueName: 'text|json|github',
      description: 'output format',
      default: 'text',
    },
    quiet: { type: 'boolean', short: 'q', description: 'print only errors and fatal problems' },
  },
  examples: [
    'spkg manifest check manifest.json',
    'spkg manifest check manifest.json --format json | jq .diagnostics',
  ],
  async run({ values, positionals, io }) {
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
  },
}

export const manifestNormalize: Command = {
  path: ['manifest', 'normalize'],
  summary: 'print the canonical form of a manifest.json',
  usage: 'manifest normalize <manifest.json> [-o <file>]',
  description: `Writes the manifest as 'spkg pack' puts it in the package, so the source packs without notes:
"story_lang" and "manifest" set to the current version, "parts" (story/**/*.sty) and "assets"
(assets/**) completed from the folder the manifest sits in when it omits them, an "id" generated when
there is none (keep it), the looser forms normalised (a bare-string part becomes {file, name}, a
string author becomes [{name}], sha256-<base64> digests become lowercase hex...), the known fields in
the SPEC's order and unknown fields untouched. "$schema" stays first, for editors (a package never
carries it: 'spkg pack' drops it). What was completed, and any problem, goes to standard error. When
the manifest has an error, nothing is written and the exit code is 1, so a bad manifest is never
half-converted.`,
  positionals: [1, 1],
  options: {
    output: {
      type: 'string',
      short: 'o',
      valueName: '<file>',
      description: 'write to this file (atomically) instead of standard output',
    },
  },
  examples: [
    'spkg manifest normalize manifest.json',
    'spkg manifest normalize manifest.json -o manifest.json',
  ],
  async run({ values, positionals, io }) {
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
  },
}
