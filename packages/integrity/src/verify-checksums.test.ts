import { describe, expect, it } from 'vitest'
import { createChecksumFile } from './checksum-file'
import { verifyChecksums } from './verify-checksums'

const h = (c: string) => c.repeat(64)
const hashes = new Map([
  ['manifest.json', h('0')],
  ['story/a.sty', h('a')],
  ['META-PKG/author.pub', h('e')],
  ['META-PKG/checksum.sha256', h('d')],
  ['META-PKG/signature.sig', h('f')],
])

describe('verifyChecksums', () => {
  it('accepts a checksum file covering every file except itself and the signature', () => {
    expect(verifyChecksums(hashes, createChecksumFile(hashes))).toEqual([])
  })

  it('refuses a changed file (fatal pkg/integrity-mismatch naming the file)', () => {
    const changed = new Map(hashes).set('story/a.sty', h('b'))
    expect(verifyChecksums(changed, createChecksumFile(hashes))).toEqual([
      {
        code: 'pkg/integrity-mismatch',
        severity: 'fatal',
        message: `SHA-256 of 'story/a.sty' does not match META-PKG/checksum.sha256: expected ${h('a')}, got ${h('b')}`,
        path: 'story/a.sty',
      },
    ])
  })

  it('reports a file the checksum file does not list (closed world)', () => {
    const more = new Map(hashes).set('story/extra.sty', h('c'))
    expect(verifyChecksums(more, createChecksumFile(hashes))).toEqual([
      {
        code: 'pkg/checksum-unlisted-file',
        severity: 'error',
        message:
          "'story/extra.sty' is in the archive but not in META-PKG/checksum.sha256; every file must be listed",
        path: 'story/extra.sty',
      },
    ])
  })

  it('reports a listed file that is absent', () => {
    const fewer = new Map(hashes)
    fewer.delete('story/a.sty')
    expect(verifyChecksums(fewer, createChecksumFile(hashes))).toEqual([
      {
        code: 'pkg/checksum-missing-file',
        severity: 'error',
        message: "'story/a.sty' is listed in META-PKG/checksum.sha256 but absent from the archive",
        path: 'story/a.sty',
      },
    ])
  })

  it('passes malformed-line diagnostics through', () => {
    const bytes = new TextEncoder().encode(`${h('0')}  manifest.json`)
    const codes = verifyChecksums(new Map([['manifest.json', h('0')]]), bytes).map((d) => d.code)
    expect(codes).toEqual(['pkg/checksum-malformed'])
  })
})
