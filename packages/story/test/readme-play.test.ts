/**
 * The "Playing a story" example of the README (examples/play.ts) runs and prints what its comments
 * say, and the README shows the same code.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const pkg = join(import.meta.dirname, '..')
const example = readFileSync(join(pkg, 'examples/play.ts'), 'utf8')

describe('the README play example', () => {
  it('runs and prints what its comments say', () => {
    const out = execFileSync(
      process.execPath,
      ['--conditions=@spkg/source', '--import', 'tsx', 'examples/play.ts'],
      {
        cwd: pkg,
        encoding: 'utf8',
      },
    )
    const expected = example
      .split('\n')
      .filter((l) => l.startsWith('// ') && !/^\/\/ [A-Z][a-z]+ at any pause/.test(l))
      .map((l) => l.slice(3))
    expect(out.trimEnd().split('\n')).toEqual(expected)
  })
  it('is the same code as in the README', () => {
    const readme = readFileSync(join(pkg, 'README.md'), 'utf8')
    expect(readme).toContain(example.trim())
  })
})
