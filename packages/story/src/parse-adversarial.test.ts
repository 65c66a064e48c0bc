// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * Hostile sources: very long lines built to trigger quadratic scans or deep recursion. Each must
 * parse to diagnostics, neither throwing nor hanging (the project's test timeout bounds a hang;
 * no duration is asserted).
 */
import { describe, expect, it } from 'vitest'
import { checkStory } from './check-story'
import { parseModule } from './parse-module'
import { parseStory } from './parse-story'

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
