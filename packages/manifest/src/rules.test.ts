import { describe, expect, it } from 'vitest'
import { checkArchivePath, isLanguageTag, parseManifest } from './index'
import { COMMON_SAFE_PATH, SAFE_SEGMENT } from './paths'

const ID = '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14'
const codes = (m: Record<string, unknown>) => parseManifest({ id: ID, ...m }).diagnostics.map((d) => d.code)

describe('cross-field rules', () => {
  it('warns that preload and locked need progressive loading', () => {
    const parts = [{ file: 'story/a.sty', name: 'A' }]
    expect(codes({ parts, preload: ['story/a.sty'], locked: ['story/a.sty'] })).toEqual([
      'manifest/progressive-only',
      'manifest/progressive-only',
    ])
    expect(codes({ parts, loading: 'progressive', preload: ['story/a.sty'] })).toEqual([])
  })
  it('refuses instruction on an instruction package and stories on a story package', () => {
    expect(codes({ type: 'instruction', instruction: 'x', stories: ['a'] })).toEqual([
      'manifest/type-mismatch',
    ])
    expect(codes({ stories: ['a'] })).toEqual(['manifest/type-mismatch'])
    expect(codes({ type: 'story', instruction: 'howto' })).toEqual([])
  })
  it('accepts cooperative readers counts and refuses non-integers', () => {
    expect(codes({ readers: [1, 2, 4] })).toEqual([])
    expect(codes({ readers: [1.5, -1] })).toEqual(['manifest/invalid-readers', 'manifest/invalid-readers'])
  })
  it('checks age bounds', () => {
    expect(codes({ age: { min: 10 } })).toEqual([])
    expect(codes({ age: { min: -1, max: 3.5 } })).toEqual([
      'manifest/invalid-value',
      'manifest/invalid-value',
    ])
  })
  it('reports duplicate parts, assets and extensions', () => {
    expect(
      codes({
        parts: ['story/a.sty', 'story/a.sty'],
        assets: ['assets/x.png', 'assets/x.png'],
        extensions: ['extensions/a.xty', 'extensions/a.xty'],
      }).filter((c) => c !== 'manifest/normalized'),
    ).toEqual(['manifest/duplicate-entry', 'manifest/duplicate-entry', 'manifest/duplicate-entry'])
  })
  it('keeps integrity to files other than manifest.json and META-PKG', () => {
    const h = 'a'.repeat(64)
    expect(codes({ integrity: { 'META-PKG/author.pub': h, 'story/a.sty': h } })).toEqual([
      'manifest/integrity-self',
    ])
    expect(codes({ integrity: { '../a.sty': h } })).toEqual(['manifest/unsafe-path'])
  })
  it('finds the one bad path of a long list, a path spanning lines included', () => {
    const h = 'a'.repeat(64)
    const found = (m: Record<string, unknown>) =>
      parseManifest({ id: ID, ...m }).diagnostics.map((d) => [d.code, d.field])
    const files = ['story/a.sty', 'story/b.sty', 'story/c.sty']
    const parts = (bad: string) => [...files, bad].map((file) => ({ file, name: 'N' }))
    expect(found({ parts: parts('story/d.sty') })).toEqual([])
    expect(found({ parts: parts('story/d.sty\nstory/e.sty') })).toEqual([
      ['manifest/unsafe-path', '/parts/3/file'],
    ])
    expect(found({ parts: parts('') })).toEqual([['manifest/unsafe-path', '/parts/3/file']])
    expect(found({ parts: parts('assets/d.sty') })).toEqual([['manifest/path-outside-dir', '/parts/3/file']])
    expect(found({ parts: parts('story/d.txt') })).toEqual([['manifest/invalid-value', '/parts/3/file']])
    expect(found({ parts: parts('story/a.sty') })).toEqual([['manifest/duplicate-entry', '/parts/3']])
    const integrity = (bad: string) => Object.fromEntries([...files, bad].map((f) => [f, h]))
    expect(found({ integrity: integrity('assets/x.png') })).toEqual([])
    expect(found({ integrity: integrity('a\nb') })).toEqual([['manifest/unsafe-path', '/integrity/a\nb']])
    expect(found({ integrity: integrity('a/') })).toEqual([['manifest/unsafe-path', '/integrity/a~1']])
    expect(found({ integrity: integrity('META-PKG/sig') })).toEqual([
      ['manifest/integrity-self', '/integrity/META-PKG~1sig'],
    ])
    expect(
      found({ parts: parts('story/a.sty'), integrity: integrity('a/'), assets: ['assets/x', 'assets/x'] }),
    ).toEqual([
      ['manifest/normalized', '/assets'],
      ['manifest/unsafe-path', '/integrity/a~1'],
      ['manifest/duplicate-entry', '/parts/3'],
      ['manifest/duplicate-entry', '/assets/1'],
    ])
    expect(found({ integrity: integrity('manifest.json') })).toEqual([
      ['manifest/integrity-self', '/integrity/manifest.json'],
    ])
  })
  it('warns about unknown versions but still loads', () => {
    const r = parseManifest({ id: ID, story_lang: '1.2', manifest: '2.0' })
    expect(r.manifest).toBeDefined()
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['manifest/unknown-version', 'warning'],
      ['manifest/unknown-version', 'warning'],
    ])
  })
  it('refuses duplicate aliases of allowed URLs', () => {
    const u = { alias: 'a', url: 'https://example.org' }
    expect(codes({ allowed_urls: [u, u] })).toEqual(['manifest/duplicate-alias'])
  })
  it('refuses control characters in the title and the author names, naming the code point', () => {
    expect(codes({ title: 'The Inn', author: [{ name: 'Ann Lee' }] })).toEqual([])
    // Printable non-ASCII is fine: accents, no-break space, right-to-left scripts.
    expect(codes({ title: 'Été\u00a0à l\u2019auberge', author: [{ name: 'فاطمة' }] })).toEqual([])
    for (const c of ['\u0000', '\u0009', '\u000a', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f']) {
      const r = parseManifest({ id: ID, title: `A${c}B`, author: ['Ann', { name: `${c}x` }] })
      expect(r.diagnostics.map((d) => [d.code, d.severity, d.field])).toEqual([
        ['manifest/normalized', 'info', '/author'],
        ['manifest/invalid-value', 'error', '/title'],
        ['manifest/invalid-value', 'error', '/author/1/name'],
      ])
      const hex = c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
      expect(r.diagnostics[1]!.message).toBe(
        `"title" contains a control character (U+${hex} at character 2); display text must be printable.`,
      )
      // The message never carries the character itself; the value is kept as written.
      expect(r.diagnostics.some((d) => d.message.includes(c))).toBe(false)
      expect(r.manifest?.title).toBe(`A${c}B`)
    }
    expect(codes({ title: 'ok\u00a0\u00a0' })).toEqual([])
  })
})

describe('checkArchivePath', () => {
  it('has one safe-segment pattern: SAFE_SEGMENT rebuilds COMMON_SAFE_PATH exactly', () => {
    expect(`^${SAFE_SEGMENT}(?:\\/${SAFE_SEGMENT})*$`).toBe(COMMON_SAFE_PATH.source)
  })
  it.each([
    ['', 'is empty'],
    ['/abs.sty', 'is absolute (paths are relative to the archive root)'],
    ['C:/x.sty', 'starts with a drive letter'],
    ['story\\a.sty', 'contains a backslash (use forward slashes)'],
    ['story/../a.sty', 'has a ".." segment'],
    ['./manifest.json', 'has a "." segment'],
    ['story//a.sty', 'has an empty segment (a doubled or trailing slash)'],
    ['story/', 'has an empty segment (a doubled or trailing slash)'],
    ['https://evil.example/a.png', 'is a URL (media are never fetched from the network)'],
    ['//evil.example/a.png', 'is a protocol-relative URL (media are never fetched from the network)'],
    ['story/a\u0000.sty', 'contains a control character'],
    ['story/a\u007f.sty', 'contains a control character'],
    ['story/a\u0085.sty', 'contains a control character'],
    ['story/\u009b2J.sty', 'contains a control character'],
  ])('refuses %j: %s', (p, why) => expect(checkArchivePath(p)).toBe(why))
  it.each(['story/0001-inn.sty', 'assets/cover.webp', 'a.sty', 'assets/été/ü.png', 'story/a..b.sty'])(
    'accepts %j',
    (p) => expect(checkArchivePath(p)).toBeUndefined(),
  )
})

describe('isLanguageTag', () => {
  it.each(['en', 'pt-BR', 'zh-Hant-TW', 'de-CH-1996', 'es-419', 'sr-Latn'])('accepts %s', (t) =>
    expect(isLanguageTag(t)).toBe(true),
  )
  it.each(['english', 'en_US', 'e', '', 'en-', '123', 'en--US'])('refuses %j', (t) =>
    expect(isLanguageTag(t)).toBe(false),
  )
})
