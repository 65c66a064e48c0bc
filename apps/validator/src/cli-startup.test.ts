/**
 * `spkg --help` and `--version` start fast because they load no command's work: each command's
 * module (`commands/<name>-run.ts`) and the heavy libraries it uses (the reader, the story
 * engine, the zod-based manifest checks) are imported only when that command runs.
 * Checked by the modules a real process loads (a loader hook records them), not by a timing.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { freshDir } from '../test/helpers/tree'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const recorder = fileURLToPath(new URL('../test/helpers/record-loads.mjs', import.meta.url))

/** Runs the `spkg` sources with `args` and returns the URLs of the modules the process loaded. */
function loadedBy(args: string[]): string[] {
  const file = join(freshDir('spkg-loads-'), 'loads.txt')
  // Exit 2 is fine (`spkg manifest` prints the group's usage): only the loaded modules count.
  spawnSync(
    process.execPath,
    [
      '--conditions=@spkg/source',
      '--import',
      'tsx',
      '--import',
      recorder,
      'apps/validator/src/bin.ts',
      ...args,
    ],
    { cwd: root, env: { ...process.env, SPKG_RECORD_LOADS: file }, stdio: 'ignore', timeout: 60_000 },
  )
  return readFileSync(file, 'utf8').trim().split('\n')
}

/** What only a command's work may load. */
const HEAVY = [
  /\/commands\/[a-z]+-run\.ts$/,
  /\/packages\/(reader|story|state|manifest|integrity)\//,
  /\/zod\//,
]
const heavy = (urls: string[]) => urls.filter((u) => HEAVY.some((h) => h.test(u)))

describe('spkg start-up', () => {
  it.each([[['--help']], [['--version']], [['play', '--help']], [['manifest']]])(
    '%j loads no command module and no heavy dependency',
    (args) => {
      const urls = loadedBy(args)
      expect(urls.some((u) => u.endsWith('/apps/validator/src/cli.ts'))).toBe(true)
      expect(heavy(urls)).toEqual([])
    },
    60_000,
  )

  it('a command loads its own module when it runs (the check above can fail)', () => {
    const urls = loadedBy(['manifest', 'check', 'examples/crooked-inn/manifest.json'])
    expect(urls.some((u) => u.endsWith('/commands/manifest-run.ts'))).toBe(true)
    expect(heavy(urls).some((u) => u.includes('/packages/manifest/'))).toBe(true)
    expect(heavy(urls).some((u) => u.includes('/commands/play-run.ts'))).toBe(false)
  }, 60_000)
})
