import { isUtf8 as nodeIsUtf8 } from 'node:buffer'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { isAscii, isUtf8 } from './utf8'

describe('web UTF-8 check', () => {
  it('takes ASCII at every alignment and length, and finds a high byte anywhere', () => {
    const buffer = new Uint8Array(64).fill(0x41)
    for (let offset = 0; offset < 8; offset++)
      for (let length = 0; length <= 40; length++) {
        const view = buffer.subarray(offset, offset + length)
        expect(isAscii(view)).toBe(true)
        for (let at = 0; at < length; at++) {
          view[at] = 0xc3
          expect(isAscii(view)).toBe(false)
          view[at] = 0x41
        }
      }
  })

  it('accepts valid UTF-8 beyond ASCII and refuses invalid bytes and a lone BOM-like prefix', () => {
    expect(isUtf8(new TextEncoder().encode('Café ☕ 𝄞'))).toBe(true)
    expect(isUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x48]))).toBe(true)
    expect(isUtf8(new Uint8Array([0x48, 0xff]))).toBe(false)
    expect(isUtf8(new Uint8Array([0xc3]))).toBe(false)
    expect(isUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(false) // a UTF-16 surrogate
  })

  test.prop([fc.uint8Array({ maxLength: 64 }), fc.nat(7)])(
    'agrees with node:buffer isUtf8',
    (bytes, offset) => {
      const buffer = new Uint8Array(bytes.length + offset)
      buffer.set(bytes, offset)
      const view = buffer.subarray(offset)
      expect(isUtf8(view)).toBe(nodeIsUtf8(view))
    },
  )
})
