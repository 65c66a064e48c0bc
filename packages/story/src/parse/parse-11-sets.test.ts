/** Parsing 1.1 `{items}` declarations, `{temp}` and `{return}`; the same text at 1.0 reads as before. */
import { describe, expect, it } from 'vitest'
import { parseModule } from './parse-module.ts'
import { parseStory } from './parse-story.ts'

const at = (r: { diagnostics: Array<{ line?: number; column?: number; code: string }> }) =>
  r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)

describe('{items} (1.1)', () => {
  it('declares a set in a part’s top lines and in a module, items in order with positions', () => {
    const p = parseStory('{items Tools = rope, lamp,key}\n{set inv = Tools()}\nHi.', {
      path: 'a.sty',
      lang: '1.1',
    })
    expect(p.diagnostics).toEqual([])
    expect(p.ast.declarations.items).toEqual([
      {
        name: 'Tools',
        namePos: { line: 1, column: 8 },
        pos: { line: 1, column: 1 },
        items: [
          { name: 'rope', pos: { line: 1, column: 16 } },
          { name: 'lamp', pos: { line: 1, column: 22 } },
          { name: 'key', pos: { line: 1, column: 27 } },
        ],
      },
    ])
    expect(p.ast.declarations.defaults.map((d) => d.name)).toEqual(['inv'])
    const m = parseModule('{items Moods = calm, wary}', { path: 'm.xty', lang: '1.1' })
    expect(m.ast.items?.map((d) => d.items.map((x) => x.name))).toEqual([['calm', 'wary']])
  })
  it('reports a malformed declaration at the offending token, and {items} below the top lines', () => {
    expect(at(parseStory('{items Tools}', { path: 'a.sty', lang: '1.1' }))).toEqual([
      '1:8 story/bad-expression',
    ])
    expect(at(parseStory('{items T = a b}', { path: 'a.sty', lang: '1.1' }))).toEqual([
      '1:14 story/bad-expression',
    ])
    expect(at(parseStory('{items T = a, a}', { path: 'a.sty', lang: '1.1' }))).toEqual([
      '1:15 story/bad-expression',
    ])
    expect(at(parseStory('{items T = and}', { path: 'a.sty', lang: '1.1' }))).toEqual([
      '1:12 story/bad-expression',
    ])
    const late = parseStory('Hi.\n{items T = a}', { path: 'a.sty', lang: '1.1' })
    expect(at(late)).toEqual(['2:1 story/unknown-command'])
    expect(late.diagnostics[0]!.message).toMatch(/declaration block/)
    expect(at(parseStory('{items T = a', { path: 'a.sty', lang: '1.1' }))).toEqual([
      '1:1 story/unclosed-brace',
    ])
  })
  it('at 1.0 the same lines are what they always were', () => {
    const p = parseStory('{items Tools = rope}\n{temp x = 1}\n{return 2}\n{items T = a', { path: 'a.sty' })
    // the last line is text with an unclosed brace at 1.0, as before (at 1.1 an unclosed command)
    expect(at(p)).toEqual([
      '1:1 story/unknown-command',
      '2:1 story/unknown-command',
      '3:1 story/unknown-command',
      '4:1 story/unclosed-brace',
    ])
    expect(p.ast.body.map((n) => n.kind)).toEqual(['paragraph'])
    expect(p.ast.declarations.items).toBeUndefined()
  })
  it('{temp} is a node of a part body at 1.1', () => {
    const p = parseStory('# A\n{temp n = 2 + 3}', { path: 'a.sty', lang: '1.1' })
    expect(p.diagnostics).toEqual([])
    expect(p.ast.body[1]).toMatchObject({ kind: 'temp', name: 'n', namePos: { line: 2, column: 7 } })
  })
})
