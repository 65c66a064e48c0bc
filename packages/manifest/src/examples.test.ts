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
      {
        cwd: pkg,
        encoding: 'utf8',
      },
    )
    expect(out).toContain("{ file: 'story/0002-forest-edge.sty', name: 'Forest edge' }")
    expect(out).toContain("[ 'manifest/invalid-age /age' ]")
    expect(out).toContain('true\n')
    expect(out).toContain('"id": "6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14",')
  })
  it('is the same code as in the README', () => {
    const readme = readFileSync(join(pkg, 'README.md'), 'utf8')
    const example = readFileSync(join(pkg, 'examples/basic.ts'), 'utf8')
    expect(readme).toContain(example.trim())
  })
  it('bounds: runs and prints what its comments say, and is in the README', () => {
    const out = execFileSync(
      process.execPath,
      ['--conditions=@spkg/source', '--import', 'tsx', 'examples/bounds.ts'],
      { cwd: pkg, encoding: 'utf8' },
    )
    expect(out).toBe("20000\n[ 'manifest/too-long /description' ]\nundefined\n")
    const readme = readFileSync(join(pkg, 'README.md'), 'utf8')
    expect(readme).toContain(readFileSync(join(pkg, 'examples/bounds.ts'), 'utf8').trim())
  })
})
