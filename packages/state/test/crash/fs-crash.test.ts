import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseReadingStateText } from '@spkg/manifest'
import { afterAll, expect, it } from 'vitest'

const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))))

/**
 * Starts the save loop in a child process and kills it with SIGKILL as it reports the start of
 * save `at` (a save takes milliseconds on a 40,000-choice state, so the kill lands inside it; no
 * timer decides when).
 */
async function killMidSave(dir: string, at: number): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--conditions=@spkg/source', '--import', 'tsx', join(import.meta.dirname, 'save-loop.ts'), dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let pending = ''
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      if (lines.includes(`saving ${at}`)) child.kill('SIGKILL')
    })
    child.on('exit', () => resolve())
    child.on('error', reject)
  })
}

it('leaves a readable state when the saving process is killed at any moment', async () => {
  for (const at of [1, 2, 5]) {
    const dir = await mkdtemp(join(tmpdir(), 'spkg-crash-'))
    dirs.push(dir)
    await killMidSave(dir, at)
    const text = await readFile(join(dir, 'story.json'), 'utf8')
    const { state, diagnostics } = parseReadingStateText(text)
    expect(diagnostics).toEqual([])
    expect(state?.variables.n).toBe(state?.renderedParagraph)
    // Leftovers of the killed save (temp file, lock) may remain; they never shadow the state.
    for (const f of await readdir(dir))
      expect(f === 'story.json' || f.startsWith('.') || f.endsWith('.lock')).toBe(true)
  }
}, 60_000)
