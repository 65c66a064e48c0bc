/**
 * `spkg manifest check` and `spkg manifest normalize`: the manifest library on the command line.
 */
import type { Command } from '../cli-types'
import { FINDINGS_FORMAT_OPTION } from './options'

export const manifestCheck: Command = {
  path: ['manifest', 'check'],
  summary: 'validate a manifest.json and print every problem with its code and field',
  usage: 'manifest check <manifest.json> [--format text|json|github]',
  description: `Checks one manifest file on its own: types of every field, looser forms that were normalised,
paths, cross-field rules and versions. Use '-' to read standard input. Exits 1 when there is an error
or a fatal problem; warnings and info never fail the check.`,
  positionals: [1, 1],
  options: {
    format: FINDINGS_FORMAT_OPTION,
    quiet: { type: 'boolean', short: 'q', description: 'print only errors and fatal problems' },
  },
  examples: [
    'spkg manifest check manifest.json',
    'spkg manifest check manifest.json --format json | jq .diagnostics',
  ],
  run: (ctx) => import('./manifest-run').then((m) => m.runManifestCheck(ctx)),
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
  run: (ctx) => import('./manifest-run').then((m) => m.runManifestNormalize(ctx)),
}
