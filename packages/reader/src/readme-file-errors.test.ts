import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { openPackage } from './index'
import { openPackageFile, peekPackageFile } from './node'

// What the README promises for unreadable files (Node entry point) and for a closed package.
describe('openPackageFile and peekPackageFile on a file that cannot be read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-reader-file-'))
  it.each([
    ['a missing file', join(dir, 'nope.spkg'), 'ENOENT'],
    ['a directory', dir, 'EISDIR'],
  ])('resolve with pkg/fetch-failed for %s', async (_what, path, errno) => {
    for (const open of [openPackageFile, peekPackageFile]) {
      const r = await open(path)
      expect(r.ok).toBe(false)
      expect(r.diagnostics).toMatchObject([{ code: 'pkg/fetch-failed', severity: 'fatal' }])
      expect(r.diagnostics[0]?.message).toContain(errno)
    }
  })

  it('name the file by its base name, never the folders above it (no host path in a diagnostic)', async () => {
    const missing = join(dir, 'the-inn.spkg')
    for (const open of [openPackageFile, peekPackageFile]) {
      const [d] = (await open(missing)).diagnostics
      expect(d?.message).toBe('The package file "the-inn.spkg" could not be read (ENOENT).')
      const [folder] = (await open(dir)).diagnostics
      expect(folder?.message).toBe(`The package file "${basename(dir)}" could not be read (EISDIR).`)
      expect(folder?.message).not.toContain(tmpdir())
    }
  })
})

describe('a closed package', () => {
  it('rejects readBytes and readText with pkg/closed, not pkg/missing-file (the file is not missing)', async () => {
    const bytes = zipSync({
      'manifest.json': strToU8(
        JSON.stringify({ id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14', parts: ['story/a.sty'] }),
      ),
      'story/a.sty': strToU8('Hi.\n'),
    })
    const r = await openPackage(bytes)
    if (!r.ok) throw new Error('the package should open')
    expect(await r.package.readText('story/a.sty')).toBe('Hi.\n')
    r.package.close()
    const closed = {
      code: 'pkg/closed',
      message: 'The package is closed; "story/a.sty" cannot be read after close().',
    }
    await expect(r.package.readBytes('story/a.sty')).rejects.toMatchObject(closed)
    await expect(r.package.readText('story/a.sty')).rejects.toMatchObject(closed)
    await expect(r.package.storySource().readPart('story/a.sty')).rejects.toMatchObject({
      code: 'pkg/closed',
    })
    // Closed wins over unknown: any read after close() says why it failed.
    await expect(r.package.readBytes('nope')).rejects.toMatchObject({ code: 'pkg/closed' })
  })
})
