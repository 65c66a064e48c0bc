import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256HexSync } from './sha256'

const enc = new TextEncoder()

describe('sha256HexSync (plain JavaScript)', () => {
  // FIPS 180-4 / NIST CSRC example vectors.
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
  ])('hashes %j to the published digest', (text, hex) => {
    expect(sha256HexSync(enc.encode(text))).toBe(hex)
  })

  it('hashes a million "a" to the published digest', () => {
    expect(sha256HexSync(new Uint8Array(1_000_000).fill(0x61))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    )
  })

  it('agrees with node:crypto around every padding boundary and on random inputs', () => {
    const lengths = [1, 55, 56, 57, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 1000, 4095, 4096, 65_537]
    for (let i = 0; i < 200; i++) lengths.push(Math.floor(Math.random() * 20_000))
    for (const n of lengths) {
      const data = randomBytes(n)
      expect(sha256HexSync(data), `length ${n}`).toBe(createHash('sha256').update(data).digest('hex'))
    }
  })

  it('hashes a view into a larger buffer by its own bytes only', () => {
    const big = randomBytes(300)
    const view = big.subarray(17, 217)
    expect(sha256HexSync(view)).toBe(createHash('sha256').update(view).digest('hex'))
  })
})
