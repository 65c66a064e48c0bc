// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * Messages suggest the fix where the mistake is common: habits from other languages (`=`, `&&`,
 * `||`, `!`, `{else if}`, `{endif}`, `{elsif}`), a missing `}`, `==` in `{set}`, a jump or gate
 * written without its `#` or `.sty`. The code stays the one the language names.
 */
import { describe, expect, it } from 'vitest'
import { parseModule } from './parse-module.ts'
import { parseStory } from './parse-story.ts'

// biome-ignore format: one case a line reads best
const CASES: Array<[source: string, code: string, at: string, says: string]> = [
  ['{if x = 4}\nA.\n{end}', 'story/bad-expression', '1:7', "did you mean '=='?"],
  ['* {if gold = 0} Beg', 'story/bad-expression', '1:12', "did you mean '=='?"],
  ['Hi{if x = 1} there{end}.', 'story/bad-expression', '1:9', "did you mean '=='?"],
  ['{if x === 4}\nA.\n{end}', 'story/bad-expression', '1:9', "did you mean '=='?"],
  ['{if x => 4}\nA.\n{end}', 'story/bad-expression', '1:7', "did you mean '>='?"],
  ['{if x =< 4}\nA.\n{end}', 'story/bad-expression', '1:7', "did you mean '<='?"],
  ['{if a && b}\nA.\n{end}', 'story/bad-expression', '1:7', "did you mean 'and'?"],
  ['{if a || b}\nA.\n{end}', 'story/bad-expression', '1:7', "did you mean 'or'?"],
  ['{if !a}\nA.\n{end}', 'story/bad-expression', '1:5', "did you mean 'not'?"],
  ['${max(a && b, 1)}', 'story/bad-expression', '1:9', "did you mean 'and'?"],
  ["{set name = 'Ann'}", 'story/bad-expression', '1:13', 'strings are written in double quotes'],
  ['{if 1 < x < 3}\nA.\n{end}', 'story/bad-expression', '1:11', "comparisons do not chain: join two with 'and'"],
  ['{if a}\nA.\n{else if b}\nB.\n{end}', 'story/bad-expression', '3:7', "use '{elif condition}'"],
  ['{if a}\nA.\n{end if}', 'story/bad-expression', '3:6', "write '{end}' alone"],
  ['{if a}\nA.\n{endif}', 'story/unknown-command', '3:1', "did you mean '{end}'?"],
  ['A{if a}b{fi}.', 'story/unknown-command', '1:9', "did you mean '{end}'?"],
  ['{if a}\nA.\n{/if}', 'story/unknown-command', '3:1', "did you mean '{end}'?"],
  ['{if a}\nA.\n{elsif b}\nB.\n{end}', 'story/unknown-command', '3:1', "did you mean '{elif}'?"],
  ['{if a}\nA.\n{elseif b}\nB.\n{end}', 'story/unknown-command', '3:1', "did you mean '{elif}'?"],
  ['{IF a}\nA.\n{END}', 'story/unknown-command', '1:1', "did you mean '{if}'?"],
  ['{sett x = 1}', 'story/unknown-command', '1:1', "did you mean '{set}'?"],
  ['{let x = 1}', 'story/unknown-command', '1:1', "did you mean '{set}'?"],
  ['{set x == 1}', 'story/bad-expression', '1:8', "'==' compares; an assignment has one '='"],
  ['# H\n{local n == 0}', 'story/bad-expression', '2:10', "'==' compares"],
  ['{set x = 1', 'story/unclosed-brace', '1:1', "add the closing '}'"],
  ['Text {if a b', 'story/unclosed-brace', '1:6', "add the closing '}'"],
  ['You have ${gold coins.', 'story/unclosed-interpolation', '1:10', "add '}' after the expression"],
  ['* {if a Pay', 'story/unclosed-brace', '1:3', "add '}' after its condition"],
  ['# Hall\n-> hall', 'story/bad-expression', '2:1', "did you mean '-> #hall'?"],
  ['Bye.\n-> end', 'story/bad-expression', '2:1', "did you mean '-> END'?"],
  ['[[ forest ]]', 'story/bad-target', '1:4', "did you mean 'forest.sty'?"],
]

describe('messages suggest the fix for common mistakes', () => {
  it.each(CASES)('%j', (source, code, at, says) => {
    const found = parseStory(source, { path: 't.sty' }).diagnostics.filter((d) => d.code === code)
    expect(found.map((d) => `${d.line}:${d.column}`)).toContain(at)
    expect(found.find((d) => `${d.line}:${d.column}` === at)!.message).toContain(says)
  })

  it('in modules too', () => {
    const r = parseModule('{fn f(x) == x}\n{const K = a && b}\n{set x = 1', { path: 'm.xty' })
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      "1:10 story/bad-expression a function is written '{fn name(params) = expression}', with one '='",
      "2:14 story/bad-expression unexpected '&& b' after the expression; did you mean 'and'?",
      "3:1 story/unclosed-brace command is not closed on its line; add the closing '}' (a command cannot go on to the next line)",
    ])
  })

  it("names ink's braces and what to write instead", () => {
    const says = (src: string) => parseStory(src, { path: 't.sty' }).diagnostics.map((d) => d.message)
    expect(says('You have {gold > 1: plenty|little} gold.')).toEqual([
      "unknown command '{gold}': this is ink's conditional text; write '{if gold > 1}plenty{else}little{end}', or \\{ for a literal brace",
    ])
    expect(says('Visited {hall} times.')).toEqual([
      "unknown command '{hall}': this is how ink prints a value; write '${hall}' (for a section's read count, '${visits(#hall)}'), or \\{ for a literal brace",
    ])
    expect(says('* {not seen} Leave [#l]\n* {gold >= 2} Buy [#b]')).toEqual([
      "unknown command '{not}': this is an ink condition; write '{if not seen}', or \\{ for a literal brace",
      "unknown command '{gold}': this is an ink condition; write '{if gold >= 2}', or \\{ for a literal brace",
    ])
    expect(says('-> hall.pantry')).toEqual([
      "a jump is written '-> #id' or '-> END'; did you mean '-> #pantry'?",
    ])
  })

  it('suggests nothing where nothing is close', () => {
    const d = parseStory('{frobnicate 3}', { path: 't.sty' }).diagnostics[0]!
    expect(d.message).toBe("unknown command '{frobnicate}'; write \\{ for a literal brace")
    const e = parseStory('${2 d6}', { path: 't.sty' }).diagnostics[0]!
    expect(e.message).toBe("unexpected 'd6' after the expression")
  })
})
