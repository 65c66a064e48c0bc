import { fc, test } from '@fast-check/vitest'
import { importKeyWithoutEd25519, isEd25519Algorithm } from '@spkg/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { nobleEd25519 } from '../ed25519-noble'
import { fromHex } from './bytes'
import { type Ed25519Fallback, ed25519Backend, ed25519Verifier, forceEd25519Backend } from './ed25519'
import { ed25519PublicKey, ed25519Sign } from './ed25519-sign'

// RFC 8032 §7.1 test 2 (one-byte message 0x72).
const SEED = fromHex('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb')!
const PK = fromHex('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c')!
const MSG = new Uint8Array([0x72])
const SIG = fromHex(
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
)!

afterEach(() => forceEd25519Backend(undefined))

/** Verifies with the backend in use, the opt-in `@noble/ed25519` fallback passed. */
async function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) {
  const verify = await ed25519Verifier(nobleEd25519)
  if (!verify) throw new Error('no Ed25519 verification')
  return verify(publicKey, message, signature)
}

describe('Ed25519 backends', () => {
  it('detects WebCrypto Ed25519 on Node', async () => {
    expect(await ed25519Backend()).toBe('webcrypto')
  })

  describe.each(['webcrypto', 'noble'] as const)('%s', (backend) => {
    it('matches the RFC 8032 vector', async () => {
      forceEd25519Backend(backend)
      expect(await ed25519Backend()).toBe(backend)
      expect(await ed25519PublicKey(SEED)).toEqual(PK)
      expect(await ed25519Sign(SEED, MSG)).toEqual(SIG)
      expect(await ed25519Verify(PK, MSG, SIG)).toBe(true)
    })

    it('rejects a changed message, signature or key, and garbage keys, without throwing', async () => {
      forceEd25519Backend(backend)
      expect(await ed25519Verify(PK, new Uint8Array([0x73]), SIG)).toBe(false)
      const badSig = SIG.slice()
      badSig[5]! ^= 1
      expect(await ed25519Verify(PK, MSG, badSig)).toBe(false)
      expect(await ed25519Verify(new Uint8Array(32).fill(0xff), MSG, SIG)).toBe(false)
      expect(await ed25519Verify(PK.slice(1), MSG, SIG)).toBe(false)
      expect(await ed25519Verify(PK, MSG, SIG.slice(1))).toBe(false)
    })
  })

  describe('without WebCrypto Ed25519', () => {
    it('verifies only through a fallback the caller passes', async () => {
      forceEd25519Backend('noble')
      expect(await ed25519Verifier()).toBeUndefined()
      const verify = await ed25519Verifier(nobleEd25519)
      expect(await verify?.(PK, MSG, SIG)).toBe(true)
    })

    it('asks the fallback nothing while WebCrypto has Ed25519', async () => {
      const fallback: Ed25519Fallback = { verify: vi.fn(async () => false) }
      expect(await (await ed25519Verifier(fallback))?.(PK, MSG, SIG)).toBe(true)
      expect(fallback.verify).not.toHaveBeenCalled()
    })

    it('answers false, never throws, when a fallback throws or gets wrong lengths', async () => {
      forceEd25519Backend('noble')
      const throwing: Ed25519Fallback = {
        verify: vi.fn(async () => {
          throw new Error('not a point')
        }),
      }
      const verify = await ed25519Verifier(throwing)
      expect(await verify?.(PK, MSG, SIG)).toBe(false)
      expect(await verify?.(PK.slice(1), MSG, SIG)).toBe(false)
      expect(throwing.verify).toHaveBeenCalledTimes(1)
    })
  })

  test.prop([fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 200 })], {
    numRuns: 15,
  })('both backends produce and accept the same signatures', async (seed, message) => {
    forceEd25519Backend('webcrypto')
    const a = await ed25519Sign(seed, message)
    forceEd25519Backend('noble')
    const b = await ed25519Sign(seed, message)
    expect(b).toEqual(a)
    const pk = await ed25519PublicKey(seed)
    expect(await ed25519Verify(pk, message, a)).toBe(true)
    forceEd25519Backend('webcrypto')
    expect(await ed25519Verify(pk, message, b)).toBe(true)
  })
})

describe('Ed25519 detection falls back to @noble/ed25519 (passed for verification)', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.resetModules()
  })

  // A fresh copy of the module: detection runs once per module instance.
  const fresh = async () => {
    vi.resetModules()
    const m = await import('./ed25519')
    const { nobleEd25519 } = await import('../ed25519-noble')
    return {
      ...m,
      ...(await import('./ed25519-sign')),
      ed25519Verify: async (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) =>
        (await m.ed25519Verifier(nobleEd25519))?.(publicKey, message, signature),
    }
  }

  it('when WebCrypto does not know Ed25519 (importKey throws, as in older browsers)', async () => {
    const spy = vi
      .spyOn(crypto.subtle, 'importKey')
      .mockImplementation(importKeyWithoutEd25519(crypto.subtle.importKey.bind(crypto.subtle)))
    const m = await fresh()
    expect(await m.ed25519Backend()).toBe('noble')
    // Signing and verifying still work, and never ask WebCrypto for Ed25519 again.
    const calls = spy.mock.calls.length
    expect(await m.ed25519Sign(SEED, MSG)).toEqual(SIG)
    expect(await m.ed25519Verify(PK, MSG, SIG)).toBe(true)
    expect(await m.ed25519Verify(PK, new Uint8Array([0x73]), SIG)).toBe(false)
    expect(spy.mock.calls.slice(calls).filter((c) => isEd25519Algorithm(c[2]))).toEqual([])
  })

  it('when WebCrypto has Ed25519 but fails the RFC 8032 vector', async () => {
    const verify = crypto.subtle.verify.bind(crypto.subtle)
    vi.spyOn(crypto.subtle, 'verify').mockImplementation(((...args: Parameters<typeof verify>) =>
      isEd25519Algorithm(args[0]) ? Promise.resolve(false) : verify(...args)) as typeof crypto.subtle.verify)
    const m = await fresh()
    expect(await m.ed25519Backend()).toBe('noble')
    expect(await m.ed25519Verify(PK, MSG, SIG)).toBe(true)
  })

  it('and keeps WebCrypto when it passes the vector', async () => {
    const m = await fresh()
    expect(await m.ed25519Backend()).toBe('webcrypto')
  })
})
