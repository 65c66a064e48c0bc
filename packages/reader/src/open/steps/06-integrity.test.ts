import { createHash } from 'node:crypto'
import { createChecksumFile } from '@spkg/integrity'
import { buildArchive, buildPackage, packageFiles } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { nodeBackend } from '../../node/backend'
import { prepareOpening } from '../open-archive'
import type { Opening } from '../opening'
import { verifyEntries } from './05-entries'
import { checkIntegrity, needsHashes } from './06-integrity'

const enc = new TextEncoder()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

/** Steps 1 to 6 on `bytes`: the findings of step 6 and whether step 5 hashed. */
async function integrityOf(bytes: Uint8Array) {
  const o = (await prepareOpening(bytes, {}, nodeBackend, false)) as Opening
  const before = o.diagnostics.length
  const hash = needsHashes(o)
  const hashes = await verifyEntries(o, nodeBackend, hash, undefined)
  checkIntegrity(o, hashes!)
  return { hash, found: o.diagnostics.slice(before).map((d) => [d.code, d.severity, d.path]) }
}

describe('step 6: integrity and checksums', () => {
  it('hashes nothing and checks nothing without integrity or a checksum file', async () => {
    expect(await integrityOf(buildPackage())).toEqual({ hash: false, found: [] })
  })

  it('passes matching hashes and refuses a differing one, naming the file', async () => {
    expect(await integrityOf(buildPackage({ integrity: true }))).toEqual({ hash: true, found: [] })
    const files = packageFiles({ integrity: true })
    files.set('story/0001-start.sty', enc.encode('Tampered.\n'))
    expect((await integrityOf(buildArchive(Object.fromEntries(files)))).found).toEqual([
      ['pkg/integrity-mismatch', 'fatal', 'story/0001-start.sty'],
    ])
  })

  it('checks META-PKG/checksum.sha256 (closed world) without integrity', async () => {
    const files = packageFiles()
    files.set(
      'META-PKG/checksum.sha256',
      createChecksumFile(new Map([...files].map(([k, v]) => [k, sha(v)]))),
    )
    expect(await integrityOf(buildArchive(Object.fromEntries(files)))).toEqual({ hash: true, found: [] })
    files.set('assets/new.png', enc.encode('n'))
    expect((await integrityOf(buildArchive(Object.fromEntries(files)))).found.map((f) => f[0])).toContain(
      'pkg/checksum-unlisted-file',
    )
  })
})
