/**
 * Parsing 1.1 glue `<>` and mid-line jumps (README "Language versions and 1.1", section 1): the
 * paragraph's `glue`, the jump node after it, diagnostics, and the same text at 1.0 unchanged.
 */
import { describe, expect, it } from 'vitest'
import { strip, where } from '../../test/helpers/parse.ts'
import type { StoryLang } from '../lang.ts'
import { parseModule } from './parse-module.ts'
import { parseStory } from './parse-story.ts'

const at = (src: string, lang: StoryLang = '1.1') => parseStory(src, { path: 't.sty', lang })

describe('mid-line jumps at 1.1', () => {
  it('splits `text -> #id` into a paragraph left open and a jump (tags after the jump)', () => {
    const r = at('He turned away -> #door #sad\n## [#door]')
    expect(r.diagnostics).toEqual([])
    expect(strip(r.ast.body.slice(0, 2))).toEqual([
      {
        kind: 'paragraph',
        lines: [[{ k: 'text', v: 'He turned away' }]],
        tags: ['sad'],
        glue: { end: 'jump' },
      },
      { kind: 'jump', target: 'door' },
    ])
    expect(r.ast.body[1]!.pos).toEqual({ line: 1, column: 19 })
  })
  it('reads `-> END`, and ends the paragraph at the jump line (what follows is unreachable)', () => {
    const r = at('One\ntwo -> END\nthree')
    expect(strip(r.ast.body.slice(0, 2))).toEqual([
      {
        kind: 'paragraph',
        lines: [
          [
            { k: 'text', v: 'One' },
            { k: 'text', v: ' ' },
            { k: 'text', v: 'two' },
          ],
        ],
        tags: [],
        glue: { end: 'jump' },
      },
      { kind: 'jump', target: null },
    ])
    expect(where(r.diagnostics)).toEqual(['story/unreachable@3:1'])
  })
  it('reports unknown and malformed targets where the jump is written', () => {
    expect(where(at('Go -> #nowhere').diagnostics)).toEqual(['story/unknown-id@1:7'])
    expect(where(at('Go -> #1st').diagnostics)).toEqual(['story/bad-expression@1:4'])
  })
  it('leaves text that only looks like an arrow alone: `a -> b`, `a->#b`, `\\-> #b`', () => {
    for (const src of ['a -> b', 'a->#b', 'a \\-> #b']) {
      const r = at(src)
      // `a -> b` is text; it reads as an ink divert, so it gets that warning (story/ink-syntax)
      expect(r.diagnostics.map((d) => d.code)).toEqual(src === 'a -> b' ? ['story/ink-syntax'] : [])
      expect(r.ast.body.map((n) => n.kind)).toEqual(['paragraph'])
    }
  })
  it('refuses a jump in a passage', () => {
    const r = parseModule('{passage p()}\nGo -> #x\n{end}', { path: 'm.xty', lang: '1.1' })
    expect(where(r.diagnostics)).toEqual(['story/module-content@2:4'])
  })
})

describe('glue at 1.1', () => {
  it('marks the glue at a paragraph`s start and end, with or without the space written beside it', () => {
    const p = (src: string) => (at(src).ast.body[0] as { glue?: unknown }).glue
    expect(p('A <>')).toEqual({ end: 'space' })
    expect(p('A<>')).toEqual({ end: 'tight' })
    expect(p('<> A')).toEqual({ start: 'space' })
    expect(p('<>A')).toEqual({ start: 'tight' })
    expect(p('<>')).toEqual({ start: 'tight', end: 'tight' })
    expect(p('A <> #t')).toEqual({ end: 'space' })
    expect(p('A \\<>')).toBeUndefined()
    expect(p('A <> B')).toBeUndefined()
  })
  it('joins lines of one paragraph with nothing between where glue is written', () => {
    const r = at('A<>\nB\n<> C')
    expect(strip(r.ast.body)).toEqual([
      {
        kind: 'paragraph',
        lines: [
          [
            { k: 'text', v: 'A' },
            { k: 'text', v: 'B' },
            { k: 'text', v: ' C' },
          ],
        ],
        tags: [],
      },
    ])
  })
})

describe('hostile lines at 1.1', () => {
  it('parse in linear time: runs of <>, arrows and brackets', () => {
    const n = 60_000
    for (const src of [
      '<> '.repeat(n),
      `x${' -> #a'.repeat(n)}`,
      `* ${'['.repeat(n)}`,
      `* ${'[a] '.repeat(n)}`,
      `* ${'{'.repeat(n)}`,
      `* ${'[#x] [y > a.sty] '.repeat(n / 4)}[z]`,
    ]) {
      const t0 = performance.now()
      at(src)
      expect(performance.now() - t0).toBeLessThan(3000)
    }
  })
})

describe('the same text at 1.0', () => {
  it('is text, as before', () => {
    const r = at('Go on -> #x <>\n<> B', '1.0')
    // text, with the 1.0 warning that names story_lang 1.1
    expect(r.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`)).toEqual([
      'story/ink-syntax@1:13',
      'story/ink-syntax@2:1',
    ])
    expect(strip(r.ast.body)).toEqual([
      {
        kind: 'paragraph',
        lines: [
          [
            { k: 'text', v: 'Go on -> #x <>' },
            { k: 'text', v: ' ' },
            { k: 'text', v: '<> B' },
          ],
        ],
        tags: [],
      },
    ])
  })
})
