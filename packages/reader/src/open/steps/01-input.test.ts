import { encryptPackage } from '@spkg/integrity/encrypt'
import type { Diagnostic } from '@spkg/manifest'
import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { maxArchiveBytes } from '../input'
import { archiveBytes, readInput } from './01-input'

const codes = (d: Diagnostic[]) => d.map((x) => x.code)
const MAX = 50 * 1024 * 1024

describe('step 1: input', () => {
  it('takes bytes, an ArrayBuffer and a Blob as they are', async () => {
    const bytes = buildPackage()
    for (const input of [bytes, bytes.slice().buffer, new Blob([bytes as Uint8Array<ArrayBuffer>])]) {
      const out: Diagnostic[] = []
      expect(await readInput(input, {}, MAX, out)).toEqual(bytes)
      expect(out).toEqual([])
    }
  })

  it('refuses a Blob too large to be a package without reading it', async () => {
    let read = false
    const huge = new (class extends Blob {
      override get size() {
        return 2 * MAX
      }
      override arrayBuffer(): Promise<ArrayBuffer> {
        read = true
        return super.arrayBuffer()
      }
    })()
    const out: Diagnostic[] = []
    expect(await readInput(huge, {}, MAX, out)).toBeUndefined()
    expect(codes(out)).toEqual(['pkg/too-large'])
    expect(read).toBe(false)
  })

  it('refuses what is not bytes', async () => {
    const out: Diagnostic[] = []
    expect(await readInput('x' as unknown as Blob, {}, MAX, out)).toBeUndefined()
    expect(codes(out)).toEqual(['pkg/not-zip'])
  })

  it('decrypts an encrypted package with its key, and asks for the key without one', async () => {
    const key = new Uint8Array(32).fill(7)
    const plain = buildPackage()
    const sealed = await encryptPackage(plain, key)
    const out: Diagnostic[] = []
    expect(await archiveBytes(sealed, { decryptionKey: key }, MAX, out)).toEqual(plain)
    expect(await archiveBytes(sealed, {}, MAX, out)).toBeUndefined()
    expect(await archiveBytes(sealed, { decryptionKey: new Uint8Array(32) }, MAX, out)).toBeUndefined()
    expect(codes(out)).toEqual(['pkg/key-required', 'pkg/decrypt-failed'])
  })

  it('refuses an archive larger than any package within the limits', async () => {
    const out: Diagnostic[] = []
    const limit = 1000
    expect(await archiveBytes(new Uint8Array(maxArchiveBytes(limit) + 1), {}, limit, out)).toBeUndefined()
    expect(codes(out)).toEqual(['pkg/too-large'])
  })
})
