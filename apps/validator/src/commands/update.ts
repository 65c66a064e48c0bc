/**
 * `spkg update <cache-folder> <url>`: a delta update of a package kept in an offline cache
 * folder, fetching only the files whose `integrity` hashes changed, and printing what was fetched.
 */
import type { Command } from '../cli-types'
import { FORMAT_OPTION } from './options'

/** `spkg update`: delta update into a cache folder, with the bytes fetched. */
export const update: Command = {
  path: ['update'],
  summary: 'update a cached package from a URL, fetching only the files that changed',
  usage: 'update <cache-folder> <url> [--id <id>] [--keep-old] [--format text|json]',
  description: `Reads the new version's central directory and manifest by HTTP range requests, copies the
files whose integrity hashes are unchanged from the cached version (renamed files too), fetches only
the others (each checked against its new hash), and opens the result with every check of a normal open
before it replaces the cached version. A server that ignores ranges, a manifest without "integrity", or
a change of more than half the archive means one whole download. An empty cache folder gets the whole
package. An interrupted or refused update leaves the cached version as it was.

The URL is https://, or http:// for a loopback address (127.0.0.1, ::1, localhost). Exit 0: updated
or already current. Exit 1: the update was refused (diagnostics say why). Exit 2: usage error.`,
  positionals: [2, 2],
  options: {
    id: {
      type: 'string',
      valueName: '<id>',
      description: 'the package id expected at the URL (default: whatever id the URL serves)',
    },
    'keep-old': { type: 'boolean', description: 'keep the previous version in the cache' },
    format: FORMAT_OPTION,
  },
  examples: [
    'spkg update ~/.cache/spkg https://example.org/stories/the-inn.spkg',
    'spkg update cache http://127.0.0.1:8080/the-inn.spkg --format json | jq .bytesFetched',
  ],
  run: (ctx) => import('./update-run').then((m) => m.runUpdate(ctx)),
}
