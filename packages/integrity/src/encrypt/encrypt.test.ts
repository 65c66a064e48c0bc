import { createDecipheriv, createHash, hkdfSync } from 'node:crypto'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  decryptPackage,
  encryptPackage,
  generateEncryptionKey,
  isEncryptedPackage,
  openEncryptedPackage,
} from '../encrypt'

const KiB = 1024
const C = 64 * KiB
const key = new Uint8Array(32).map((_, i) => i)
const random = (n: number) => {
  const b = new Uint8Array(n)
  for (let o = 0; o < n; o += 65536) crypto.getRandomValues(b.subarray(o, Math.min(n, o + 65536)))
  return b
}

/** Byte equality without vitest's slow deep diff on large arrays. */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)

async function expectCode(p: Promise<unknown>, code: string, message?: string | RegExp) {
  await expect(p).rejects.toMatchObject({ code, name: 'SpkgError' })
  if (message) await expect(p).rejects.toThrow(message)
}

/** Independent reading of the documented format with node:crypto, to pin the bytes. */
function nodeDecrypt(sealed: Uint8Array, master: Uint8Array): Uint8Array {
  const header = sealed.subarray(0, 36)
  const chunk = 2 ** header[10]!
  const payloadKey = Buffer.from(hkdfSync('sha256', master, header.subarray(12, 28), 'spkg-enc/v1', 32))
  const out: Buffer[] = []
  let offset = 36
  for (let i = 0; offset < sealed.length; i++) {
    const end = Math.min(offset + chunk + 16, sealed.length)
    const last = end === sealed.length
    const iv = Buffer.alloc(12)
    iv.writeUIntBE(i, 5, 6)
    iv[11] = last ? 1 : 0
    const d = createDecipheriv('aes-256-gcm', payloadKey, iv)
    d.setAAD(header)
    d.setAuthTag(sealed.subarray(end - 16, end))
    out.push(d.update(sealed.subarray(offset, end - 16)), d.final())
    offset = end
  }
  return new Uint8Array(Buffer.concat(out))
}

describe('encryptPackage / decryptPackage', () => {
  it('writes the documented header and matches an independent node:crypto reading', async () => {
    const plain = random(C + 5)
    const salt = new Uint8Array(16).fill(0xab)
    const sealed = await encryptPackage(plain, key, { salt })
    expect(new TextDecoder().decode(sealed.subarray(0, 7))).toBe('SPKGENC')
    expect([...sealed.subarray(7, 12)]).toEqual([0, 1, 1, 16, 0])
    expect(sealed.subarray(12, 28)).toEqual(salt)
    expect(sealed.subarray(28, 36)).toEqual(
      new Uint8Array(createHash('sha256').update(key).digest()).subarray(0, 8),
    )
    expect(sealed.length).toBe(36 + plain.length + 2 * 16)
    expect(same(nodeDecrypt(sealed, key), plain)).toBe(true)
    expect(isEncryptedPackage(sealed)).toBe(true)
    expect(isEncryptedPackage(plain)).toBe(false)
  })

  it.each([0, 1, C - 1, C, C + 1, 3 * C + 7])('round-trips %i bytes', async (n) => {
    const plain = random(n)
    const sealed = await encryptPackage(plain, key)
    expect(sealed.length).toBe(36 + n + Math.max(1, Math.ceil(n / C)) * 16)
    expect(same(await decryptPackage(sealed, key), plain)).toBe(true)
  })

  test.prop([fc.uint8Array({ maxLength: 5000 }), fc.integer({ min: 10, max: 12 })], { numRuns: 30 })(
    'round-trips arbitrary bytes with small chunks',
    async (plain, log2) => {
      const sealed = await encryptPackage(plain, key, { chunkSizeLog2: log2 })
      expect(await decryptPackage(sealed, key)).toEqual(plain)
    },
  )

  it('uses a fresh salt, so the same input encrypts differently each time', async () => {
    const plain = random(100)
    const a = await encryptPackage(plain, key)
    const b = await encryptPackage(plain, key)
    expect(a.subarray(36)).not.toEqual(b.subarray(36))
  })

  it('asks for a key when none is given (pkg/key-required)', async () => {
    const sealed = await encryptPackage(random(10), key)
    await expectCode(decryptPackage(sealed, undefined), 'pkg/key-required', 'no decryption key was supplied')
    await expectCode(openEncryptedPackage(sealed, undefined), 'pkg/key-required')
  })

  it('says "wrong key" with both key ids', async () => {
    const sealed = await encryptPackage(random(10), key)
    await expectCode(decryptPackage(sealed, generateEncryptionKey()), 'pkg/decrypt-failed', /^wrong key: /)
    await expectCode(decryptPackage(sealed, new Uint8Array(16)), 'pkg/decrypt-failed', 'must be 32 bytes')
  })

  describe('detects tampering', () => {
    const plain = random(3 * C + 100)
    const sealedP = encryptPackage(plain, key, { chunkSizeLog2: 16 })
    const stride = C + 16

    it('a flipped bit in a chunk', async () => {
      const s = (await sealedP).slice()
      s[36 + stride + 10]! ^= 1
      await expectCode(decryptPackage(s, key), 'pkg/decrypt-failed', 'chunk 2 of 4 failed authentication')
    })

    it('a changed salt (bound as additional data)', async () => {
      const s = (await sealedP).slice()
      s[20]! ^= 1
      await expectCode(decryptPackage(s, key), 'pkg/decrypt-failed', 'failed authentication')
    })

    it('a changed reserved byte, version or suite', async () => {
      for (const [at, message] of [
        [11, 'invalid container header'],
        [8, 'unsupported container version 2'],
        [9, 'unsupported cipher suite 2'],
      ] as const) {
        const s = (await sealedP).slice()
        s[at] = at === 11 ? 1 : 2
        await expectCode(decryptPackage(s, key), 'pkg/decrypt-failed', message)
      }
    })

    it('swapped chunks', async () => {
      const s = (await sealedP).slice()
      const a = s.slice(36, 36 + stride)
      s.copyWithin(36, 36 + stride, 36 + 2 * stride)
      s.set(a, 36 + stride)
      await expectCode(decryptPackage(s, key), 'pkg/decrypt-failed', 'chunk 1 of 4 failed authentication')
    })

    it('truncation at a chunk boundary (the final-chunk flag)', async () => {
      const s = (await sealedP).subarray(0, 36 + 3 * stride)
      await expectCode(decryptPackage(s, key), 'pkg/decrypt-failed', 'chunk 3 of 3 failed authentication')
      await expectCode(
        openEncryptedPackage(s, key),
        'pkg/decrypt-failed',
        'chunk 3 of 3 failed authentication',
      )
    })

    it('truncation inside a chunk, trailing bytes, and a bare header', async () => {
      const s = await sealedP
      await expectCode(decryptPackage(s.subarray(0, s.length - 1), key), 'pkg/decrypt-failed')
      await expectCode(decryptPackage(new Uint8Array([...s, 0]), key), 'pkg/decrypt-failed')
      await expectCode(
        decryptPackage(s.subarray(0, 36 + 3 * stride + 10), key),
        'pkg/decrypt-failed',
        'truncated',
      )
      await expectCode(decryptPackage(s.subarray(0, 40), key), 'pkg/decrypt-failed', 'truncated')
    })

    it('input that is not a container', async () => {
      await expectCode(
        decryptPackage(random(100), key),
        'pkg/decrypt-failed',
        'not an encrypted spkg container',
      )
      await expectCode(
        decryptPackage(new Uint8Array(), key),
        'pkg/decrypt-failed',
        'not an encrypted spkg container',
      )
    })
  })

  it('refuses bad encryption options with TypeError', async () => {
    await expect(encryptPackage(random(1), new Uint8Array(31))).rejects.toThrow(TypeError)
    await expect(encryptPackage(random(1), key, { chunkSizeLog2: 40 })).rejects.toThrow(TypeError)
    await expect(encryptPackage(random(1), key, { salt: new Uint8Array(3) })).rejects.toThrow(TypeError)
  })
})

describe('openEncryptedPackage (range reads)', () => {
  it('reads any range and decrypts only the chunks that cover it', async () => {
    const plain = random(5 * C + 123)
    const sealed = await encryptPackage(plain, key)
    const reads: [number, number][] = []
    const source = {
      size: sealed.length,
      read: async (o: number, n: number) => {
        reads.push([o, n])
        return sealed.subarray(o, o + n)
      },
    }
    const pkg = await openEncryptedPackage(source, key)
    expect(pkg.size).toBe(plain.length)
    expect(pkg.chunkSize).toBe(C)
    expect(reads).toEqual([
      [0, 36],
      [36 + 5 * (C + 16), 123 + 16],
    ])
    reads.length = 0
    expect(await pkg.read(plain.length - 22, 22)).toEqual(plain.subarray(plain.length - 22))
    expect(reads).toEqual([]) // the final chunk is cached
    expect(await pkg.read(C - 3, 6)).toEqual(plain.subarray(C - 3, C + 3))
    expect(reads).toEqual([[36, 2 * (C + 16)]])
    expect(same(await pkg.read(0, plain.length), plain)).toBe(true)
    expect(await pkg.read(7, 0)).toEqual(new Uint8Array())
    await expect(pkg.read(plain.length - 1, 2)).rejects.toThrow(RangeError)
    await expect(pkg.read(-1, 1)).rejects.toThrow(RangeError)
  })

  test.prop([fc.integer({ min: 0, max: 3 * 1024 + 50 }), fc.nat(), fc.nat()], { numRuns: 40 })(
    'agrees with slicing the plaintext',
    async (size, a, b) => {
      const plain = new Uint8Array(size).map((_, i) => (i * 7) % 251)
      const pkg = await openEncryptedPackage(await encryptPackage(plain, key, { chunkSizeLog2: 10 }), key)
      const start = size === 0 ? 0 : a % (size + 1)
      const length = (b % (size - start + 1)) | 0
      expect(await pkg.read(start, length)).toEqual(plain.subarray(start, start + length))
    },
  )

  it('reports a tampered chunk on the read that needs it, and a short read from the source', async () => {
    const plain = random(3 * C)
    const sealed = (await encryptPackage(plain, key)).slice()
    sealed[36 + 5]! ^= 1
    const pkg = await openEncryptedPackage(sealed, key)
    expect(await pkg.read(C, 10)).toEqual(plain.subarray(C, C + 10))
    await expectCode(pkg.read(0, 10), 'pkg/decrypt-failed', 'chunk 1 of 3 failed authentication')
    const short = { size: sealed.length, read: async (o: number, n: number) => sealed.subarray(o, o + n - 1) }
    await expectCode(openEncryptedPackage(short, key), 'pkg/decrypt-failed', 'short read')
  })
})
