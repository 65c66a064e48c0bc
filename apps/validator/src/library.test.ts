import { openAsBlob } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { packFolder, validatePackageBytes } from '@spkg/validator/validate'
import { describe, expect, it } from 'vitest'

const inn = join(import.meta.dirname, '../../../examples/crooked-inn')

describe('@spkg/validator/validate', () => {
  it('runs the README example: packs the example folder and validates the bytes', async () => {
    const packed = await packFolder(inn, 'crooked-inn')
    expect(packed.bytes).toBeInstanceOf(Uint8Array)
    const report = await validatePackageBytes(packed.bytes as Uint8Array)
    expect(report.valid).toBe(true)
    expect(report.manifest?.title).toBe('The Crooked Inn')
  })

  it('validates a file-backed Blob and hands the opened package to onOpened', async () => {
    const packed = await packFolder(inn, 'crooked-inn')
    const dir = await mkdtemp(join(tmpdir(), 'spkg-lib-'))
    try {
      const file = join(dir, 'inn.spkg')
      await writeFile(file, packed.bytes as Uint8Array)
      let status: string | undefined
      const report = await validatePackageBytes(await openAsBlob(file), {
        onOpened: async (pkg) => {
          status = pkg.signature.status
        },
      })
      expect(report.loads).toBe(true)
      expect(status).toBe('unsigned')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reports a refused package without throwing', async () => {
    const report = await validatePackageBytes(new TextEncoder().encode('not a zip'))
    expect(report.loads).toBe(false)
    expect(report.diagnostics[0]?.severity).toBe('fatal')
  })
})
