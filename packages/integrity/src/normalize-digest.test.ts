import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { normalizeDigest, toSriDigest } from './normalize-digest'

const HEX = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
const SRI = 'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='

describe('normalizeDigest', () => {
  it.each([
    [HEX, HEX],
    [HEX.toUpperCase(), HEX],
    [SRI, HEX],
  ])('normalises %s', (input, output) => {
    expect(normalizeDigest(input)).toBe(output)
  })

  it.each([
    ['too short hex', HEX.slice(0, 62)],
    ['non-hex characters', `${HEX.slice(0, 63)}g`],
    ['another algorithm', 'sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb'],
    ['sha256 SRI without padding', SRI.slice(0, -1)],
    ['sha256 SRI of 31 bytes', 'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFQ=='],
    ['SRI with base64url alphabet', 'sha256-ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0='],
    ['SRI with non-canonical trailing bits', 'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa1='],
    ['empty string', ''],
    ['prefix with spaces', ` ${HEX.slice(1)}`],
  ])('refuses %s', (_name, input) => {
    expect(normalizeDigest(input)).toBeUndefined()
  })

  it('refuses non-string input from untyped JSON', () => {
    expect(normalizeDigest(42 as unknown as string)).toBeUndefined()
  })

  it('converts hex to the SRI form fetch() takes', () => {
    expect(toSriDigest(HEX)).toBe(SRI)
    expect(toSriDigest('nope')).toBeUndefined()
  })

  const digestBytes = fc.uint8Array({ minLength: 32, maxLength: 32 })
  test.prop([digestBytes, fc.boolean(), fc.boolean()])(
    'is idempotent and agrees between hex and SRI',
    (bytes, upper, sri) => {
      const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
      const input = sri ? toSriDigest(hex)! : upper ? hex.toUpperCase() : hex
      const once = normalizeDigest(input)
      expect(once).toBe(hex)
      expect(normalizeDigest(once!)).toBe(once)
      expect(normalizeDigest(toSriDigest(input)!)).toBe(hex)
    },
  )

  test.prop([fc.string()])('never throws and returns canonical hex or undefined', (s) => {
    const out = normalizeDigest(s)
    if (out !== undefined) expect(out).toMatch(/^[0-9a-f]{64}$/)
  })
})
