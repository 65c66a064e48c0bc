/**
 * Puts V8's compile hint, `//# allFunctionsCalledOnLoad` (Chromium 136 and later; other engines read a comment),
 * at the top of every chunk of the player's build that holds the reader: Chromium then compiles the chunk's
 * functions on the thread that streams it, while it downloads, instead of on the main thread at their first call.
 * The chunk is fetched when a story view opens, before the package is opened, so the first open of a fresh page
 * runs compiled code: in `pnpm bench reader-browser`, the cold open of 500 small entries took 0.79 times as long
 * with the hint (30 alternating rounds; bench/reader-browser/RESULTS.md). Chunks without the reader
 * (the catalog, the account area) keep lazy compilation.
 *
 * Added to the files once written (`writeBundle`): after minification, which drops comments, and after Vite's own
 * `generateBundle` hooks, which put a line of their own first in a chunk that imports others lazily; the hint
 * belongs on the first line. Only the content changes, not the name: the service worker precaches hashed assets
 * by name (`revision: null`).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Plugin } from 'vite'

/** V8's file-wide compile hint. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'

/** Module ids of the reader: its sources (the workspace) or its published build. */
const READER = /[/\\]packages[/\\]reader[/\\](?:src|dist)[/\\]|[/\\]@spkg[/\\]reader[/\\]/

/** The Vite plugin. */
export function compileHint(): Plugin {
  return {
    name: 'spkg-player-compile-hint',
    apply: 'build',
    enforce: 'post',
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.moduleIds.some((id) => READER.test(id))) continue
        const file = join(options.dir ?? 'dist', chunk.fileName)
        const code = readFileSync(file, 'utf8')
        if (!code.startsWith(COMPILE_HINT)) writeFileSync(file, COMPILE_HINT + code)
      }
    },
  }
}
