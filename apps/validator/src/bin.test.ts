import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))

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
})
