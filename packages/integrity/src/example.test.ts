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
