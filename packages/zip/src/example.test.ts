import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runExample } from '../examples/basic'

it('runs the README example with the documented output', () => {
  const lines: string[] = []
  runExample((l) => lines.push(l))
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
  expect(readme).toContain(`It prints:\n\n\`\`\`\n${lines.join('\n')}\n\`\`\``)
  expect(lines.at(-1)).toBe('hostile: refused (pkg/unsafe-path)')
})

it('is the same code as the README example', () => {
  const pkg = join(import.meta.dirname, '..')
  const readme = readFileSync(join(pkg, 'README.md'), 'utf8')
  const example = readFileSync(join(pkg, 'examples/basic.ts'), 'utf8')
  expect(readme).toContain(`\`\`\`ts\n${example.trim()}\n\`\`\``)
})
