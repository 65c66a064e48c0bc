import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { afterAll, describe, expect, it } from 'vitest'
import { compareUtf8, createChecksumFile, parseChecksumFile } from './checksum-file'

const enc = new TextEncoder()
const dec = new TextDecoder()
const hex = (s: string) => createHash('sha256').update(s).digest('hex')
const h = (c: string) => c.repeat(64)

function hasTool(name: string): boolean {
  try {
    execFileSync(name, ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('createChecksumFile', () => {
  it('writes GNU text-mode lines sorted by raw bytes, skipping the checksum and signature files', () => {
    const text = dec.decode(
      createChecksumFile({
        'story/b.sty': h('B'),
        'Zebra.txt': h('2'),
        'manifest.json': h('1'),
        'META-PKG/checksum.sha256': h('3'),
        'META-PKG/signature.sig': h('4'),
        'META-PKG/author.pub': h('5'),
        'é.txt': h('6'),
        'story/a.sty': h('a'),
      }),
    )
    expect(text).toBe(
      [
        `${h('5')}  META-PKG/author.pub`,
        `${h('2')}  Zebra.txt`,
        `${h('1')}  manifest.json`,
        `${h('a')}  story/a.sty`,
        `${h('b')}  story/b.sty`,
        `${h('6')}  é.txt`,
        '',
      ].join('\n'),
    )
  })

  it('orders by UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80) in bytes but after it in UTF-16 units.
    expect(compareUtf8('\uFF21', '\u{1F600}')).toBeLessThan(0)
    expect('\uFF21' < '\u{1F600}').toBe(false)
  })

  it.each([
    ['a newline', 'a\nb'],
    ['a carriage return', 'a\rb'],
    ['a backslash', 'a\\b'],
    ['nothing', ''],
    ['a lone surrogate', 'a\uD800'],
  ])('refuses a path with %s', (_n, path) => {
    expect(() => createChecksumFile({ [path]: h('a') })).toThrow(TypeError)
  })

  it('refuses a hash that is not SHA-256', () => {
    expect(() => createChecksumFile({ a: 'abc' })).toThrow("the hash of 'a' is not a SHA-256 digest")
  })

  it('writes an empty file for an archive with no coverable files', () => {
    expect(createChecksumFile(new Map())).toEqual(new Uint8Array())
  })
})

describe('parseChecksumFile', () => {
  const good = `${h('1')}  manifest.json\n${h('a')}  story/a b.sty\n`

  it('parses well-formed lines (paths may contain spaces)', () => {
    const { entries, diagnostics } = parseChecksumFile(enc.encode(good))
    expect(diagnostics).toEqual([])
    expect([...entries]).toEqual([
      ['manifest.json', h('1')],
      ['story/a b.sty', h('a')],
    ])
  })

  it.each([
    ['uppercase hex', `${h('A')}  a\n`, 1, 'the hash must be lowercase hex'],
    ['binary marker', `${h('a')} *a\n`, 1, 'binary-mode marker `*`: use text mode (two spaces)'],
    ['one space', `${h('a')} a\n`, 1, 'not a `<64 lowercase hex>  <path>` line'],
    ['a blank line', `${h('a')}  a\n\n${h('b')}  b\n`, 2, 'blank line'],
    ['CRLF', `${h('a')}  a\r\n`, 1, 'carriage return in the line (lines end with LF only)'],
    [
      'a GNU escape',
      `\\${h('a')}  a\\\\b\n`,
      1,
      'escaped GNU line (paths with \\ or newlines are not allowed)',
    ],
    ['a duplicate', `${h('a')}  a\n${h('b')}  a\n`, 2, "'a' is listed twice"],
    [
      'unsorted lines',
      `${h('a')}  b\n${h('b')}  a\n`,
      2,
      "'a' is out of order: lines must be sorted by raw bytes (LC_ALL=C sort)",
    ],
    [
      'itself',
      `${h('a')}  META-PKG/checksum.sha256\n`,
      1,
      "'META-PKG/checksum.sha256' cannot be listed in the checksum file",
    ],
    ['a BOM', `\uFEFF${h('a')}  a\n`, 1, 'the checksum file starts with a byte-order mark'],
  ])('reports %s as pkg/checksum-malformed', (_n, text, line, message) => {
    const { diagnostics } = parseChecksumFile(enc.encode(text))
    expect(diagnostics).toEqual([
      { code: 'pkg/checksum-malformed', severity: 'error', message, path: 'META-PKG/checksum.sha256', line },
    ])
  })

  it('reports a missing final line feed but keeps the line', () => {
    const { entries, diagnostics } = parseChecksumFile(enc.encode(`${h('a')}  a`))
    expect(diagnostics.map((d) => d.message)).toEqual(['the checksum file does not end with a line feed'])
    expect(entries.get('a')).toBe(h('a'))
  })

  it('reports invalid UTF-8 and an empty file', () => {
    expect(parseChecksumFile(new Uint8Array([0xff, 0x0a])).diagnostics[0]?.message).toBe(
      'the checksum file is not valid UTF-8',
    )
    expect(parseChecksumFile(new Uint8Array()).diagnostics[0]?.code).toBe('pkg/checksum-malformed')
  })

  const path = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    .filter((s) => !/[\n\r\\]/.test(s) && s !== 'META-PKG/checksum.sha256' && s !== 'META-PKG/signature.sig')
  const digest = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'))
  test.prop([fc.dictionary(path, digest, { maxKeys: 30 })])('create → parse round-trips', (record) => {
    const bytes = createChecksumFile(record)
    const { entries, diagnostics } = parseChecksumFile(bytes)
    if (Object.keys(record).length === 0) return
    expect(diagnostics).toEqual([])
    expect(Object.fromEntries(entries)).toEqual(record)
    expect(createChecksumFile(entries)).toEqual(bytes)
  })
})

describe.skipIf(!hasTool('sha256sum'))('interop with GNU sha256sum', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-checksum-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('sha256sum -c --strict accepts the file from the extracted root, and rejects a changed file', () => {
    const files: Record<string, string> = {
      'manifest.json': '{"id":"x"}',
      'story/0001-start.sty': 'Hello\n',
      'story/sub dir/ünïcode name.sty': 'x',
      'assets/Cover.PNG': 'png',
      'META-PKG/author.pub': 'untrusted comment: x\nabc\n',
    }
    for (const [p, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true })
      writeFileSync(join(dir, p), content)
    }
    const checksum = createChecksumFile(new Map(Object.entries(files).map(([p, c]) => [p, hex(c)])))
    writeFileSync(join(dir, 'META-PKG/checksum.sha256'), checksum)
    const out = execFileSync('sha256sum', ['-c', '--strict', 'META-PKG/checksum.sha256'], {
      cwd: dir,
      env: { ...process.env, LC_ALL: 'C' },
    }).toString()
    expect(out.trim().split('\n')).toHaveLength(5)
    // Lines are in the order `LC_ALL=C sort` gives the list of paths.
    const paths = Object.keys(files).join('\n') + '\n'
    const sorted = execFileSync('sort', { input: paths, env: { ...process.env, LC_ALL: 'C' } }).toString()
    const listed = dec
      .decode(checksum)
      .split('\n')
      .slice(0, -1)
      .map((l) => l.slice(66))
    expect(listed).toEqual(sorted.split('\n').slice(0, -1))
    writeFileSync(join(dir, 'story/0001-start.sty'), 'Changed\n')
    expect(() =>
      execFileSync('sha256sum', ['-c', '--strict', '--quiet', 'META-PKG/checksum.sha256'], {
        cwd: dir,
        stdio: 'pipe',
      }),
    ).toThrow()
  })

  it('accepts what sha256sum itself writes in text mode for the same files', () => {
    writeFileSync(join(dir, 'plain.txt'), 'plain')
    const produced = execFileSync('sha256sum', ['plain.txt'], { cwd: dir })
    const { entries, diagnostics } = parseChecksumFile(new Uint8Array(produced))
    expect(diagnostics).toEqual([])
    expect(entries.get('plain.txt')).toBe(hex('plain'))
  })
})

describe('compareUtf8', () => {
  const str = fc.string({ unit: 'grapheme', maxLength: 8 })
  test.prop([str, str])('orders exactly like a byte comparison of the UTF-8 encodings', (a, b) => {
    const x = Buffer.from(a, 'utf8')
    const y = Buffer.from(b, 'utf8')
    expect(Math.sign(compareUtf8(a, b))).toBe(Buffer.compare(x, y))
  })
})
