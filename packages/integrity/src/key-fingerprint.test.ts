import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fromHex } from './internal/bytes'
import { FINGERPRINT_PATTERN, keyFingerprint } from './key-fingerprint'

// RFC 8032 §7.1 test 2's public key; the expected value was computed outside the package
// (`createHash('sha256').update(pk).digest('base64')`), so a change of recipe (hashing the signify
// record, hex instead of base64, another hash) fails here.
const PK = fromHex('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c')!
const EXPECTED = 'ed25519:OfcT0KZEJT8EUpQhufUbmwiXnQgpWVnE85kO5hf1E58='
// The same key in signify's public-key form ("Ed", an 8-byte key number, the raw key).
const SIGNIFY_PUB =
  'untrusted comment: test public key\nRWQBAgMEBQYHCD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM\n'

describe('keyFingerprint', () => {
  it('is ed25519: and the base64 SHA-256 of the raw 32-byte public key (known answer)', async () => {
    expect(await keyFingerprint(PK)).toBe(EXPECTED)
    expect(EXPECTED).toBe(`ed25519:${createHash('sha256').update(PK).digest('base64')}`)
    expect(EXPECTED).toMatch(FINGERPRINT_PATTERN)
  })

  it('gives the same fingerprint for the key in signify form, as text or bytes', async () => {
    expect(await keyFingerprint(SIGNIFY_PUB)).toBe(EXPECTED)
    expect(await keyFingerprint(new TextEncoder().encode(SIGNIFY_PUB))).toBe(EXPECTED)
  })

  it('refuses a key that is neither 32 bytes nor a signify public key', async () => {
    await expect(keyFingerprint(new Uint8Array(31))).rejects.toMatchObject({ code: 'pkg/key-malformed' })
    await expect(keyFingerprint('not a key')).rejects.toMatchObject({ code: 'pkg/key-malformed' })
  })
})
