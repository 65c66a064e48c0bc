// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
import { describe, expect, it } from 'vitest'
import { parse, where } from '../../test/helpers/parse.ts'
import { parseModule } from './parse-module.ts'
import { parseStory } from './parse-story.ts'

/** Each row: a source and exactly the diagnostics it must give (`code@line:column`). */
const PART_CASES: Array<[string, string, string[]]> = [
  ['story/encoding: NUL', 'ok\nab\0c', ['story/encoding@2:3']],
  ['story/encoding: lone surrogate', 'x \ud800', ['story/encoding@1:3']],
  ['story/reserved-id on a heading', '# A [#h2]', ['story/reserved-id@1:5']],
  ['story/reserved-id on an anchor', '[#h10]', ['story/reserved-id@1:1']],
  [
    'story/duplicate-id across heading, anchor, option',
    '# A [#x]\n[#x]\n* o [#x]',
    ['story/duplicate-id@2:1', 'story/duplicate-id@3:5'],
  ],
  ['story/bad-path: URL scheme', '![a](https://x.org/a.png)', ['story/bad-path@1:6']],
  ['story/bad-path: leading slash', '![a](/a.png)', ['story/bad-path@1:6']],
  ['story/bad-path: ..', '![a](x/../../a.png)', ['story/bad-path@1:6']],
  ['story/bad-path: unknown extension', '![alt](a.txt)', ['story/bad-path@1:8']],
  ['story/unknown-id: jump', 'text\n-> #nowhere', ['story/unknown-id@2:4']],
  [
    'story/unknown-id: visits() of a non-heading',
    '[#a]\n${visits(#a)} ${visits(#zz)}',
    ['story/unknown-id@2:10', 'story/unknown-id@2:24'],
  ],
  ['story/unknown-id: passed() of a non-group', '# H [#h]\n${passed(#h)}', ['story/unknown-id@2:10']],
  ['story/unreachable after a jump', '-> END\ntext', ['story/unreachable@2:1']],
  [
    'story/unreachable after a gate, only the first line',
    '[[ a.sty ]]\ntext\nmore\n\n{set x = 1}',
    ['story/unreachable@2:1'],
  ],
  ['story/unreachable in an option body', '* a\n  -> END\n  dead\n* b', ['story/unreachable@3:3']],
  ['no story/unreachable before a heading or anchor', '-> #b\n[#b]\ntext\n-> END\n# H', []],
  ['story/bad-target: ..', '[[ ../x.sty ]]', ['story/bad-target@1:4']],
  ['story/bad-target: leading /', 'Go [there > /x.sty].', ['story/bad-target@1:13']],
  ['story/bad-target: not .sty', '[[ x.txt ]]', ['story/bad-target@1:4']],
  ['story/not-a-target', '* Ask [#ask]\n-> #ask', ['story/not-a-target@2:4']],
  ['story/link-in-label: heading', '# Go [there > x.sty]', ['story/link-in-label@1:6']],
  ['story/link-in-label: option', '* Go [there > x.sty]', ['story/link-in-label@1:6']],
  ['story/unclosed-brace: command line', '{set gold = 5', ['story/unclosed-brace@1:1']],
  ['story/unclosed-brace: inline', 'a {if x b', ['story/unclosed-brace@1:3']],
  ['story/unclosed-brace: guard', '* {if x Pay', ['story/unclosed-brace@1:3']],
  ['story/unclosed-interpolation', 'x ${gold', ['story/unclosed-interpolation@1:3']],
  ['story/bad-expression in a command', 'text\n{set x = 1 +}', ['story/bad-expression@2:13']],
  ['story/bad-expression in a guard', '* {if gold >} Pay', ['story/bad-expression@1:13']],
  ['story/bad-expression: number into a name', '${3x}', ['story/bad-expression@1:3']],
  ['story/bad-expression: dice with a space', '${2 d6}', ['story/bad-expression@1:5']],
  ['story/bad-expression: reserved word as a variable', 'text\n{set end = 1}', ['story/bad-expression@2:6']],
  ['story/bad-expression: empty interpolation', 'a ${ }', ['story/bad-expression@1:6']],
  ['story/bad-expression: bad jump', 'text\n-> somewhere', ['story/bad-expression@2:1']],
  [
    'story/bad-expression: deep nesting',
    `\${${'('.repeat(300)}1${')'.repeat(300)}}`,
    ['story/bad-expression@1:259'],
  ],
  [
    'story/bad-expression: inline ifs nested too deeply',
    `a${'{if x}'.repeat(70)}${'{end}'.repeat(70)}`,
    ['story/bad-expression@1:386'],
  ],
  [
    'story/bad-expression: bad explicit ids',
    '# A [#1st]\n* Go [#my.id]\n* [#two words]',
    ['story/bad-expression@1:5', 'story/bad-expression@2:6'],
  ],
  ['story/tag-text: text after tags', 'Issue #4 is fixed', ['story/tag-text@1:10']],
  [
    'story/tag-text: tag lines, headings, options',
    '#a b\n# T #x [#id]\n* Go #y z',
    ['story/tag-text@1:4', 'story/tag-text@2:8', 'story/tag-text@3:9'],
  ],
  [
    'story/tag-text: text after a media block',
    '![a](x.png) caption\n![b](y.ogg)more #loop\n  ![c](z.png)  #loop tail\n![d](w.png) #loop',
    ['story/tag-text@1:13', 'story/tag-text@2:12', 'story/tag-text@3:22'],
  ],
  ['story/unknown-command: line', '{frobnicate 3}', ['story/unknown-command@1:1']],
  ['story/unknown-command: inline', 'a {wat} b', ['story/unknown-command@1:3']],
  [
    'story/unknown-command: module declaration in a part',
    'text\n{const X = 1}',
    ['story/unknown-command@2:1'],
  ],
  ['story/unknown-command: {insert} inline', 'a {insert p} b', ['story/unknown-command@1:3']],
  ['story/missing-end: block if', 'text\n{if x}\nA', ['story/missing-end@2:1']],
  ['story/missing-end: inline if', 'a {if x} b', ['story/missing-end@1:3']],
  ['story/missing-end: if left open by an outdent', '* o\n  {if x}\n  A\n* p', ['story/missing-end@2:3']],
  ['story/unexpected-end: line', 'text\n{end}', ['story/unexpected-end@2:1']],
  ['story/unexpected-end: inline', 'a {end} b', ['story/unexpected-end@1:3']],
  [
    'story/else-without-if: line',
    'text\n{else}\n{elif x}',
    ['story/else-without-if@2:1', 'story/else-without-if@3:1'],
  ],
  ['story/else-without-if: inline', 'a {else} b', ['story/else-without-if@1:3']],
  [
    'story/else-without-if: after else',
    '{if a}\nA\n{else}\nB\n{else}\nC\n{end}',
    ['story/else-without-if@5:1'],
  ],
  ['story/indentation', '* o\n    deep\n  shallow', ['story/indentation@3:3']],
  ['story/local-placement', '{local x = 1}\n# H\n{local y = 2}', ['story/local-placement@1:1']],
  [
    'story/bad-default',
    '{set gold += 1}\n{set hp -= 1}\ntext',
    ['story/bad-default@1:1', 'story/bad-default@2:1'],
  ],
  [
    'story/repeated-default',
    '{set a = 1}\n{set b = a}\n{set a = a + 5}\ntext\n{set a = 9}',
    ['story/repeated-default@3:1'],
  ],
  ['story/seed-placement: in the body', 'text\n{seed 3}', ['story/seed-placement@2:1']],
  ['story/seed-placement: twice', '{seed 3}\n{seed 4}', ['story/seed-placement@2:1']],
  ['story/seed-range', '{seed 4294967296}\n{seed -1}', ['story/seed-range@1:7', 'story/seed-range@2:7']],
  ['story/use-placement', 'text\n{use combat}', ['story/use-placement@2:1']],
]

describe('part diagnostics (section 10)', () => {
  it.each(PART_CASES)('%s', (_name, src, expected) => {
    const r = parse(src, 'story/t.sty')
    expect(where(r.diagnostics)).toEqual(expected)
    for (const d of r.diagnostics) {
      expect(d.path).toBe('story/t.sty')
      expect(d.message.length).toBeGreaterThan(10)
      expect(['error', 'warning', 'info']).toContain(d.severity)
    }
  })

  it('gives severities from the catalogue', () => {
    const r = parse('-> END\ntext\n-> #zz')
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['story/unreachable', 'warning'],
      ['story/unknown-id', 'error'],
    ])
  })

  it('reports every problem of a file at once, sorted by position', () => {
    const r = parse('${a\n{nope}\n{set x = }\ntext {if}\n{end}')
    expect(where(r.diagnostics)).toEqual([
      'story/unclosed-interpolation@1:1',
      'story/unknown-command@2:1',
      'story/bad-expression@3:10',
      'story/bad-expression@4:9',
      'story/unexpected-end@5:1',
    ])
  })

  it('writes messages an author understands', () => {
    const [d] = parse('text\n-> #vault', 'story/t.sty').diagnostics
    expect(d).toEqual({
      code: 'story/unknown-id',
      severity: 'error',
      message: "no heading, anchor or group '#vault'",
      path: 'story/t.sty',
      line: 2,
      column: 4,
    })
  })

  it('keeps the lines it can read after a bad one', () => {
    const r = parseStory('# A\n{set x = }\nstill here\n* ok', { path: 'a.sty' })
    expect(r.ast.body.map((n) => n.kind)).toEqual(['heading', 'paragraph', 'group'])
  })

  it('skips blocks nested too deeply instead of overflowing the stack', () => {
    const src = Array.from({ length: 150 }, (_, i) => `${' '.repeat(i * 2)}* o${i}`).join('\n')
    const r = parse(src)
    expect(where(r.diagnostics)).toEqual(['story/bad-expression@101:201'])
  })
})

const MODULE_CASES: Array<[string, string, string[]]> = [
  ['story/module-content: text', '{const A = 1}\nHello', ['story/module-content@2:1']],
  ['story/module-content: heading', '# H', ['story/module-content@1:1']],
  ['story/module-content: indented declaration', '  {const A = 1}', ['story/module-content@1:3']],
  ['story/module-content: part command', '{if x}', ['story/module-content@1:1']],
  ['story/module-content: option in a passage', '{passage p}\n* o\n{end}', ['story/module-content@2:1']],
  [
    'story/module-content: link in a passage',
    '{passage p}\nGo [x > a.sty]\n{end}',
    ['story/module-content@2:4'],
  ],
  ['story/missing-end: passage', '{passage p(a)}\n${a}', ['story/missing-end@1:1']],
  ['story/missing-end: if in a passage', '{passage p}\n{if a}\nA\n{end}', ['story/missing-end@1:1']],
  ['story/unexpected-end', '{end}', ['story/unexpected-end@1:1']],
  ['story/bad-default', '{set a += 1}', ['story/bad-default@1:1']],
  ['story/unclosed-brace', '{fn f(a) = a', ['story/unclosed-brace@1:1']],
  ['story/bad-expression: fn without =', '{fn f(a) a}', ['story/bad-expression@1:10']],
  ['story/bad-expression: reserved parameter', '{fn f(end) = 1}', ['story/bad-expression@1:7']],
  ['story/bad-expression: extern without a namespace', '{extern play(a)}', ['story/bad-expression@1:13']],
]

describe('module diagnostics (section 8)', () => {
  it.each(MODULE_CASES)('%s', (_name, src, expected) => {
    const r = parseModule(src, { path: 'extensions/m.xty' })
    expect(where(r.diagnostics)).toEqual(expected)
    for (const d of r.diagnostics) expect(d.path).toBe('extensions/m.xty')
  })
})
