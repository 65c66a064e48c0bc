/**
 * `spkg inspect <file.spkg>`: the quick look a catalog shows (title, id, version, layout) and the
 * archive listing, from the central directory and the manifest only.
 */
import type { Command } from '../cli-types'
import { DECRYPTION_KEY_OPTION, FORMAT_OPTION } from './options'

/** `spkg inspect`: the quick look at a package (headline fields and entry listing), nothing verified. */
export const inspect: Command = {
  path: ['inspect'],
  summary: "show a package's title, id, version, layout, entries and signature fields without verifying it",
  usage: 'inspect <file.spkg|repo-url> [--format text|json] [--decryption-key <key-file>]',
  description: `Reads only the central directory and manifest.json (no entry is verified: use 'spkg verify'
or 'spkg validate' for that) and prints the manifest's headline fields, the layout, the entry part, the
signature fields and every entry with its size, compressed size and method. Exit 1 when the package
cannot even be peeked at. A repository URL (https://github.com/<owner>/<repo>, or .../tree/<ref>) is downloaded and
its root read as the package root; SPKG_REPO_* variables configure the hosts (see the README).`,
  positionals: [1, 1],
  options: {
    format: FORMAT_OPTION,
    'decryption-key': DECRYPTION_KEY_OPTION,
  },
  examples: ['spkg inspect crooked-inn.spkg', 'spkg inspect crooked-inn.spkg --format json | jq .entries'],
  run: (ctx) => import('./inspect-run').then((m) => m.runInspect(ctx)),
}
