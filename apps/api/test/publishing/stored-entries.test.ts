/**
 * The validation worker hashes stored files where they lie in the archive (src/publishing/stored-entries.ts) instead
 * of through `readBytes` copies: the placed bytes are exactly the files', deflated or unplaceable entries are left to
 * the reader, and the integrity map the pool returns is the SHA-256 of every file either way.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildPackage, packageFiles } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { storedEntryData } from '../../src/publishing/stored-entries'
import { createValidationPool } from '../../src/publishing/validation-pool'

const spec = {
  manifest: { title: 'Stored', version: '1.0.0', cover: 'assets/cover.png', assets: ['assets/cover.png'] },
  parts: { 'story/0001-a.sty': '# A\n\nHello.\n' },
  assets: { 'assets/cover.png': new Uint8Array(4096).map((_, i) => (i * 7) % 251) },
  files: { 'assets/notes.txt': 'Notes, deflated.\n'.repeat(50) },
  entry: {
    'assets/cover.png': { method: 0, extra: new Uint8Array([0xfe, 0xca, 2, 0, 1, 2]) },
    'story/0001-a.sty': { method: 0, dataDescriptor: true },
    'assets/notes.txt': { method: 8 },
  },
}
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

describe('stored entries placed in the archive', () => {
  it('gives the bytes of every stored file (data descriptor, extra field) and none of the deflated ones', () => {
    const files = packageFiles(spec)
    const placed = storedEntryData(buildPackage(spec))
    expect(placed.get('assets/cover.png')).toEqual(files.get('assets/cover.png'))
    expect(placed.get('story/0001-a.sty')).toEqual(files.get('story/0001-a.sty'))
    expect(placed.has('assets/notes.txt')).toBe(false)
  })

  it('takes the end record the reader takes: the one that ends the archive, not one inside the comment', () => {
    const bytes = buildPackage(spec)
    // The archive's own end record (pointing at the same directory) inside the comment, followed by more text.
    const comment = new Uint8Array([...bytes.subarray(bytes.length - 22), 0x41, 0x42])
    const decoyed = buildPackage(spec, { comment })
    expect(storedEntryData(decoyed).get('assets/cover.png')).toEqual(
      packageFiles(spec).get('assets/cover.png'),
    )
    const padded = buildPackage(spec, { append: new Uint8Array(512) })
    expect(storedEntryData(padded).get('story/0001-a.sty')).toEqual(
      packageFiles(spec).get('story/0001-a.sty'),
    )
  })

  it('places nothing without a classic end record and its directory right before it', () => {
    expect(storedEntryData(buildPackage(spec, { zip64End: true })).size).toBe(0)
    expect(storedEntryData(buildPackage(spec, { end: { cdOffset: 0 } })).size).toBe(0)
    expect(storedEntryData(new Uint8Array(100)).size).toBe(0)
  })

  it('the worker computes the integrity map of every file, stored and deflated', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spkg-stored-'))
    const pool = createValidationPool({ workers: 1 })
    try {
      await writeFile(join(dir, 'p.spkg'), buildPackage(spec))
      const out = await pool.validate({ file: join(dir, 'p.spkg'), trustedKeys: [], coverTypes: ['png'] })
      expect(out.valid, JSON.stringify(out.diagnostics)).toBe(true)
      const expected = Object.fromEntries(
        [...packageFiles(spec)].filter(([p]) => p !== 'manifest.json').map(([p, b]) => [p, sha(b)]),
      )
      expect(out.integrity).toEqual(expected)
      expect(out.cover?.sha256).toBe(expected['assets/cover.png'])
    } finally {
      await pool.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
