// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/** The checker on 1.1 sets, block functions and temporaries. */
import { describe, expect, it } from 'vitest'
import { type CheckStoryInput, checkStory } from './check-story.ts'

const all = (input: Omit<CheckStoryInput, 'order'> & { order?: string[] }) =>
  checkStory({ storyLang: '1.1', order: Object.keys(input.parts), ...input })
const run = (input: Omit<CheckStoryInput, 'order'> & { order?: string[] }) =>
  all(input).map((d) => `${d.path}:${d.line}:${d.column} ${d.code}`)
const part = (src: string, modules: Record<string, string> = {}) =>
  run({ parts: { 'story/a.sty': src }, modules })

describe('checkStory: sets (1.1)', () => {
  it('a story using sets cleanly has no findings (items are not undeclared variables)', () => {
    expect(
      part(
        '{items Tools = rope, lamp, key}\n{set inv = Tools(rope)}\n# A\n{set inv = inv + lamp - Tools.rope}\n${inv} ${len(inv)} ${contains(inv, key)} ${min(inv)}',
      ),
    ).toEqual([])
  })
  it('the motivating trap: a list or text taken from a set is a static story/type-error, with the fix', () => {
    const ds = all({
      parts: {
        'story/a.sty':
          '{items Tools = rope, lamp}\n{set inv = Tools(rope, lamp)}\n# A\n{set inv = inv - ["rope"]}\n{set inv -= "lamp"}\n${contains(inv, "rope")}',
      },
    })
    expect(ds.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      '4:16 story/type-error',
      '5:13 story/type-error',
      '6:17 story/type-error',
    ])
    expect(ds[0]!.message).toMatch(/write Tools\.rope$/)
    expect(ds[1]!.message).toMatch(/write Tools\.lamp$/)
  })
  it('a variable that is not always a set is not typed (play decides)', () => {
    expect(part('{items Tools = rope}\n{set inv = Tools(rope)}\n# A\n{set inv = 3}\n${inv - 1}')).toEqual([])
  })
  it('an item shared by two declarations, or by a variable, is story/ambiguous-item', () => {
    expect(part('{items A = red, blue}\n{items B = red}\n# A\n${red} ${A.red} ${blue}')).toEqual([
      'story/a.sty:4:3 story/ambiguous-item',
    ])
    expect(part('{items A = red}\n{set red = 1}\n# A\n${red}')).toEqual([
      'story/a.sty:4:3 story/ambiguous-item',
    ])
  })
  it('an item the declaration does not have is a type error', () => {
    expect(
      part('{items A = red}\n{items B = green}\n# A\n${A.green} ${A(red, green)} ${A(red, blue)}'),
    ).toEqual([
      'story/a.sty:4:4 story/type-error',
      'story/a.sty:4:21 story/type-error',
      'story/a.sty:4:38 story/undeclared',
    ])
  })
  it('a set declared twice is story/duplicate-declaration; a module set is shared', () => {
    expect(
      run({
        parts: { 'story/a.sty': '{use m}\n{items T = x}\n${T.y}', 'story/b.sty': '{use m}\n${T.y} ${y}' },
        modules: { 'extensions/m.xty': '{items T = y}' },
      }),
    ).toEqual(['story/a.sty:2:8 story/duplicate-declaration'])
  })
  it('at 1.0, the same text is the 1.0 finding', () => {
    expect(
      checkStory({ parts: { 'a.sty': '{items T = x}\nHi.' }, order: ['a.sty'] }).map((d) => d.code),
    ).toEqual(['story/unknown-command'])
  })
})

describe('checkStory: block functions and temporaries (1.1)', () => {
  const mod = (src: string, use: string) =>
    run({ parts: { 'story/a.sty': `{use m}\n${use}` }, modules: { 'extensions/m.xty': src } })
  it('a recursive block function is fine; a cycle of one-line functions stays story/recursion', () => {
    expect(mod('{fn f(n)}\n{if n > 0}\n{return f(n - 1)}\n{end}\n{return 0}\n{end}', '${f(3)}')).toEqual([])
    expect(mod('{fn f(n) = g(n)}\n{fn g(n) = f(n)}', '${f(3)}')).toEqual([
      'extensions/m.xty:1:5 story/recursion',
    ])
  })
  it('checks arity, unknown names and ref arguments', () => {
    expect(
      mod(
        '{fn pay(cost, ref purse)}\n{temp left = purse - cost}\n{set purse = left}\n{return left >= 0}\n{end}',
        '{set gold = 3}\n# A\n${pay(1, gold)} ${pay(1, gold + 1)} ${pay(1)} ${nope(1)}',
      ),
    ).toEqual([
      'story/a.sty:4:26 story/ref-argument',
      'story/a.sty:4:39 story/arity',
      'story/a.sty:4:49 story/unknown-function',
    ])
  })
  it('a constant passed for a ref parameter is story/const-assign', () => {
    expect(mod('{const MAX = 3}\n{fn inc(ref n)}\n{set n += 1}\n{end}', '${inc(MAX)}')).toEqual([
      'story/a.sty:2:7 story/const-assign',
    ])
  })
  it('reads of a name no temp, parameter or variable gives are undeclared', () => {
    expect(mod('{fn f()}\n{temp t = 1}\n{return t + missing}\n{end}', '${f()}')).toEqual([
      'extensions/m.xty:3:13 story/undeclared',
    ])
    expect(part('# A\n{temp t = 2}\n${t}\n# B\n${t}')).toEqual(['story/a.sty:5:3 story/undeclared'])
  })
  it('{set} in a block function declares a story variable', () => {
    expect(mod('{fn f()}\n{set seen = true}\n{end}', '${f()} ${seen}')).toEqual([])
  })
  it('{return} outside a function is story/return-placement', () => {
    expect(part('Hi.\n{return 1}')).toEqual(['story/a.sty:2:1 story/return-placement'])
  })
})
