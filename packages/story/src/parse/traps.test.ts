/**
 * Silent traps of a hand port from ink lines the parser reads one way while the author
 * meant another. Each row gives a source and exactly the diagnostics it must give; the clean rows
 * are the legitimate look-alikes that must stay silent.
 */
import { describe, expect, it } from 'vitest'
import { parse, where } from '../../test/helpers/parse.ts'
import { parseStory } from './parse-story.ts'

const CASES: Array<[string, string, string[]]> = [
  // story/dedented-body
  [
    'a body line at column 1 between two runs of options',
    '* Go north [#n]\n  You walk.\nThe wind.\n* Go south [#s]',
    ['story/dedented-body@3:1'],
  ],
  ['clean: a gather after an option without a body', '* A [#a]\nThe wind.\n* B [#b]', []],
  [
    'several dedented lines and a {set}: reported once, at the first',
    '* A [#a]\n  aa\nThe wind.\n{set x = 1}\nMore.\n* B [#b]',
    ['story/dedented-body@3:1'],
  ],
  [
    'nested: a line at the inner bullets ends the inner group',
    '* Out [#o]\n  * In [#i]\n    x\n  lost\n  * In2 [#j]',
    ['story/dedented-body@4:3'],
  ],
  [
    'nested: a line at column 1 ends the outer group, reported once',
    '* Out [#o]\n  * In [#i]\nlost\n* Out2 [#p]',
    ['story/dedented-body@3:1'],
  ],
  ['clean: a blank line makes the second menu deliberate', '* A [#a]\n  aa\n\nThe wind.\n* B [#b]', []],
  ['clean: an anchor names the second menu', '* A [#a]\nThe wind.\n[#next]\n* B [#b]', []],
  ['clean: a heading between', '* A [#a]\n# Yard\n* B [#b]', []],
  ['clean: text after the group, no options below', '* A [#a]\n  aa\nThe wind.\nMore.', []],
  ['clean: options below at another indentation', '* A [#a]\nThe wind.\n  * B [#b]', []],
  ['clean: an {if} between (a conditional group)', '* A [#a]\n{if x}\n* B [#b]\n{end}', []],
  // story/ink-syntax
  ['~ assignment', '~ x = 1', ['story/ink-syntax@1:1']],
  ['~ temp and ~ x++', '# H\n~ temp y = 2\n~ x++', ['story/ink-syntax@2:1', 'story/ink-syntax@3:1']],
  ['VAR and CONST', 'VAR gold = 3\nCONST MAX = 9', ['story/ink-syntax@1:1', 'story/ink-syntax@2:1']],
  [
    'knots and stitches',
    '=== kitchen ===\n== hall\n= pantry',
    ['story/ink-syntax@1:1', 'story/ink-syntax@2:1', 'story/ink-syntax@3:1'],
  ],
  ['glue, at its column', 'He waited <>\nand waited.', ['story/ink-syntax@1:11']],
  [
    'a divert at the end of a text line',
    'You leave. -> #yard\nOn. -> END\nThen -> yard',
    ['story/ink-syntax@1:12', 'story/ink-syntax@2:5', 'story/ink-syntax@3:6'],
  ],
  ['a gather right after a group', '* A [#a]\n  aa\n* B [#b]\n- They meet.', ['story/ink-syntax@4:1']],
  [
    'a tunnel call at the end of a text line, and a thread (1.0)',
    'He shrugs. -> tick ->\nOn. -> #tick ->\n<- talk\n<- #talk',
    ['story/ink-syntax@1:12', 'story/ink-syntax@2:5', 'story/ink-syntax@3:1', 'story/ink-syntax@4:1'],
  ],
  [
    'a gather with an ink marker',
    'Text.\n- (meet) They meet.\n- -> #x',
    ['story/ink-syntax@2:1', 'story/ink-syntax@3:1'],
  ],
  ['a lone gather dash', '* A [#a]\n\n-', ['story/ink-syntax@3:1']],
  ['clean: a dialogue dash in prose', 'She turns.\n- Yes, she said.\n- No.', []],
  ['clean: a dialogue dash after a blank line below a group', '* A [#a]\n\n- Yes, she said.', []],
  ['clean: a dialogue dash in an option body', '* A [#a]\n  - Yes, she said.', []],
  ['clean: arrows and signs in prose', 'Paris -> London, 3 <= 4, a = b, ~tilde~, x -> Y.', []],
  ['clean: an option jump and a jump line', '* Go -> #y [#g]\n-> #y\n[#y]', []],
  // story/id-before-jump
  ['an id before the jump', '* Go [#n] -> #yard\n[#yard]', ['story/id-before-jump@1:6']],
  ['an id inside the label', '* [#n] Go', ['story/id-before-jump@1:3']],
  ['clean: the id last, before tags', '* Go -> #yard [#n] #loud\n[#yard]', []],
]

describe('silent traps of a port from ink', () => {
  it.each(CASES)('%s', (_name, src, expected) => {
    const r = parse(src, 'story/t.sty')
    expect(where(r.diagnostics.filter((d) => d.code !== 'story/implicit-ids'))).toEqual(expected)
    for (const d of r.diagnostics) expect(d.severity).toBe('warning')
  })

  it('keeps the tree of a dedented body as 1.0 reads it: two groups', () => {
    const r = parse('* Go north [#n]\n  You walk.\nThe wind.\n* Go south [#s]')
    expect(r.ast.body.map((n) => n.kind)).toEqual(['group', 'paragraph', 'group'])
  })

  it('says what the dedented line does and how to fix it', () => {
    const [d] = parse('* Go north [#n]\n  You walk.\nThe wind.\n* Go south [#s]').diagnostics
    expect(d!.message).toBe(
      'this line is not indented under the option on line 1, so it ends the choice group: the options from line 4 start a new menu, and the menu of line 1 offers only the option above it; indent the line under the option, or put a blank line and an anchor ([#id]) above line 4 to start a new menu on purpose',
    )
  })

  it('gives the 1.x way to write each ink line', () => {
    const messages = (src: string) => parse(src).diagnostics.map((d) => d.message)
    expect(messages('~ x = 1')).toEqual(["'~ x = 1' is ink, and prints as text here; write '{set x = 1}'"])
    expect(messages('~ x++')[0]).toMatch(/write '\{set x \+= 1\}'$/)
    expect(messages('# H\n~ temp y = 2')[0]).toMatch(/write '\{local y = 2\}'$/)
    expect(messages('VAR x = 1')[0]).toMatch(/write '\{set x = 1\}' in the part's top lines/)
    expect(messages('=== cold_kitchen ===')[0]).toMatch(
      /write a heading with an id: '# Cold kitchen \[#cold_kitchen\]'$/,
    )
    expect(messages('= pantry')[0]).toMatch(/'## Pantry \[#pantry\]'$/)
    expect(messages('Go. -> yard')[0]).toBe(
      "a jump at the end of a text line prints as text in 1.0; put '-> #yard' on a line of its own, or set story_lang to 1.1, which allows it at a line's end",
    )
    expect(messages('a <> b')[0]).toMatch(/or set story_lang to 1\.1, which has it$/)
    expect(messages('* A [#a]\n- They meet.')[0]).toMatch(/write the line without '- ' \('They meet\.'\)/)
  })

  it('writes the option line as it should be', () => {
    const [d] = parse('* {if x} Go [#n] -> #yard #loud\n[#yard]').diagnostics
    expect(d!.message).toBe(
      "'[#n]' is before the jump, so it is not the option's id: the menu shows it as text and the option is saved by its position; write the id last, after the label and the jump: '* {if x} Go -> #yard [#n] #loud'",
    )
    // the line is read as 1.0 reads it: the label keeps the text, the id is positional
    const g = parse('* Go [#n] -> #yard\n[#yard]').ast.body[0]
    expect(g).toMatchObject({ options: [{ id: '1', explicitId: false, jump: { target: 'yard' } }] })
  })

  it('says where a jump or an id written after the tags goes', () => {
    const messages = (src: string) => parse(src).diagnostics.map((d) => `${d.code}: ${d.message}`)
    expect(messages('* Go #loud -> END')).toEqual([
      "story/tag-text: '->' follows the tags, so it is ignored; write the jump before the tags (and an option id after the jump)",
    ])
    expect(messages('* Go [#n] #loud')).toEqual([])
    expect(messages('* Go #loud [#n]')).toEqual([
      "story/tag-text: '[#n]' follows the tags, so it is ignored; write the id before the tags",
    ])
  })

  it("at 1.1, leaves glue and a jump to an id at a line's end alone, and still names an ink divert", () => {
    const at11 = (src: string) =>
      parseStory(src, { path: 't.sty', lang: '1.1' }).diagnostics.filter((d) => d.code === 'story/ink-syntax')
    expect(at11('He waited <>')).toEqual([])
    expect(at11('He turned away -> END')).toEqual([])
    expect(at11('Go. -> yard').map((d) => d.message)).toEqual([
      "'-> yard' is an ink divert; write '-> #yard' (a jump names an id)",
    ])
    expect(
      at11('He shrugs. -> tick ->\nShe waits. -> b.sty:x ->\n# [#tick]\n->->').map((d) => d.message),
    ).toEqual([
      "a tunnel call at the end of a text line prints as text; put '-> #tick ->' on a line of its own below the text",
      "a tunnel call at the end of a text line prints as text; put '-> b.sty:x ->' on a line of its own below the text",
    ])
  })
})
