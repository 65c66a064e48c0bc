/**
 * `spkg manifest check` and `spkg manifest normalize`: the manifest library on the command line.
 */
import {
  countBySeverity,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  type ManifestResult,
  parseManifestText,
  serializeManifest,
} from '@spkg/manifest'
import { type Command, EXIT } from '../cli-types'
import { readInput, writeOutputAtomic } from '../io'
import {
  formatDiagnosticLine,
  formatGithubAnnotation,
  parseFormat,
  useColor,
  writeJson,
  writeTextDiagnostics,
} from '../report'

/** Reads and parses a manifest file; invalid UTF-8 is reported like invalid JSON. */
async function loadManifest(io: Parameters<Command['run']>[0]['io'], file: string): Promise<ManifestResult> {
  const bytes = await readInput(io, file)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return {
      diagnostics: [
        createDiagnostic('manifest/not-json', `${file} is not valid UTF-8 text.`, { path: file }),
      ],
    }
  }
  return parseManifestText(text, { path: file })
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
  description: `Normalises the looser forms authors write (a bare-string part becomes {file, name}, a string
author becomes [{name}], sha256-<base64> digests become lowercase hex...), orders the known fields as
the SPEC lists them and keeps unknown fields untouched. Problems go to standard error. When the manifest
has an error, nothing is written and the exit code is 1, so a bad manifest is never half-converted.`,
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
    const result = await loadManifest(io, positionals[0]!)
    const color = useColor(io, 'stderr')
    for (const d of result.diagnostics)
      if (d.severity !== 'info') io.stderr.write(`${formatDiagnosticLine(d, color)}\n`)
    if (!result.manifest || hasErrors(result.diagnostics)) {
      io.stderr.write('spkg manifest normalize: the manifest has errors; nothing was written.\n')
      return EXIT.invalid
    }
    const text = serializeManifest(result.manifest)
    if (typeof values.output === 'string') await writeOutputAtomic(io, values.output, text)
    else io.stdout.write(text)
    return EXIT.ok
  },
}
