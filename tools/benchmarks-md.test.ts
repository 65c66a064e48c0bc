import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildBenchmarksMd, demote } from './benchmarks-md.ts'

const root = join(import.meta.dirname, '..')

describe('BENCHMARKS.md', () => {
  it('is what `pnpm benchmarks:md` builds from the bench results files', () => {
    expect(readFileSync(join(root, 'BENCHMARKS.md'), 'utf8')).toBe(buildBenchmarksMd(root))
  })

  it('demotes headings outside code fences and titles the section', () => {
    const md = '# bench/x\n\ntext\n\n## Run\n\n```sh\n# a shell comment\n```\n'
    expect(demote(md, 'X (issue 9)')).toBe(
      '## X (issue 9)\n\ntext\n\n### Run\n\n```sh\n# a shell comment\n```',
    )
  })
})
