/**
 * Every operator, built-in and runtime diagnostic of section 6 (clarifications 19-25), one row each.
 */
import { describe, expect, it } from 'vitest'
import { memorySource, play } from '../../test/helpers/play.ts'
import { BUILTINS as LANGUAGE_BUILTINS, REF_BUILTINS } from '../builtins.ts'
import { checkStory } from '../check/check-story.ts'
import { BUILTIN_NAMES, BUILTINS } from './builtins.ts'
import { createRng, drawInt } from './rng.ts'

/** Renders `${expr}` in a one-line story (seed 42) and returns the text and diagnostic codes. */
async function evaluate(expr: string, session: Record<string, never> | Record<string, unknown> = {}) {
  const src = memorySource({ 'x.sty': `Value: \${${expr}}.` }, { session: session as never })
  const { events } = await play(src, [], { seed: 42 })
  const block = events.find((e) => e.type === 'block')
  const codes = events.flatMap((e) => (e.type === 'diagnostic' ? [e.diagnostic.code] : []))
  const text =
    block?.type === 'block' ? block.block.text.replace(/^Value: /, '').replace(/\.$/, '') : undefined
  return { text, codes }
}

const seeded = (a: number, b: number) => drawInt(createRng(42), a, b)

describe('operators and printing', () => {
  it.each([
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['7 / 2', '3.5'],
    ['-7 % 3', '-1'],
    ['7 % -3', '1'],
    ['10 - 4 - 3', '3'],
    ['"gold: " + 3', 'gold: 3'],
    ['1.5 + "x"', '1.5x'],
    ['[1, 2] + [3]', '1, 2, 3'],
    ['"a" < "b"', 'true'],
    ['"B" < "a"', 'true'],
    ['2 >= 2', 'true'],
    ['3 != 3', 'false'],
    ['[1, [2]] == [1, [2]]', 'true'],
    ['1 == "1"', 'false'],
    ['0 or ""', 'false'],
    ['1 and "x"', 'true'],
    ['not []', 'true'],
    ['-(0)', '0'],
    ['-0 * 1', '0'],
    ['0.1 + 0.2', '0.30000000000000004'],
    ['[1, 2, 3][1]', '2'],
    ['true', 'true'],
  ])('%s prints %j', async (expr, want) => {
    const r = await evaluate(expr)
    expect(r).toEqual({ text: want, codes: [] })
  })
  it('reads session maps with .k and ["k"], and prints maps as compact JSON', async () => {
    const session = { hero: { name: 'Ana', stats: { hp: 3 } } }
    expect(await evaluate('hero.name + hero["stats"].hp', session)).toEqual({ text: 'Ana3', codes: [] })
    expect(await evaluate('hero.stats', session)).toEqual({ text: '{"hp":3}', codes: [] })
  })
  it('short-circuits and/or (no draw on the right)', async () => {
    const src = memorySource({ 'x.sty': `\${false and chance(0.5)} \${true or chance(0.5)}` })
    const { run, lines } = await play(src, [], { seed: 42 })
    expect(lines[1]).toBe('#0 paragraph "false true"')
    expect(run.saveState().rng.state).toBe(42)
  })
})

describe('built-ins', () => {
  it.each([
    ['len("héllo😀")', '6'],
    ['len([1, [2, 3]])', '2'],
    ['join(["a", 1, true], "-")', 'a-1-true'],
    ['contains([1, [2]], [2])', 'true'],
    ['contains("forest", "res")', 'true'],
    ['contains([1], "1")', 'false'],
    ['min(3, 1, 2)', '1'],
    ['max([4, 9, 2])', '9'],
    ['abs(-2.5)', '2.5'],
    ['floor(-1.5)', '-2'],
    ['ceil(1.2)', '2'],
    ['round(2.5)', '3'],
    ['round(-2.5)', '-2'],
    ['str(1.50) + str([1, 2])', '1.51, 2'],
    ['num("3.25") + 1', '4.25'],
    ['num(" -2 ")', '-2'],
    ['upper("straße")', 'STRASSE'],
    ['lower("ÉTÉ")', 'été'],
    ['cap("élan vital")', 'Élan vital'],
    ['cap("")', ''],
    ['random(1, 100)', String(seeded(1, 100))],
    ['random(5, 5)', '5'],
    ['roll(2, 6)', '7'],
    ['2d6', '7'],
    ['d6', String(seeded(1, 6))],
    ['pick(["a club", "a rock", "a chair"])', 'a rock'],
    ['chance(1)', 'true'],
    ['chance(0)', 'false'],
  ])('%s gives %j', async (expr, want) => {
    expect(await evaluate(expr)).toEqual({ text: want, codes: [] })
  })
})

describe('runtime errors never stop play', () => {
  it.each([
    ['1 - "a"', 'false', 'story/type-error'],
    ['"ab"[0]', 'false', 'story/type-error'],
    ['1 < "2"', 'false', 'story/type-error'],
    ['upper(3)', 'false', 'story/type-error'],
    ['num("abc")', 'false', 'story/type-error'],
    ['len(5)', 'false', 'story/type-error'],
    ['[1, 2][2]', 'false', 'story/index-range'],
    ['[1, 2][-1]', 'false', 'story/index-range'],
    ['nobody', 'false', 'story/undefined'],
    ['1 / 0 + 5', '5', 'story/division-by-zero'],
    ['5 % 0', '0', 'story/division-by-zero'],
    ['len()', 'false', 'story/arity'],
    ['join([1])', 'false', 'story/arity'],
    ['random(1, 2, 3)', 'false', 'story/arity'],
    ['random(5, 1)', '5', 'story/roll-range'],
    ['random(0, 1000000)', '0', 'story/roll-range'],
    ['roll(0, 6)', '0', 'story/roll-range'],
    ['roll(101, 6)', '0', 'story/roll-range'],
    ['roll(2, 0)', '0', 'story/roll-range'],
    ['pick([])', 'false', 'story/empty-pick'],
    ['nofn(1)', 'false', 'story/unknown-function'],
    ['host.missing(1)', 'false', 'story/host-error'],
  ])('%s yields %j with %s', async (expr, want, code) => {
    expect(await evaluate(expr)).toEqual({ text: want, codes: [code] })
  })
  it('a result beyond the finite numbers is story/number-overflow and yields 0', async () => {
    expect(await evaluate('big * big + 1', { big: 1e200 })).toEqual({
      text: '1',
      codes: ['story/number-overflow'],
    })
  })
  it('a map without the key is story/no-key', async () => {
    expect(await evaluate('hero.age', { hero: { name: 'Ana' } })).toEqual({
      text: 'false',
      codes: ['story/no-key'],
    })
  })
  it('failed rolls draw nothing', async () => {
    const src = memorySource({ 'x.sty': `\${roll(0, 6)}\${random(2, 1)}\${pick([])}` })
    const { run } = await play(src, [], { seed: 9 })
    expect(run.saveState().rng.state).toBe(9)
  })
  it('diagnostics carry the file, line and column of the failing operation', async () => {
    const { events } = await play(memorySource({ 'story/x.sty': `A\n\nB \${1 / 0}` }), [], { seed: 1 })
    const d = events.find((e) => e.type === 'diagnostic')
    expect(d?.type === 'diagnostic' && d.diagnostic).toMatchObject({
      code: 'story/division-by-zero',
      severity: 'error',
      path: 'story/x.sty',
      line: 3,
      column: 7,
    })
  })
})

describe('one table of built-ins', () => {
  it('the interpreter implements exactly the value built-ins of the language table, with its arities', () => {
    const valueNames = [...LANGUAGE_BUILTINS.keys()].filter((n) => !REF_BUILTINS.has(n))
    expect([...BUILTINS.keys()].sort()).toEqual(valueNames.sort())
    for (const [name, [min, max]] of BUILTINS) expect([min, max]).toEqual(LANGUAGE_BUILTINS.get(name))
    expect([...BUILTIN_NAMES].sort()).toEqual([...LANGUAGE_BUILTINS.keys()].sort())
  })

  it('a module may not redeclare a built-in, at check time and at play time alike', async () => {
    for (const name of LANGUAGE_BUILTINS.keys()) {
      const files = { 'story/a.sty': '{use m}\nHi.', 'extensions/m.xty': `{fn ${name}(x) = x}` }
      const checked = checkStory({
        parts: { 'story/a.sty': files['story/a.sty'] },
        order: ['story/a.sty'],
        modules: { 'extensions/m.xty': files['extensions/m.xty'] },
      })
      expect(checked.map((d) => d.code)).toContain('story/duplicate-declaration')
      const { lines } = await play(memorySource(files))
      expect(lines.filter((l) => l.startsWith('! story/duplicate-declaration'))).toHaveLength(1)
    }
  })
})
