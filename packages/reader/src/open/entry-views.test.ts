import { createHash } from 'node:crypto'
import { createChecksumFile } from '@spkg/integrity'
import { buildArchive, buildPackage, packageFiles } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { innParts } from '../../test/helpers/inn-story'
import { staticServer, type TestServer } from '../../test/helpers/range-servers'
import * as web from '../index'
import * as node from '../node'
import { isProgressivePackage, type ProgressivePackage } from '../remote/progressive'
import type { OpenResult, PackageInput, SpkgPackage } from './types'

const enc = new TextEncoder()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

function opened(r: OpenResult): SpkgPackage {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.diagnostics, null, 1)}`)
  return r.package
}

/** `bytes` copied into the middle of a larger buffer, so that a view's offset must be counted from it. */
function inLargerBuffer(bytes: Uint8Array): Uint8Array {
  const backing = new Uint8Array(bytes.length + 96)
  backing.set(bytes, 64)
  return backing.subarray(64, 64 + bytes.length)
}

/** Where `needle` starts in `haystack` (it must occur once). */
function offsetOf(haystack: Uint8Array, needle: Uint8Array): number {
  const at = Buffer.from(haystack.buffer, haystack.byteOffset, haystack.length).indexOf(needle)
  expect(at).toBeGreaterThan(0)
  return at
}

const storedData = enc.encode('stored bytes, kept as they lie in the archive')
const smallDeflated = 'a deflated file small enough to be kept once inflated '.repeat(20)
const largeDeflated = 'a deflated file re-inflated on every read '.repeat(10_000)
const spec = {
  assets: {
    'assets/raw.bin': storedData,
    'assets/small.txt': smallDeflated,
    'assets/large.txt': largeDeflated,
  },
  entry: { 'assets/raw.bin': { method: 0 } },
}

const backends = [
  ['web backend', web.openPackage],
  ['node backend', node.openPackage],
] as const

describe.each(backends)('entry views and hashes, %s', (_, openPackage) => {
  const open = async (input: PackageInput) => opened(await openPackage(input))

  it('gives a stored entry as a view into the archive it was given, not a copy', async () => {
    const archive = inLargerBuffer(buildPackage(spec))
    const pkg = await open(archive)
    const view = await pkg.entryView('assets/raw.bin')
    expect(view).toEqual(storedData)
    expect(view.buffer).toBe(archive.buffer)
    expect(view.byteOffset).toBe(archive.byteOffset + offsetOf(archive, storedData))
    // readBytes still hands out a buffer of the caller's own.
    expect((await pkg.readBytes('assets/raw.bin')).buffer).not.toBe(archive.buffer)
  })

  it('views into an ArrayBuffer input', async () => {
    const archive = buildPackage(spec)
    const buffer = archive.slice().buffer
    const view = await (await open(buffer)).entryView('assets/raw.bin')
    expect(view.buffer).toBe(buffer)
    expect(view).toEqual(storedData)
  })

  it('gives a deflated entry inflated, as readBytes does, and a copy of what is kept', async () => {
    const pkg = await open(buildPackage(spec))
    for (const [path, text] of [
      ['assets/small.txt', smallDeflated],
      ['assets/large.txt', largeDeflated],
    ] as const) {
      const view = await pkg.entryView(path)
      expect(new TextDecoder().decode(view)).toBe(text)
      view.fill(0x21)
      expect(new TextDecoder().decode(await pkg.entryView(path))).toBe(text)
      expect(new TextDecoder().decode(await pkg.readBytes(path))).toBe(text)
    }
  })

  it('rejects an unknown path and a closed package with the codes readBytes gives', async () => {
    const pkg = await open(buildPackage(spec))
    await expect(pkg.entryView('assets/nope.bin')).rejects.toMatchObject({ code: 'pkg/missing-file' })
    await expect(pkg.readBytes('assets/nope.bin')).rejects.toMatchObject({ code: 'pkg/missing-file' })
    pkg.close()
    await expect(pkg.entryView('assets/raw.bin')).rejects.toMatchObject({ code: 'pkg/closed' })
  })

  it('hands out the SHA-256 of every file it hashed to check manifest.integrity', async () => {
    const files = packageFiles({ ...spec, integrity: true })
    const pkg = await open(buildPackage({ ...spec, integrity: true }))
    expect([...pkg.hashes.keys()].sort()).toEqual([...files.keys()].sort())
    for (const [path, data] of files) expect(pkg.hashes.get(path)).toBe(sha(data))
    expect(pkg.hashes.get('assets/large.txt')).toBe(sha(enc.encode(largeDeflated)))
  })

  it('hands out the hashes it checked against a checksum file', async () => {
    const files = packageFiles(spec)
    files.set(
      'META-PKG/checksum.sha256',
      createChecksumFile(new Map([...files].map(([k, v]) => [k, sha(v)]))),
    )
    const pkg = await open(buildArchive(Object.fromEntries(files)))
    expect(pkg.hashes.size).toBe(files.size)
    for (const [path, data] of files) expect(pkg.hashes.get(path)).toBe(sha(data))
  })

  it('has no hashes when nothing asked it to hash', async () => {
    expect((await open(buildPackage(spec))).hashes.size).toBe(0)
  })
})

describe('hashes of a progressive open', () => {
  let server: TestServer & { dir: string }
  const parts = innParts(60_000)
  const archive = buildPackage({ manifest: { loading: 'progressive' }, parts, integrity: true })
  beforeAll(async () => {
    server = await staticServer({ 'p.spkg': archive })
  })
  afterAll(() => server.close())

  it('leaves out the parts not fetched yet: their hashes were not computed', async () => {
    const r = await node.openPackageUrl(`${server.base}/p.spkg`)
    const pkg = opened(r)
    expect(isProgressivePackage(pkg)).toBe(true)
    const files = packageFiles({ manifest: { loading: 'progressive' }, parts, integrity: true })
    const loaded = (pkg as ProgressivePackage).loadedParts
    const later = Object.keys(parts).filter((p) => !loaded.has(p))
    expect(later.length).toBeGreaterThan(0)
    expect([...pkg.hashes.keys()].sort()).toEqual([...files.keys()].filter((p) => !later.includes(p)).sort())
    for (const [path, hash] of pkg.hashes) expect(hash).toBe(sha(files.get(path)!))
    // An entry view of a part still to fetch waits for it, as readBytes does.
    expect(await pkg.entryView(later[0]!)).toEqual(files.get(later[0]!))
    expect(loaded.has(later[0]!)).toBe(true)
    expect(await pkg.readBytes(later[0]!)).toEqual(files.get(later[0]!))
  })
})
