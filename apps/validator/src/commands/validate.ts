/**
 * `spkg validate <file.spkg|folder>`: everything a reader checks, plus what an author wants to
 * know before publishing. A folder is validated as the package `spkg pack` would make of it.
 */
import type { Command } from '../cli-types'
import { DECRYPTION_KEY_OPTION, FINDINGS_FORMAT_OPTION, HOST_NAMESPACE_OPTION, LANG_OPTION } from './options'

/** `spkg validate`: the reader's checks plus author and story checks, as text, JSON or GitHub annotations. */
export const validate: Command = {
  path: ['validate'],
  summary: 'check a package (or the folder it is packed from) as a reader would, plus author checks',
  usage:
    'validate <file.spkg|file.sty|folder|repo-url> [--format text|json|github] [--trusted-key <pub>]... [--host-namespace <ns>]... [--decryption-key <key-file>] [--rule <code>=<level>]... [--max-warnings <n>] [--max-diagnostics <n|all>] [--quiet] [--lang 1.0|1.1]',
  description: `Opens the package exactly as a player does (ZIP structure, names, limits, layout, manifest,
parts, extensions, integrity, checksums, signature) and adds the author checks: assets listed but
missing, files referenced by nothing, no cover, already-compressed media stored with deflate, a
manifest not in canonical form. A folder is validated as the package 'spkg pack' would make of it;
one .sty file as the flat package 'spkg play' plays of it (with the .xty modules and media beside it).
A repository URL (https://github.com/<owner>/<repo>, or .../tree/<ref>) is downloaded and
its root read as the package root; SPKG_REPO_* variables configure the hosts (see the README).
--lang 1.1 reads a story folder or .sty file at that story-language version when no manifest
says which (a manifest's "story_lang" wins, and a --lang that differs from it is a usage error; a
package is always read at its manifest's version).

--format json prints one object {loads, valid, layout, type, entry, parts, manifest, diagnostics};
"loads" means a reader opens it (no fatal problem), "valid" means no fatal problem and no error.
An input that cannot be read (a missing file, a URL that does not answer, a remote file that
changed between requests) is exit 2; with --format json it still prints the report, refused, with
one fatal diagnostic: pkg/fetch-failed or pkg/remote-changed.
At most 200 findings are printed (--max-diagnostics n|all), the most severe first kept; the rest
are counted: "... and N more (code count, ...)" in text, "omitted": {count, byCode} in JSON.
--format github prints GitHub workflow annotations, then a line with the counts by severity.
A project sets its own rules as linters do: --rule <code>=off|info|warning|error (repeatable) and
spkg.config.json ({"rules": {"<code>": "<level>"}, "maxWarnings": n}; never packed, never read from
inside a package): for a folder, the one beside manifest.json; for a .spkg file, the nearest one in
the file's folder or a folder above it, else in the current directory or above it (each search
stops at the repository root, the first folder holding .git). The command line wins. Fatal codes
cannot be changed. --max-warnings n fails when
there are more than n warnings. Exit 0 valid (warnings allowed), 1 invalid, 2 usage or I/O error.`,
  positionals: [1, 1],
  options: {
    format: FINDINGS_FORMAT_OPTION,
    'trusted-key': {
      type: 'string',
      multiple: true,
      short: 'k',
      valueName: '<pub>',
      description: 'a public key (.pub file or ed25519: fingerprint) the embedder trusts; repeatable',
    },
    'host-namespace': HOST_NAMESPACE_OPTION,
    lang: LANG_OPTION,
    'decryption-key': DECRYPTION_KEY_OPTION,
    quiet: { type: 'boolean', short: 'q', description: 'print only errors and fatal problems, no progress' },
    rule: {
      type: 'string',
      multiple: true,
      valueName: '<code>=<level>',
      description:
        'set a code to off, info, warning or error (not a fatal one); repeatable; beats spkg.config.json',
    },
    'max-diagnostics': {
      type: 'string',
      valueName: '<n|all>',
      description: 'print at most n findings, the most severe first (default 200); the rest are counted',
    },
    'max-warnings': {
      type: 'string',
      valueName: '<n>',
      description: 'fail (exit 1) when there are more than n warnings',
    },
  },
  examples: [
    'spkg validate crooked-inn.spkg',
    'spkg validate examples/crooked-inn --format json | jq .valid',
    'spkg validate dist/inn.spkg --trusted-key author.pub --host-namespace host --format github',
    'spkg validate my-story --rule story/implicit-ids=off --rule story/unreachable=error --max-warnings 0',
  ],
  run: (ctx) => import('./validate-run').then((m) => m.runValidate(ctx)),
}
