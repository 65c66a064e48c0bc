import { join } from 'node:path'
import { exampleAndReadme, runExampleFile } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'

const pkg = join(import.meta.dirname, '..')

describe('the README example', () => {
  it('runs and prints what its comments say', () => {
    const out = runExampleFile(pkg)
    expect(out).toContain('The Crooked Inn packaged story/0001-inn.sty\n')
    expect(out).toContain("[ 'story/0001-inn.sty', 'story/0002-forest-edge.sty' ]\n")
    expect(out).toContain('You push the door of the inn.\n')
    expect(out).toContain("false [ 'pkg/unsafe-path' ]\n")
  })

  it('is the same code as in the README', () => {
    const { example, readme } = exampleAndReadme(pkg)
    expect(readme).toContain(example)
  })
})
