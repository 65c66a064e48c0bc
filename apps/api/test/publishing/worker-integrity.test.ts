/**
 * The `integrity` map the validation worker returns for a package that declares none: the SHA-256 of every file
 * but the manifest and META-PKG/, stored or deflated, whatever the archive's shape (data descriptors, extra fields,
 * a ZIP64 end record, a decoy end record in the comment), taken from the reader's hashes when it computed them
 * (a checksum file) and from its entry views otherwise.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createChecksumFile } from '@spkg/integrity'
import { buildArchive, buildPackage, packageFiles } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createValidationPool, type ValidationPool } from '../../src/publishing/validation-pool'

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
const expected = (files: Map<string, Uint8Array>) =>
  Object.fromEntries(
    [...files]
      .filter(([p]) => p !== 'manifest.json' && !p.startsWith('META-PKG/'))
      .map(([p, b]) => [p, sha(b)]),
  )

describe('the integrity map the worker computes', () => {
  let dir: string
  let pool: ValidationPool
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spkg-integrity-'))
    pool = createValidationPool({ workers: 1 })
  })
  afterAll(async () => {
    await pool.close()
    await rm(dir, { recursive: true, force: true })
  })
  const validate = async (name: string, bytes: Uint8Array) => {
    await writeFile(join(dir, name), bytes)
    const out = await pool.validate({ file: join(dir, name), trustedKeys: [], coverTypes: ['png'] })
    expect(out.valid, JSON.stringify(out.diagnostics)).toBe(true)
    return out
  }

  it('hashes every file, stored (data descriptor, extra field) and deflated', async () => {
    const out = await validate('p.spkg', buildPackage(spec))
    expect(out.integrity).toEqual(expected(packageFiles(spec)))
    expect(out.cover?.sha256).toBe(sha(packageFiles(spec).get('assets/cover.png')!))
  }, 60_000)

  it('hashes the same whatever end records the archive has', async () => {
    const bytes = buildPackage(spec)
    // The archive's own end record (pointing at the same directory) inside the comment, followed by more text.
    const comment = new Uint8Array([...bytes.subarray(bytes.length - 22), 0x41, 0x42])
    for (const shape of [{ comment }, { append: new Uint8Array(512) }, { zip64End: true }]) {
      const out = await validate('shaped.spkg', buildPackage(spec, shape))
      expect(out.integrity).toEqual(expected(packageFiles(spec)))
    }
  }, 60_000)

  it('takes the hashes the reader checked against a checksum file', async () => {
    const files = packageFiles(spec)
    files.set(
      'META-PKG/checksum.sha256',
      createChecksumFile(new Map([...files].map(([k, v]) => [k, sha(v)]))),
    )
    const out = await validate('checksum.spkg', buildArchive(Object.fromEntries(files)))
    expect(out.integrity).toEqual(expected(files))
  }, 60_000)
})
