import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const pkg = join(import.meta.dirname, '..')

describe('the README example', () => {
  it('runs and prints what its comments say', () => {
    const out = execFileSync(
      process.execPath,
      ['--conditions=@spkg/source', '--import', 'tsx', 'examples/basic.ts'],
      { cwd: pkg, encoding: 'utf8' },
    )
    expect(out).toContain('The Crooked Inn packaged story/0001-inn.sty\n')
    expect(out).toContain("[ 'story/0001-inn.sty', 'story/0002-forest-edge.sty' ]\n")
    expect(out).toContain('You push the door of the inn.\n')
    expect(out).toContain("false [ 'pkg/unsafe-path' ]\n")
  })

  it('is the same code as in the README', () => {
    const readme = readFileSync(join(pkg, 'README.md'), 'utf8')
    const example = readFileSync(join(pkg, 'examples/basic.ts'), 'utf8')
    expect(readme).toContain(example.trim())
  })
})
