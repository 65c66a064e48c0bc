import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runExample } from '../examples/basic'

it('runs the README example with the documented output', async () => {
  const lines: string[] = []
  await runExample((l) => lines.push(l))
  expect(lines).toEqual([
    'checksum lines: 4',
    'integrity: 0 problems',
    'checksums: 0 problems',
    'signature: verified',
    'without a trusted key: untrusted (pkg/untrusted-key)',
    'encrypted 28 → 80 bytes, decrypted 28',
    'wrong key: pkg/decrypt-failed',
  ])
})

it('is the same code as the README example (a reformatted copy there had become invalid code)', () => {
  const pkg = join(import.meta.dirname, '..')
  const readme = readFileSync(join(pkg, 'README.md'), 'utf8')
  const example = readFileSync(join(pkg, 'examples/basic.ts'), 'utf8')
  expect(readme).toContain(`\`\`\`ts\n${example.trim()}\n\`\`\``)
})
