import { describe, expect, it } from 'vitest'
import { parseEncryptionKey } from './parse-encryption-key'

const key = new Uint8Array(32).map((_, i) => i * 3)
const hex = Buffer.from(key).toString('hex')
const b64 = Buffer.from(key).toString('base64')

describe('parseEncryptionKey', () => {
  it.each([
    ['hex', hex],
    ['uppercase hex with a newline', `${hex.toUpperCase()}\n`],
    ['base64', b64],
    ['base64 bytes', new TextEncoder().encode(`  ${b64}\n`)],
  ])('reads %s', (_n, text) => {
    expect(parseEncryptionKey(text)).toEqual(key)
  })

  it.each([
    ['short hex', hex.slice(2)],
    ['16-byte base64', Buffer.alloc(16).toString('base64')],
    ['empty', ''],
    ['words', 'my secret'],
  ])('refuses %s with pkg/decrypt-failed', (_n, text) => {
    expect(() => parseEncryptionKey(text)).toThrow(expect.objectContaining({ code: 'pkg/decrypt-failed' }))
  })
})
