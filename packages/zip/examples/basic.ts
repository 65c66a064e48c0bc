/**
 * Read an archive safely: list its checked entries, extract one under a size budget, and see a
 * hostile archive refused with a stable code. (fflate only makes the example's archives.)
 * Run from the repository root: node --conditions=@spkg/source --import tsx packages/zip/examples/basic.ts
 */
import { boundedInflater, crc32, extractEntry, readZipDirectory, type ZipDiagnostic } from '@spkg/zip'
import { strToU8, zipSync } from 'fflate'

export function runExample(log: (line: string) => void = console.log): void {
  const bytes = zipSync({
    'manifest.json': [strToU8('{"id":"demo"}'), { level: 0 }],
    'story/0001-inn.sty': strToU8('=== inn ===\nThe door creaks open.\n'.repeat(50)),
  })
  const { directory, diagnostics } = readZipDirectory(bytes)
  log(`findings: ${diagnostics.length}`)
  for (const e of directory?.entries ?? []) log(`${e.name}: ${e.size} bytes, method ${e.method}`)

  // Every entry comes out of one budget: a bomb stops at it, whatever its headers declare.
  const backend = { inflater: boundedInflater, crc32 }
  const budget = { remaining: 1024 * 1024, limit: 1024 * 1024 }
  const out: ZipDiagnostic[] = []
  const story = extractEntry(bytes, directory!.entries[1]!, backend, budget, out)
  log(`story: ${new TextDecoder().decode(story).split('\n')[1]} (${out.length} findings)`)

  const hostile = zipSync({ '../escape.txt': strToU8('x') })
  const refused = readZipDirectory(hostile)
  log(
    `hostile: ${refused.directory ? 'read' : 'refused'} (${refused.diagnostics.map((d) => d.code).join(', ')})`,
  )
}

if (process.argv[1]?.endsWith('basic.ts')) runExample()
