import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseReadingStateText } from '@spkg/manifest'
import { afterAll, expect, it } from 'vitest'

const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))))

/** Starts the save loop in a child process and kills it with SIGKILL some time after its first save. */
async function killMidSave(dir: string, afterMs: number): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--conditions=@spkg/source', '--import', 'tsx', join(import.meta.dirname, 'save-loop.ts'), dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) setTimeout(() => child.kill('SIGKILL'), afterMs)
    })
    child.on('exit', () => resolve())
    child.on('error', reject)
  })
}

it('leaves a readable state when the saving process is killed at any moment', async () => {
  for (const afterMs of [5, 41, 130]) {
    const dir = await mkdtemp(join(tmpdir(), 'spkg-crash-'))
    dirs.push(dir)
    await killMidSave(dir, afterMs)
    const text = await readFile(join(dir, 'story.json'), 'utf8')
    const { state, diagnostics } = parseReadingStateText(text)
    expect(diagnostics).toEqual([])
    expect(state?.variables.n).toBe(state?.renderedParagraph)
    // Leftovers of the killed save (temp file, lock) may remain; they never shadow the state.
    for (const f of await readdir(dir))
      expect(f === 'story.json' || f.startsWith('.') || f.endsWith('.lock')).toBe(true)
  }
}, 60_000)
