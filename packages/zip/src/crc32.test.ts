import { crc32 as zlibCrc32 } from 'node:zlib'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { crc32 } from './crc32'

describe('crc32', () => {
  it('gives the check value', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926')
  })

  test.prop([fc.uint8Array({ maxLength: 80 }), fc.nat(7), fc.nat(0xffffffff)])(
    'equals zlib at every alignment, length and starting value',
    (bytes, offset, previous) => {
      const buffer = new Uint8Array(bytes.length + offset)
      buffer.set(bytes, offset)
      const view = buffer.subarray(offset)
      expect(crc32(view)).toBe(zlibCrc32(view))
      // Continuing from a value (zlib returns 0, not the value, for no bytes).
      if (view.length > 0) expect(crc32(view, previous)).toBe(zlibCrc32(view, previous))
      const cut = offset % (view.length + 1)
      expect(crc32(view.subarray(cut), crc32(view.subarray(0, cut)))).toBe(crc32(view))
    },
  )
})
