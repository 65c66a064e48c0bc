/**
 * Archives written by the real tools (Info-ZIP zip, Python's zipfile, 7-Zip, bsdtar) for
 * interoperability tests: the tree is written to a temporary directory and zipped there.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Content } from './build-archive'

/** The ZIP writers {@link zipWithTool} can run. */
export type ZipTool = 'zip' | 'python' | '7z' | 'bsdtar'

const COMMANDS: Record<ZipTool, string[]> = {
  zip: ['zip'],
  python: ['python3'],
  '7z': ['7z', '7zz', '7za'],
  bsdtar: ['bsdtar'],
}

function findCommand(tool: ZipTool): string | undefined {
  return COMMANDS[tool].find(
    (c) => spawnSync('sh', ['-c', `command -v ${c}`], { stdio: 'ignore' }).status === 0,
  )
}

/** True when the tool's command is on the PATH (tests skip a tool that is missing). */
export function hasTool(tool: ZipTool): boolean {
  return findCommand(tool) !== undefined
}

const PY = `
import os, sys, zipfile
root, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            z.write(p, os.path.relpath(p, root))
`

/**
 * Writes `tree` (archive path → content) to a temporary directory and zips its contents with
 * the real tool; returns the archive bytes. Throws when the tool is missing or fails.
 *
 * @example
 * if (hasTool('zip')) { const bytes = zipWithTool('zip', { 'manifest.json': '{"id":"x"}' }) }
 */
export function zipWithTool(tool: ZipTool, tree: Record<string, Content>): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-zip-'))
  try {
    const root = join(dir, 'root')
    mkdirSync(root)
    for (const [name, content] of Object.entries(tree)) {
      const file = join(root, name)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
    }
    const command = findCommand(tool)
    if (!command) throw new Error(`${tool} is not installed`)
    const out = join(dir, 'out.zip')
    const opts = { cwd: root, stdio: 'pipe' as const }
    // Top-level names as a user's shell glob gives them (never "./x" names).
    const top = readdirSync(root).sort()
    switch (tool) {
      case 'zip':
        execFileSync(command, ['-q', '-r', '-X', out, '.'], opts)
        break
      case 'python':
        execFileSync(command, ['-c', PY, root, out], opts)
        break
      case '7z':
        execFileSync(command, ['a', '-tzip', '-bd', '-bso0', out, ...top], opts)
        break
      case 'bsdtar':
        execFileSync(command, ['--format', 'zip', '-cf', out, ...top], opts)
        break
    }
    return new Uint8Array(readFileSync(out))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
