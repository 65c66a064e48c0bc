import { fc, test } from '@fast-check/vitest'
import { type ByteEdit, buildArchive, buildPackage, mutate, packageFiles } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import * as web from '../index'
import * as node from '../node'

const KiB = 1024
const noise = (n: number, seed: number) => {
  const out = new Uint8Array(n)
  let x = seed
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff
    out[i] = x >>> 16
  }
  return out
}
const cover = noise(3 * KiB, 1)
const big = (n: number) =>
  buildPackage({
    manifest: { title: 'The Long Road', cover: 'assets/cover.png' },
    assets: { 'assets/cover.png': cover, 'assets/film.webm': noise(n, 2) },
    parts: { 'story/0001-a.sty': 'A road.\n'.repeat(50), 'story/0002-b.sty': 'B\n' },
    entry: { 'assets/film.webm': { method: 0 }, 'assets/cover.png': { method: 0 } },
  })

/** A Blob that counts the bytes read through it, and whether it was read whole. */
class CountingBlob extends Blob {
  read = 0
  whole = false
  override slice(start?: number, end?: number, type?: string): Blob {
    const part = super.slice(start, end, type)
    this.read += part.size
    return part
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    this.whole = true
    return super.arrayBuffer()
  }
}
const blobOf = (bytes: Uint8Array) => new CountingBlob([bytes as Uint8Array<ArrayBuffer>])

describe.each([
  ['web', web.peekPackage],
  ['node', node.peekPackage],
])('peekPackage of a Blob (%s entry)', (_, peekPackage) => {
  it('reads the tail, the directory and the manifest only, then what readBytes asks for', async () => {
    const blob = blobOf(big(8 * 1024 * KiB))
    const peek = await peekPackage(blob)
    expect(peek.ok && peek.manifest?.title).toBe('The Long Road')
    expect(blob.whole).toBe(false)
    // The first and the last 64 KiB (room for an archive comment): the manifest, the end records
    // and the central directory are in them.
    expect(blob.read).toBeLessThanOrEqual(2 * 64 * KiB + 200)
    const before = blob.read
    expect(peek.ok && (await peek.readBytes('assets/cover.png'))).toEqual(cover)
    expect(blob.read - before).toBeLessThan(cover.length + 2 * KiB)
    expect(blob.whole).toBe(false)
  })

  it('reads a manifest and a cover beyond the first 64 KiB, and a long local extra field', async () => {
    const files = [
      ...packageFiles({
        manifest: { title: 'Far', cover: 'assets/c.png' },
        assets: { 'assets/c.png': cover },
      }),
    ]
    const bytes = buildArchive([
      { name: 'assets/film.webm', data: noise(300 * KiB, 4), method: 0 },
      ...files.map(([name, data]) => ({ name, data, localExtra: new Uint8Array(4000).fill(0) })),
    ])
    const blob = blobOf(bytes)
    const peek = await peekPackage(blob)
    expect(peek.ok && peek.manifest?.title).toBe('Far')
    expect(peek.ok && (await peek.readBytes('assets/c.png'))).toEqual(cover)
    expect(blob.whole).toBe(false)
  })

  it('reads a central directory larger than the tail read, before the tail, and peeks as the bytes do', async () => {
    // 480 entries with long names: a central directory of about 115 KiB, after a 1 MiB film.
    const assets: Record<string, Uint8Array> = { 'assets/film.webm': noise(1024 * KiB, 5) }
    for (let i = 0; i < 480; i++) assets[`assets/${'long-folder-name/'.repeat(11)}${i}.txt`] = noise(8, i)
    const bytes = buildPackage({
      manifest: { title: 'Many', cover: 'assets/cover.png' },
      assets: { ...assets, 'assets/cover.png': cover },
      parts: { 'story/0001-a.sty': 'A.\n' },
      entry: { 'assets/film.webm': { method: 0 } },
    })
    const blob = blobOf(bytes)
    const peek = await peekPackage(blob)
    expect(peek.ok && peek.manifest?.title).toBe('Many')
    expect(blob.whole).toBe(false)
    expect(blob.read).toBeLessThan(bytes.length - 1000 * KiB + 64 * KiB)
    expect(peek.ok && (await peek.readBytes('assets/cover.png'))).toEqual(cover)
    const whole = await peekPackage(bytes)
    expect(peek.ok && whole.ok && peek.entries).toEqual(whole.ok && whole.entries)
    expect(blob.whole).toBe(false)
  })

  it('reads a small Blob whole, at once', async () => {
    const blob = blobOf(buildPackage())
    expect((await peekPackage(blob)).ok).toBe(true)
    expect(blob.whole).toBe(true)
  })

  it('reports a File that cannot be read by its name, as pkg/fetch-failed', async () => {
    const file = new (class extends File {
      override slice(): Blob {
        throw new Error('the file changed on disk')
      }
    })([big(200 * KiB) as Uint8Array<ArrayBuffer>], 'the-inn.spkg')
    const peek = await peekPackage(file)
    expect(peek).toEqual({
      ok: false,
      diagnostics: [
        expect.objectContaining({
          code: 'pkg/fetch-failed',
          message: 'The package file "the-inn.spkg" could not be read (the file changed on disk).',
        }),
      ],
    })
  })
})

const seeds = [
  big(300 * KiB),
  buildArchive(
    [...packageFiles({ assets: { 'assets/a.bin': noise(290 * KiB, 3) } })].map(([name, data]) => ({
      name,
      data,
      method: 0,
      dataDescriptor: true,
      zip64: true,
    })),
    { zip64End: true, comment: 'c'.repeat(300) },
  ),
]
const edit: fc.Arbitrary<ByteEdit> = fc.tuple(
  fc.nat(),
  fc.nat(255),
  fc.constantFrom('flip', 'cut', 'drop', 'insert', 'set' as const),
)
const verdict = async (peek: Awaited<ReturnType<typeof web.peekPackage>>) => ({
  ok: peek.ok,
  diagnostics: peek.diagnostics,
  ...(peek.ok
    ? {
        manifest: peek.manifest,
        entries: peek.entries,
        files: await Promise.all(
          peek.entries.map((e) =>
            peek.readBytes(e.path).then(
              (b) => b.length,
              (x: { code?: string }) => x.code,
            ),
          ),
        ),
      }
    : {}),
})

describe('the sliced peek of a Blob', () => {
  test.prop([fc.nat(seeds.length - 1), fc.array(edit, { maxLength: 3 })], { numRuns: 100 })(
    'reaches the verdict, diagnostics and reads of a peek of the whole bytes',
    async (which, edits) => {
      const bytes = mutate(seeds[which]!, edits)
      const blob = blobOf(bytes)
      expect(await verdict(await web.peekPackage(blob))).toEqual(await verdict(await web.peekPackage(bytes)))
    },
  )
})
