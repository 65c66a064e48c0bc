/**
 * `spkg pack <folder> -o <file.spkg>`: an author's folder becomes a deterministic, canonical
 * package. Nothing is written when the result would be refused by a reader.
 */
import type { Command } from '../cli-types'
import { HOST_NAMESPACE_OPTION } from './options'

/** `spkg pack`: a story folder to a deterministic, validated `.spkg`. */
export const pack: Command = {
  path: ['pack'],
  summary: 'build a deterministic .spkg from a story folder',
  usage: 'pack <folder|repo-url> -o <file.spkg|-> [--allow-errors] [--host-namespace <ns>]... [--quiet]',
  description: `Zips a story folder (manifest.json, story/, assets/, extensions/, session.json...) into a
package: manifest.json first and in canonical form, "parts" and "assets" completed from the folder when
the manifest omits them, "id" generated (with a warning) when absent, "integrity" recomputed, text
deflated and already-compressed media (jpg, png, webp, ogg, mp3, mp4, woff2...) stored. Hidden and
system files (.DS_Store, __MACOSX, Thumbs.db, .git...) are left out; links are refused. The output
is deterministic: every entry is dated 1980-01-01 and the entries are in byte order, so the same
folder always gives the same bytes. The package is then validated as 'spkg validate' would; when it
has an error or breaks a limit nothing is written and the exit code is 1 (--allow-errors writes a
package with errors, for testing a work in progress, but never one a reader would refuse). With -o - (or
/dev/stdout) the package is written to standard output, and the findings and the result line to
standard error. A signed source loses its signature: run 'spkg sign' afterwards. A story whose manifest
"requires" a host namespace is refused unless --host-namespace registers it, as 'spkg validate' does.
A repository URL (https://github.com/<owner>/<repo>, or .../tree/<ref>) is downloaded and
its root read as the package root; SPKG_REPO_* variables configure the hosts (see the README). The package is built from
the repository's files exactly as from a folder.`,
  positionals: [1, 1],
  options: {
    output: {
      type: 'string',
      short: 'o',
      valueName: '<file.spkg|->',
      description: 'the package to write (atomically; replaced if it exists); - for standard output',
    },
    'allow-errors': {
      type: 'boolean',
      description: 'write the package even when it has errors (never when a reader would refuse it)',
    },
    'host-namespace': HOST_NAMESPACE_OPTION,
    quiet: { type: 'boolean', short: 'q', description: 'print only errors and the result, no progress' },
    minify: {
      type: 'boolean',
      description: `minify the story sources (comments, blank runs, short names for variables, functions, ids, sets and their items; names map in META-PKG/names.json; 'spkg unminify' restores)`,
    },
  },
  examples: ['spkg pack examples/crooked-inn -o crooked-inn.spkg'],
  run: (ctx) => import('./pack-run').then((m) => m.runPack(ctx)),
}
