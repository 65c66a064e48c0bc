// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * Properties: arbitrary text never makes the parsers throw, and every diagnostic points inside
 * the source with a catalogued story code.
 */
import { fc, test } from '@fast-check/vitest'
import { CODES } from '@spkg/manifest'
import { expect } from 'vitest'
import type { Pos } from '../ast.ts'
import { parseModule } from './parse-module.ts'
import { parseStory } from './parse-story.ts'
import { visitNodes } from './walk.ts'

/** Fragments that exercise the grammar far more often than random characters would. */
const PIECES = [
  '#',
  '# ',
  '## ',
  '[#a]',
  '[#h1]',
  '[[ a.sty ]]',
  '[[ ../b.sty:x ]]',
  '-> #a',
  '-> END',
  '->',
  '* ',
  '+ ',
  '*',
  '**',
  '{if x}',
  '{if}',
  '{elif y}',
  '{else}',
  '{end}',
  '{set a = 1}',
  '{set a += }',
  '{local l = 2}',
  '{use m}',
  '{seed 4}',
  '{insert p(1)}',
  '{call ns.f()}',
  '{const C = 1}',
  '{fn f(a) = a}',
  '{passage p}',
  '{extern ns.f(a)}',
  '${',
  '${a + 1}',
  '${"s',
  '}',
  '{',
  '[',
  ']',
  '(',
  ')',
  '![a](b.png)',
  '![x](/y.zz)',
  '[t > a.sty:s]',
  '\\',
  '\\#',
  '\\\\',
  '"',
  '#tag',
  ' #t',
  '//',
  '\n',
  '\n',
  '\n  ',
  '\r\n',
  '\r',
  '\t',
  '  ',
  'text',
  '\u{1F600}',
  '\0',
  '\ud800',
  'é',
  'visits(#a)',
  'not ',
  ' and ',
  '2d6',
  '3x',
  '((',
  '[1,',
  ':',
  '.sty',
]
const source = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }).map((a) => a.join('')),
)

function checkDiagnostics(src: string, ds: ReturnType<typeof parseStory>['diagnostics']): void {
  const lines = src.replace(/^\ufeff/, '').split(/\r\n|\r|\n/)
  let prev = [0, 0]
  for (const d of ds) {
    expect(d.code in CODES && d.code.startsWith('story/')).toBe(true)
    expect(d.line).toBeGreaterThanOrEqual(1)
    expect(d.line).toBeLessThanOrEqual(lines.length)
    const width = [...lines[d.line! - 1]!].length
    expect(d.column).toBeGreaterThanOrEqual(1)
    expect(d.column).toBeLessThanOrEqual(width + 1)
    expect(d.line! > prev[0]! || (d.line === prev[0] && d.column! >= prev[1]!)).toBe(true)
    prev = [d.line!, d.column!]
  }
}

test.prop([source], { numRuns: 1500 })('parseStory never throws; positions stay in the source', (src) => {
  const r = parseStory(src, { path: 'p.sty' })
  expect(r.ast.kind).toBe('part')
  checkDiagnostics(src, r.diagnostics)
  const lines = src.replace(/^\ufeff/, '').split(/\r\n|\r|\n/)
  const inside = (p: Pos) => {
    expect(p.line).toBeGreaterThanOrEqual(1)
    expect(p.line).toBeLessThanOrEqual(lines.length)
    expect(p.column).toBeGreaterThanOrEqual(1)
    expect(p.column).toBeLessThanOrEqual([...lines[p.line - 1]!].length + 1)
  }
  visitNodes(r.ast.body, {
    node: (n) => inside(n.pos),
    option: (o) => inside(o.pos),
  })
})

test.prop([source], { numRuns: 800 })('parseModule never throws; positions stay in the source', (src) => {
  const r = parseModule(src, { path: 'm.xty' })
  expect(r.ast.kind).toBe('module')
  checkDiagnostics(src, r.diagnostics)
})

test.prop([fc.uint8Array({ maxLength: 200 })], { numRuns: 300 })(
  'parseStory takes arbitrary bytes',
  (bytes) => {
    const r = parseStory(bytes, { path: 'p.sty' })
    expect(Array.isArray(r.diagnostics)).toBe(true)
  },
)
