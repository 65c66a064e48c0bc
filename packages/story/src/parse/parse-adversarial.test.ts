// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * Hostile sources: very long lines built to trigger quadratic scans or deep recursion. Each must
 * parse to diagnostics, neither throwing nor hanging (the project's test timeout bounds a hang;
 * no duration is asserted).
 */
import { describe, expect, it } from 'vitest'
import { checkStory } from '../check/check-story.ts'
import { parseModule } from './parse-module.ts'
import { parseStory } from './parse-story.ts'

const N = 50_000
const CASES: Record<string, string> = {
  'unclosed brackets': `a ${'['.repeat(N)}`,
  'nested closed brackets': `a ${'[x'.repeat(N)}${']'.repeat(N)}`,
  'brackets in an option label': `* ${'[['.repeat(N)}`,
  'unclosed braces': `a ${'{'.repeat(N)}`,
  'interpolation openers': `a ${'${'.repeat(N)}`,
  'many interpolations': '${a}'.repeat(N / 4),
  'many interpolations after astral characters': '\u{1F600}${a}'.repeat(N / 5),
  stars: `${'*'.repeat(N)} x`,
  hashes: `x ${' #'.repeat(N)}`,
  'spaces before a heading id': `# t${' '.repeat(N)}x [#id]`,
  'spaces in an option': `* t${' '.repeat(N)}x`,
  'spaces before tags': `x${' '.repeat(N)}y #tag`,
  'arrows in an option': `* a${' ->'.repeat(N)}`,
  'arrows before tags': `x${' -> #a'.repeat(N / 4)}`,
  'escaped quotes': `\${"${'\\"'.repeat(N)}}`,
  'link separators': `[${'a > '.repeat(N / 4)} b.sty]`,
  'backslashes inside a line': `a${'\\'.repeat(N)}b`,
  'heading ids': `# x${' [#a]'.repeat(N / 4)}`,
  'operator chain': `{set x = ${'1+'.repeat(N)}1}`,
  'field chain': `\${a${'.b'.repeat(N)}}`,
  'call chain': `\${${'f('.repeat(N)}}`,
  'nested ifs': '{if x}\n'.repeat(N / 10),
  'nested inline ifs': `a${'{if x}'.repeat(N)}${'{end}'.repeat(N)}`,
  'unclosed inline ifs over many lines': 'a {if x}\n'.repeat(N),
  'nested options': Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}* o`).join('\n'),
}

describe('hostile sources', () => {
  it.each(Object.entries(CASES))('%s', (_name, src) => {
    const part = parseStory(src, { path: 'a.sty' })
    const mod = parseModule(src, { path: 'm.xty' })
    expect(Array.isArray(part.diagnostics) && Array.isArray(mod.diagnostics)).toBe(true)
    expect(Array.isArray(checkStory({ parts: { 'a.sty': src }, order: ['a.sty'] }))).toBe(true)
  })
})

describe('hostile packages', () => {
  it('follows long chains of functions and passages without overflowing the stack', () => {
    const n = 20_000
    const fns = Array.from({ length: n }, (_, i) => `{fn f${i}(x) = ${i + 1 < n ? `f${i + 1}(x)` : 'f0(x)'}}`)
    const passages = Array.from(
      { length: n },
      (_, i) => `{passage p${i}}\n{insert p${i + 1 < n ? i + 1 : 0}}\n{end}`,
    )
    const ds = checkStory({
      parts: { 'a.sty': '{use m}\n{use q}\n${f0(1)}\n{insert p0}' },
      order: ['a.sty'],
      modules: { 'extensions/m.xty': fns.join('\n'), 'extensions/q.xty': passages.join('\n') },
    })
    expect(ds.map((d) => `${d.path}:${d.line} ${d.code}`)).toEqual([
      'extensions/m.xty:1 story/recursion',
      'extensions/q.xty:1 story/recursion',
    ])
    expect(ds[0]!.message).toBe(
      'f0() calls itself (f0() → f1() → f2() → f3() → … 19994 more … → f19998() → f19999() → f0()); functions and passages cannot recurse',
    )
  })
})
