import { createHash } from 'node:crypto'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as nodeHash from './node'
import { sha256, sha256Hex } from './sha256'

const abc = new TextEncoder().encode('abc')
const ABC_HEX = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'

describe('sha256 (WebCrypto) and @spkg/integrity/node', () => {
  it('gives the FIPS 180-2 test vector for "abc"', async () => {
    expect(await sha256Hex(abc)).toBe(ABC_HEX)
    expect(await nodeHash.sha256Hex(abc)).toBe(ABC_HEX)
    expect(nodeHash.sha256HexSync(abc)).toBe(ABC_HEX)
    expect((await sha256(abc)).length).toBe(32)
  })

  it('hashes the empty input', async () => {
    expect(await sha256Hex(new Uint8Array())).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    )
  })

  it('hashes only the viewed range of a subarray', async () => {
    const big = new Uint8Array([0, 0, 97, 98, 99, 0])
    expect(await sha256Hex(big.subarray(2, 5))).toBe(ABC_HEX)
    expect(await nodeHash.sha256Hex(big.subarray(2, 5))).toBe(ABC_HEX)
  })

  test.prop([fc.uint8Array({ maxLength: 3000 })], { numRuns: 50 })(
    'WebCrypto, node:crypto and the reference agree',
    async (bytes) => {
      const expected = createHash('sha256').update(bytes).digest('hex')
      expect(await sha256Hex(bytes)).toBe(expected)
      expect(await nodeHash.sha256Hex(bytes)).toBe(expected)
      expect(Array.from(await nodeHash.sha256(bytes))).toEqual(Array.from(await sha256(bytes)))
      expect(Array.from(nodeHash.sha256Sync(bytes))).toEqual(Array.from(await sha256(bytes)))
    },
  )
})
