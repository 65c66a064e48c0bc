import { encryptPackage, isEncryptedPackage } from '@spkg/integrity/encrypt'
import { describe, expect, it } from 'vitest'
import { isEncrypted } from './encrypted-magic'

describe('isEncrypted', () => {
  it('agrees with @spkg/integrity on containers, prefixes and near misses', async () => {
    const container = await encryptPackage(
      new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]),
      new Uint8Array(32).fill(7),
    )
    const magic = container.subarray(0, 8)
    const cases: Uint8Array[] = [
      container,
      magic,
      magic.subarray(0, 7),
      new Uint8Array(0),
      new Uint8Array([0x50, 0x4b, 3, 4]),
      ...Array.from({ length: 8 }, (_, i) => {
        const changed = magic.slice()
        changed[i] = (changed[i] ?? 0) ^ 1
        return changed
      }),
    ]
    for (const bytes of cases) expect(isEncrypted(bytes)).toBe(isEncryptedPackage(bytes))
    expect(isEncrypted(container)).toBe(true)
  })
})
