import { createHash } from 'node:crypto'
import { buildPackage, deflateBomb } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { nodeBackend } from '../../node/backend'
import { webBackend } from '../../zip/backend'
import { prepareOpening } from '../open-archive'
import type { Opening } from '../opening'
import { verifyEntries } from './05-entries'

const sha = (s: string) => createHash('sha256').update(s).digest('hex')
const opening = async (bytes: Uint8Array, maxUncompressedBytes?: number) =>
  (await prepareOpening(
    bytes,
    maxUncompressedBytes ? { limits: { maxUncompressedBytes } } : {},
    nodeBackend,
    false,
  )) as Opening

describe.each([
  ['web', webBackend],
  ['node', nodeBackend],
])('step 5: every entry (%s backend)', (_, backend) => {
  const parts = { 'story/0002-b.sty': 'B\n', 'story/0001-a.sty': 'A\n' }

  it('hashes every visible file in archive order when asked, and none otherwise', async () => {
    const bytes = buildPackage({ parts, files: { '.DS_Store': 'd' } })
    const hashes = await verifyEntries(await opening(bytes), backend, true, undefined)
    expect([...hashes!]).toEqual([
      ['manifest.json', expect.any(String)],
      ['story/0002-b.sty', sha('B\n')],
      ['story/0001-a.sty', sha('A\n')],
    ])
    expect((await verifyEntries(await opening(bytes), backend, false, undefined))?.size).toBe(0)
  })

  it('reports text that is not UTF-8 or starts with a BOM, and reads on', async () => {
    const o = await opening(
      buildPackage({
        parts: { 'story/0001-a.sty': new Uint8Array([0x41, 0xff]), 'story/0002-b.sty': '\ufeffB' },
      }),
    )
    const before = o.diagnostics.length
    expect(await verifyEntries(o, backend, false, undefined)).toBeDefined()
    expect(o.diagnostics.slice(before).map((d) => [d.code, d.path])).toEqual([
      ['pkg/invalid-text', 'story/0001-a.sty'],
      ['pkg/text-bom', 'story/0002-b.sty'],
    ])
  })

  it('stops a bomb at the shared budget and a bad CRC-32', async () => {
    const bomb = buildPackage({
      files: { 'story/bomb.sty': 'x' },
      entry: { 'story/bomb.sty': { payload: deflateBomb(4 * 2 ** 20), size: 10, crc: 0 } },
    })
    const o = await opening(bomb, 2 ** 20)
    const before = o.diagnostics.length
    expect(await verifyEntries(o, backend, false, undefined)).toBeUndefined()
    expect(o.diagnostics.slice(before).map((d) => d.code)).toEqual(['pkg/too-large'])
    const crc = await opening(buildPackage({ entry: { 'story/0001-start.sty': { crc: 1 } } }))
    const at = crc.diagnostics.length
    expect(await verifyEntries(crc, backend, false, undefined)).toBeUndefined()
    expect(crc.diagnostics.slice(at).map((d) => d.code)).toEqual(['pkg/corrupt-entry'])
  })

  it('rejects with the reason when the signal aborts', async () => {
    const o = await opening(buildPackage({ parts }))
    await expect(verifyEntries(o, backend, true, AbortSignal.abort(new Error('stop')))).rejects.toThrow(
      'stop',
    )
  })
})

describe('step 5: hashing with WebCrypto', () => {
  it('asks for the hashes of small files together, not after each file', async () => {
    const parts = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`story/${String(i).padStart(4, '0')}-p.sty`, `part ${i}\n`]),
    )
    const o = await opening(buildPackage({ parts }))
    // Which call came when: x for an entry inflated, h for a hash asked.
    let log = ''
    const inflater = webBackend.inflater
    const backend = {
      ...webBackend,
      inflater: {
        inflateRaw: (i: Uint8Array, d: number, l: number) => {
          log += 'x'
          return inflater.inflateRaw(i, d, l)
        },
      },
      sha256Hex: async (data: Uint8Array) => {
        log += 'h'
        return sha(Buffer.from(data).toString())
      },
    }
    const hashes = await verifyEntries(o, backend, true, undefined)
    expect(hashes?.get('story/0042-p.sty')).toBe(sha('part 42\n'))
    // Every file inflated before the first hash is asked (they fit one batch), then 101 hashes.
    expect(log).toBe(`${'x'.repeat(101)}${'h'.repeat(101)}`)
  })
})
