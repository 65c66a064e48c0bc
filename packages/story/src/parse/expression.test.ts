import { describe, expect, it } from 'vitest'
import type { Expr } from '../ast.ts'
import { ExprParser, ExprSyntaxError } from './expression.ts'

/** Prints an expression as a fully parenthesised string. */
function show(e: Expr): string {
  switch (e.k) {
    case 'num':
      return String(e.v)
    case 'str':
      return JSON.stringify(e.v)
    case 'bool':
      return String(e.v)
    case 'dice':
      return `${e.n}d${e.m}`
    case 'ref':
      return `#${e.id}`
    case 'target':
      return e.target
    case 'name':
      return e.name
    case 'list':
      return `[${e.items.map(show).join(', ')}]`
    case 'un':
      return `(${e.op === 'not' ? 'not ' : '-'}${show(e.e)})`
    case 'bin':
      return `(${show(e.a)} ${e.op} ${show(e.b)})`
    case 'call':
      return `${e.callee}(${e.args.map(show).join(', ')})`
    case 'index':
      return `${show(e.e)}[${show(e.index)}]`
    case 'field':
      return `${show(e.e)}.${e.name}`
  }
}

const parse = (src: string) => new ExprParser(src, (o) => ({ line: 1, column: o + 1 })).parseAll()
const error = (src: string) => {
  try {
    parse(src)
  } catch (e) {
    if (e instanceof ExprSyntaxError) return `${e.offset + 1}: ${e.message}`
    throw e
  }
  return 'no error'
}

describe('expressions (section 6)', () => {
  it.each([
    ['1 + 2 * 3', '(1 + (2 * 3))'],
    ['(1 + 2) * 3', '((1 + 2) * 3)'],
    ['10 - 4 - 3', '((10 - 4) - 3)'],
    ['8 / 4 / 2', '((8 / 4) / 2)'],
    ['7 % 3 * 2', '((7 % 3) * 2)'],
    ['-2 * 3', '((-2) * 3)'],
    ['- - 1', '(-(-1))'],
    ['a + b == c', '((a + b) == c)'],
    ['a != b', '(a != b)'],
    ['a < b', '(a < b)'],
    ['a <= b', '(a <= b)'],
    ['a > b', '(a > b)'],
    ['a >= b', '(a >= b)'],
    ['not a == b', '(not (a == b))'],
    ['not not a', '(not (not a))'],
    ['a or b and c', '(a or (b and c))'],
    ['a and b or c and d', '((a and b) or (c and d))'],
    ['not a and b', '((not a) and b)'],
    ['a or b or c', '((a or b) or c)'],
    ['1 < 2 and 3 >= 2', '((1 < 2) and (3 >= 2))'],
    ['"a" + 1.5', '("a" + 1.5)'],
    ['true or false', '(true or false)'],
    ['[1, "x", [true]]', '[1, "x", [true]]'],
    ['[]', '[]'],
    ['xs[0] + m.key + m["k"]', '((xs[0] + m.key) + m["k"])'],
    ['m.a.b[1][2]', 'm.a.b[1][2]'],
    ['len(xs) - 1', '(len(xs) - 1)'],
    ['max(1, min(2, 3))', 'max(1, min(2, 3))'],
    ['visits()', 'visits()'],
    ['visits(#bar) > 1', '(visits(#bar) > 1)'],
    ['picked(#talk) == "map"', '(picked(#talk) == "map")'],
    ['audio.volume(0.5)', 'audio.volume(0.5)'],
    ['2d6 + d20', '(2d6 + 1d20)'],
    ['100d1', '100d1'],
    ['d6x', 'd6x'],
    ['_tmp1', '_tmp1'],
  ])('%s', (src, expected) => {
    expect(show(parse(src))).toBe(expected)
  })

  it('reads string escapes', () => {
    const e = parse('"q\\" b\\\\ n\\n t\\t u\\u{1F600}"')
    expect(e).toMatchObject({ k: 'str', v: 'q" b\\ n\n t\t u\u{1F600}' })
  })

  it('reads numbers as IEEE-754 values', () => {
    expect(parse('0.25')).toMatchObject({ k: 'num', v: 0.25 })
    expect(parse('007')).toMatchObject({ k: 'num', v: 7 })
  })

  it('records the position of each node', () => {
    const e = parse('a  + b') as Extract<Expr, { k: 'bin' }>
    expect([e.a.pos.column, e.pos.column, e.b.pos.column]).toEqual([1, 4, 6])
  })

  it.each([
    ['gold >', "7: expected an expression after '>'"],
    ['3x', "1: a number cannot run into a name ('3x')"],
    ['2 d6', "3: unexpected 'd6' after the expression"],
    [
      '1 < 2 < 3',
      "7: unexpected '< 3' after the expression; comparisons do not chain: join two with 'and' (a < b and b < c)",
    ],
    ['(1 + 2', "7: expected ')' at the end"],
    ['[1, 2', "6: expected ',' or ']' at the end"],
    ['f(1,)', "5: expected an expression after ','"],
    ['"open', '1: the string is not closed'],
    ['"\\q"', "2: unknown escape '\\q' in a string"],
    ['"\\u{110000}"', '2: a \\u escape is written \\u{hex}'],
    ['if', "1: 'if' is a reserved word, not a value"],
    ['a.', "3: expected a key name after '.'"],
    ['#', "1: expected an id after '#'"],
    ['@', "1: unexpected '@'"],
    ['', '1: expected an expression'],
    ['1.', "3: expected a key name after '.'"],
  ])('rejects %j', (src, expected) => {
    expect(error(src)).toBe(expected)
  })

  it('refuses to nest or chain deeper than its limit instead of overflowing the stack', () => {
    const limit = /nested or chained more than 256 levels deep/
    expect(error(`${'('.repeat(5000)}1${')'.repeat(5000)}`)).toMatch(limit)
    expect(error(`${'not '.repeat(5000)}a`)).toMatch(limit)
    expect(error(`${'-'.repeat(5000)}1`)).toMatch(limit)
    for (const op of ['+', '-', '*', '/', '%', ' and ', ' or '])
      expect(error(Array(5000).fill('1').join(op))).toMatch(limit)
    expect(error(`a${'.b'.repeat(5000)}`)).toMatch(limit)
    expect(error(`a${'[0]'.repeat(5000)}`)).toMatch(limit)
    expect(error(`${'f('.repeat(5000)}`)).toMatch(limit)
    expect(show(parse(`[${Array(5000).fill('1').join(',')}]`))).toMatch(/^\[1, 1/)
    expect(show(parse(Array(200).fill('1').join(' + ')))).toMatch(/^\(+1 \+ 1\)/)
    expect(show(parse(`${'('.repeat(100)}1${')'.repeat(100)}`))).toBe('1')
  })
})
