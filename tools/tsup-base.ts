/**
 * The one tsup build of the repository's packages; each package's tsup.config.ts names only its
 * entries. Both kinds are ESM with types and source maps, and keep `node:fs`, not `fs`: browser
 * bundlers then know these are Node built-ins, not packages to polyfill.
 */
import type { Options } from 'tsup'

const common = {
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  removeNodeProtocol: false,
} satisfies Options

/**
 * The build of a library package whose entries are `entry` (output name to source file): ES2022
 * for any runtime, Node built-ins left to the runtime.
 */
export function libraryBuild(entry: Record<string, string>): Options {
  return { ...common, entry, target: 'es2022', platform: 'neutral', external: [/^node:/] }
}

/**
 * The build of a package whose `bin` entry is a Node 20 command with its shebang; `library` names
 * the entries that are also imported, the only ones given types.
 */
export function commandBuild(entry: Record<string, string>, library: Record<string, string>): Options {
  return {
    ...common,
    entry,
    dts: { entry: library },
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  }
}
