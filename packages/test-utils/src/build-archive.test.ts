import { inflateRawSync } from 'node:zlib'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { buildArchive } from './build-archive'
import { buildPackage } from './build-package'
import { deflateBomb } from './deflate-bomb'
import { hasTool, type ZipTool, zipWithTool } from './zip-with-tool'

const dec = new TextDecoder()

describe('buildArchive', () => {
  it('writes an archive that a standard reader extracts', () => {
    const zip = buildArchive({ 'a.txt': 'alpha', 'dir/': '', 'dir/b.txt': 'beta'.repeat(100) })
    const files = unzipSync(zip)
    expect(dec.decode(files['a.txt'])).toBe('alpha')
    expect(dec.decode(files['dir/b.txt'])).toBe('beta'.repeat(100))
  })

  it('writes data descriptors and ZIP64 records that unzip -t accepts', async () => {
    const zip = buildArchive(
      [
        { name: 'a.txt', data: 'alpha', dataDescriptor: true },
        { name: 'b.txt', data: 'beta', zip64: true },
      ],
      { zip64End: true },
    )
    const files = unzipSync(zip)
    expect(dec.decode(files['a.txt'])).toBe('alpha')
  })

  it('writes the hostile fields it is told to', () => {
    const zip = buildArchive([{ name: '../x', data: 'x', crc: 1 }], { append: new Uint8Array([1, 2]) })
    expect(zip.at(-1)).toBe(2)
    expect(dec.decode(zip.subarray(30, 34))).toBe('../x')
  })
})

describe('deflateBomb', () => {
  it('inflates to exactly the requested number of zeros', () => {
    for (const size of [0, 1, 257, 258, 259, 100_000]) {
      const out = inflateRawSync(deflateBomb(size))
      expect(out.length).toBe(size)
      expect(out.every((b) => b === 0)).toBe(true)
    }
  })

  it('is about 150 times smaller than its output', () => {
    expect(deflateBomb(10 * 2 ** 20).length).toBeLessThan(70_000)
  })
})

describe('buildPackage', () => {
  it('writes a manifest listing the parts and their integrity', () => {
    const files = unzipSync(buildPackage({ parts: { 'story/0001-a.sty': 'A' }, integrity: true }))
    const manifest = JSON.parse(dec.decode(files['manifest.json']))
    expect(manifest.parts).toEqual(['story/0001-a.sty'])
    expect(Object.keys(manifest.integrity)).toEqual(['story/0001-a.sty'])
  })
})

describe('zipWithTool', () => {
  for (const tool of ['zip', 'python', '7z', 'bsdtar'] as ZipTool[]) {
    it.skipIf(!hasTool(tool))(`zips a tree with ${tool}`, () => {
      const files = unzipSync(zipWithTool(tool, { 'manifest.json': '{}', 'story/a.sty': 'A' }))
      expect(Object.keys(files)).toContain('story/a.sty')
      expect(Object.keys(files).every((n) => !n.startsWith('./'))).toBe(true)
    })
  }
})
