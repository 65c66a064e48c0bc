/**
 * `spkg unminify <pkg> -o <folder>`: a package packed with `spkg pack --minify` back to a story
 * folder with the author's names (variables, functions, ids; from its names map).
 */
import type { Command } from '../cli-types'
import { DECRYPTION_KEY_OPTION } from './options'

/** `spkg unminify`: see the module comment and `--help`. */
export const unminify: Command = {
  path: ['unminify'],
  summary: 'restore a minified package to a story folder with the original names',
  usage: 'unminify <file.spkg> -o <folder> [--decryption-key <key-file>]',
  description: `Opens a package written by 'spkg pack --minify' (verified as any package), renames the
variables, functions, ids, sets and items of its .sty and .xty sources back from its names map
(manifest build.names_map, normally META-PKG/names.json), and writes every file into a new folder:
META-PKG/ is left out, and "build", "integrity" and the signature fields are removed from
manifest.json ('spkg pack' recomputes them).
Comments removed by minifying do not come back; the story plays the same. The folder must not exist
or be empty; nothing is left half-written. Exit 1 when the package cannot be opened or has no names map.`,
  positionals: [1, 1],
  options: {
    output: { type: 'string', short: 'o', valueName: '<folder>', description: 'the folder to create' },
    'decryption-key': DECRYPTION_KEY_OPTION,
  },
  examples: ['spkg unminify inn.min.spkg -o inn-src'],
  run: (ctx) => import('./unminify-run').then((m) => m.runUnminify(ctx)),
}
