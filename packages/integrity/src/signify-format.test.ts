import { describe, expect, it } from 'vitest'
import { toBase64 } from './internal/bytes'
import { generateSigningKeys } from './sign'
import {
  formatSignifyPublicKey,
  formatSignifySignature,
  parseSignifyPublicKey,
  parseSignifySignature,
} from './signify-format'
import { parseSignifySecretKey } from './signify-secret-key'

const keyId = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])
const publicKey = new Uint8Array(32).fill(7)
const pubText = formatSignifyPublicKey({ comment: 'signify public key', keyId, publicKey })

describe('signify file formats', () => {
  it('round-trips a public key and a signature', () => {
    expect(pubText).toMatch(/^untrusted comment: signify public key\nRWQBAgMEBQYHCA[A-Za-z0-9+/=]+\n$/)
    expect(parseSignifyPublicKey(pubText)).toEqual({ comment: 'signify public key', keyId, publicKey })
    const signature = new Uint8Array(64).fill(9)
    const sigText = formatSignifySignature({ comment: 'verify with author.pub', keyId, signature })
    expect(parseSignifySignature(new TextEncoder().encode(sigText))).toEqual({
      comment: 'verify with author.pub',
      keyId,
      signature,
    })
  })

  it.each([
    [
      'no comment header',
      pubText.replace('untrusted comment: ', 'comment: '),
      'the first line must start with',
    ],
    ['an empty comment', pubText.replace('signify public key', ''), 'carry a comment'],
    ['no final line feed', pubText.slice(0, -1), 'missing line feed after the base64 line'],
    ['trailing content', `${pubText}extra\n`, 'unexpected content after the base64 line'],
    [
      'a signature instead',
      formatSignifySignature({ comment: 'c', keyId, signature: new Uint8Array(64) }),
      'right length',
    ],
    [
      'another algorithm',
      `untrusted comment: x\n${toBase64(new Uint8Array([0x45, 0x44, ...new Uint8Array(40)]))}\n`,
      'unsupported algorithm',
    ],
    ['bad base64', 'untrusted comment: x\n!!!!\n', 'right length'],
    ['binary garbage', new Uint8Array([0xff, 0xfe, 0x0a]), 'not UTF-8'],
  ])('refuses a public key with %s (pkg/key-malformed)', (_n, input, message) => {
    expect(() => parseSignifyPublicKey(input)).toThrow(expect.objectContaining({ code: 'pkg/key-malformed' }))
    expect(() => parseSignifyPublicKey(input)).toThrow(message)
  })

  it('refuses a malformed signature with pkg/signature-malformed', () => {
    expect(() => parseSignifySignature(pubText)).toThrow(
      expect.objectContaining({ code: 'pkg/signature-malformed' }),
    )
  })

  it('checks a secret key checksum and its public half', async () => {
    const keys = await generateSigningKeys()
    const parsed = await parseSignifySecretKey(keys.secretKeyText)
    expect(parsed.publicKey).toEqual(keys.publicKey)
    expect(parsed.seed).toEqual(keys.seed)
    const lines = keys.secretKeyText.split('\n')
    const record = Uint8Array.from(atob(lines[1]!), (c) => c.charCodeAt(0))
    record[50]! ^= 1 // flip a bit of the seed
    const corrupted = `${lines[0]}\n${toBase64(record)}\n`
    await expect(parseSignifySecretKey(corrupted)).rejects.toMatchObject({
      code: 'pkg/key-malformed',
      message: expect.stringContaining('checksum does not match'),
    })
  })

  it('refuses multi-line comments when writing', () => {
    expect(() => formatSignifyPublicKey({ comment: 'a\nb', keyId, publicKey })).toThrow(TypeError)
  })

  it('refuses comments longer than signify reads (1023 bytes) when writing', async () => {
    expect(() => formatSignifyPublicKey({ comment: 'x'.repeat(1024), keyId, publicKey })).toThrow(
      'a signify comment is at most 1023 bytes',
    )
    await expect(generateSigningKeys({ comment: 'é'.repeat(512) })).rejects.toThrow(TypeError)
    expect(formatSignifyPublicKey({ comment: 'x'.repeat(1023), keyId, publicKey })).toMatch(
      /^untrusted comment: x{1023}\n/,
    )
  })
})
