/**
 * The README examples of the packages, as their tests check them: the file runs as a user would
 * run it (Node on the package's sources) and the README shows that same code.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** What `file` (relative to `packageDir`) prints when Node runs it on the package's sources. */
export function runExampleFile(packageDir: string, file = 'examples/basic.ts'): string {
  return execFileSync(process.execPath, ['--conditions=@spkg/source', '--import', 'tsx', file], {
    cwd: packageDir,
    encoding: 'utf8',
  })
}

/** The example's code, trimmed, and the package README's text. */
export function exampleAndReadme(
  packageDir: string,
  file = 'examples/basic.ts',
): { example: string; readme: string } {
  return {
    example: readFileSync(join(packageDir, file), 'utf8').trim(),
    readme: readFileSync(join(packageDir, 'README.md'), 'utf8'),
  }
}
