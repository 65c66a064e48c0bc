import { describe, expect, it } from 'vitest'
import { toSriDigest } from './normalize-digest'
import { verifyIntegrity } from './verify-integrity'

const h = (c: string) => c.repeat(64)
const hashes = new Map([
  ['manifest.json', h('0')],
  ['story/0001-start.sty', h('a')],
  ['story/0002-forest.sty', h('b')],
  ['assets/cover.png', h('c')],
  ['META-PKG/checksum.sha256', h('d')],
  ['META-PKG/author.pub', h('e')],
])
const full = {
  'story/0001-start.sty': h('a'),
  'story/0002-forest.sty': h('b'),
  'assets/cover.png': h('c'),
}

describe('verifyIntegrity', () => {
  it('accepts a complete, matching map (manifest.json and META-PKG/ need no entry)', () => {
    expect(verifyIntegrity(hashes, full, { layout: 'packaged' })).toEqual([])
  })

  it('accepts uppercase hex and sha256-<base64> values as looser input', () => {
    const loose = { ...full, 'story/0001-start.sty': h('A'), 'assets/cover.png': toSriDigest(h('c'))! }
    expect(verifyIntegrity(hashes, loose)).toEqual([])
  })

  it('refuses a file whose hash differs, naming the file (fatal)', () => {
    const d = verifyIntegrity(hashes, { ...full, 'story/0002-forest.sty': h('f') })
    expect(d).toEqual([
      {
        code: 'pkg/integrity-mismatch',
        severity: 'fatal',
        message: `SHA-256 of 'story/0002-forest.sty' does not match integrity: expected ${h('f')}, got ${h('b')}`,
        path: 'story/0002-forest.sty',
        field: '/integrity/story~10002-forest.sty',
      },
    ])
  })

  it('refuses a listed file that is absent from the archive (fatal: it cannot be verified)', () => {
    const d = verifyIntegrity(hashes, { ...full, 'story/0003-gone.sty': h('1') })
    expect(d.map((x) => [x.code, x.severity, x.path])).toEqual([
      ['pkg/integrity-missing-file', 'fatal', 'story/0003-gone.sty'],
    ])
    expect(d[0]!.message).toBe(
      "'story/0003-gone.sty' is listed in integrity but absent from the archive, so it cannot be verified",
    )
  })

  it('refuses a value that is not a SHA-256 digest as a mismatch (fatal: the file cannot be verified)', () => {
    const d = verifyIntegrity(hashes, { ...full, 'assets/cover.png': 'md5-abc' })
    expect(d.map((x) => [x.code, x.severity, x.path])).toEqual([
      ['pkg/integrity-mismatch', 'fatal', 'assets/cover.png'],
    ])
  })

  it('reports a packaged file that integrity omits (closed world, error)', () => {
    const { 'assets/cover.png': _omitted, ...partial } = full
    const d = verifyIntegrity(hashes, partial, { layout: 'packaged' })
    expect(d).toEqual([
      {
        code: 'pkg/integrity-unlisted-file',
        severity: 'error',
        message:
          "'assets/cover.png' is in the archive but not in integrity; every packaged file must be listed",
        path: 'assets/cover.png',
        field: '/integrity',
      },
    ])
  })

  it('does not apply the closed-world rule to the flat layout', () => {
    const flat = new Map([
      ['a.sty', h('a')],
      ['b.sty', h('b')],
    ])
    expect(verifyIntegrity(flat, { 'a.sty': h('a') }, { layout: 'flat' })).toEqual([])
    expect(verifyIntegrity(flat, { 'a.sty': h('b') }, { layout: 'flat' })[0]?.code).toBe(
      'pkg/integrity-mismatch',
    )
  })

  it('warns about and ignores entries for manifest.json and META-PKG/ files', () => {
    const d = verifyIntegrity(hashes, { ...full, 'manifest.json': h('9'), 'META-PKG/author.pub': h('9') })
    expect(d.map((x) => [x.code, x.severity, x.path])).toEqual([
      ['pkg/integrity-excluded-entry', 'warning', 'manifest.json'],
      ['pkg/integrity-excluded-entry', 'warning', 'META-PKG/author.pub'],
    ])
  })

  it('never throws on a missing or non-object map: absent declares nothing, anything else is malformed (fatal)', () => {
    for (const absent of [undefined, null]) expect(verifyIntegrity(hashes, absent as never)).toEqual([])
    for (const [bad, what] of [
      ['abc', 'a string'],
      [5, 'a number'],
      [true, 'a boolean'],
      [[h('a')], 'an array'],
    ] as const) {
      expect(verifyIntegrity(hashes, bad as never)).toEqual([
        {
          code: 'pkg/integrity-malformed',
          severity: 'fatal',
          message: `integrity must be an object mapping archive paths to SHA-256 digests, got ${what}, so no file can be verified`,
          path: 'manifest.json',
          field: '/integrity',
        },
      ])
    }
  })

  it('matches paths exactly (no ./ or case folding)', () => {
    const { 'assets/cover.png': _c, ...rest } = full
    const d = verifyIntegrity(hashes, { ...rest, './assets/cover.png': h('c') })
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['pkg/integrity-missing-file', './assets/cover.png'],
      ['pkg/integrity-unlisted-file', 'assets/cover.png'],
    ])
  })
})
