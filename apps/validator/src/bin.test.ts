import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { freshDir, storyTree, writeTree } from '../test/helpers/tree'

const root = fileURLToPath(new URL('../../..', import.meta.url))

function hasPnpm(): boolean {
  try {
    execFileSync('pnpm', ['--version'], { stdio: 'ignore', timeout: 20_000 })
    return true
  } catch {
    return false
  }
}

describe('spkg binary', () => {
  it('ends quietly with status 0 when its reader closes the pipe early (spkg ... | head)', async () => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@spkg/source',
        '--import',
        'tsx',
        'apps/validator/src/bin.ts',
        'play',
        'examples/crooked-inn',
        '--format',
        'json',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d
    })
    // Read the first chunk, then close our end, as `head -1` does.
    child.stdout.once('data', () => child.stdout.destroy())
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    expect(stderr).not.toContain('EPIPE')
    expect(code).toBe(0)
  }, 60_000)

  it.skipIf(!hasPnpm())(
    'pnpm -s spkg resolves relative paths from the directory pnpm was run in, and prints no banner',
    async () => {
      const cwd = freshDir()
      writeTree(join(cwd, 'inn'), storyTree())
      // pnpm runs the root script from the repository root; -C stands for "run from elsewhere".
      const out = execFileSync('pnpm', ['-s', '-C', root, 'spkg', 'pack', 'inn', '-o', 'inn.spkg', '-q'], {
        cwd,
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(out).toMatch(/^wrote inn\.spkg: 4 entries/)
      expect(existsSync(join(cwd, 'inn.spkg'))).toBe(true)
      expect(existsSync(join(root, 'inn.spkg'))).toBe(false)
    },
    60_000,
  )
})
