/**
 * The measured processes of the reader benches run as one plain ESM bundle (no tsx in them):
 * honest startup and memory. Sources resolve through the `@spkg/source` condition.
 */
import { build } from 'esbuild'

/** Bundles `entry` (a path) for Node into `outfile`. */
export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@spkg/source'],
    outfile,
    logLevel: 'warning',
  })
}
