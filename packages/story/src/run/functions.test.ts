// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * 1.1 functions that act (`{fn f(a, ref b)}` … `{end}`) and temporaries (`{temp}`): what they
 * assign, recursion and its depth limit, and exact replay on resume.
 */
import { describe, expect, it } from 'vitest'
import { memorySource, play } from '../../test/helpers/play.ts'
import { parseModule } from '../parse/parse-module.ts'
import { parseStory } from '../parse/parse-story.ts'
import { resumeStoryRun } from './resume-story-run.ts'
import type { StoryEvent } from './types.ts'

const texts = (events: StoryEvent[]) => events.flatMap((e) => (e.type === 'block' ? [e.block.text] : []))
const codes = (events: StoryEvent[]) =>
  events.flatMap((e) => (e.type === 'diagnostic' ? [e.diagnostic.code] : []))
const at11 = (src: string) =>
  parseModule(src, { path: 'm.xty', lang: '1.1' }).diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)
const v11 = (files: Record<string, string>) => ({ ...memorySource(files), lang: '1.1' })
const withModule = (mod: string, part: string, answers: string[] = []) =>
  play(v11({ 'extensions/m.xty': mod, 'x.sty': `{use m}\n${part}` }), answers, { seed: 1 })

describe('block functions (1.1)', () => {
  it('parses {fn f(a, ref b)} … {end} with temp, set, if and return lines', () => {
    const { ast, diagnostics } = parseModule(
      '{fn pay(cost, ref purse)}\n{temp left = purse - cost}\n{if left < 0}\n{return false}\n{end}\n{set purse = left}\n{return true}\n{end}',
      { path: 'm.xty', lang: '1.1' },
    )
    expect(diagnostics).toEqual([])
    expect(ast.fns).toEqual([])
    expect(ast.blockFns?.map((f) => [f.name, f.params, f.refs, f.body.map((n) => n.kind)])).toEqual([
      ['pay', ['cost', 'purse'], [false, true], ['temp', 'if', 'set', 'return']],
    ])
  })
  it('at 1.0 the same head is the 1.0 error, and ref stays a parameter name', () => {
    const a = parseModule('{fn f(n)}\n{end}', { path: 'm.xty' })
    expect(a.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      '1:9 story/bad-expression',
      '2:1 story/unexpected-end',
    ])
    expect(parseModule('{fn f(ref) = ref + 1}', { path: 'm.xty' }).ast.fns[0]?.params).toEqual(['ref'])
    expect(parseModule('{fn f(ref) = ref + 1}', { path: 'm.xty', lang: '1.1' }).ast.fns[0]?.params).toEqual([
      'ref',
    ])
  })
  it('reports text in a function, {return} outside one and a missing {end}', () => {
    const m = parseModule('{fn f()}\nHello.\n{end}\n{passage p}\n{return 1}\n{end}\n{fn g()}', {
      path: 'm.xty',
      lang: '1.1',
    })
    expect(m.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      '2:1 story/module-content',
      '5:1 story/return-placement',
      '7:1 story/missing-end',
    ])
    expect(at11('{return 1}\n{temp t = 1}')).toEqual([
      '1:1 story/return-placement',
      '2:1 story/module-content',
    ])
    const p = parseStory('Hi.\n{return 3}', { path: 'x.sty', lang: '1.1' })
    expect(p.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      '2:1 story/return-placement',
    ])
    expect(p.diagnostics[0]?.message).toMatch(/jump with '-> #id'/)
  })
  it('assigns story variables and the caller’s variable through ref', async () => {
    const { events } = await withModule(
      '{fn pay(cost, ref purse)}\n{temp left = purse - cost}\n{if left < 0}\n{return false}\n{end}\n{set purse = left}\n{set paid += 1}\n{return true}\n{end}\n{set paid = 0}',
      '{set gold = 5}\n# Shop\n${pay(3, gold)} ${gold} ${pay(3, gold)} ${gold} paid ${paid}',
    )
    expect(codes(events)).toEqual([])
    expect(texts(events)).toEqual(['Shop', 'true 2 false 2 paid 1'])
  })
  it('a ref reaches through a chain of calls, and to a temp or local of the caller', async () => {
    const { events } = await withModule(
      '{fn inc(ref n)}\n{set n += 1}\n{end}\n{fn twice(ref n)}\n{temp x = inc(n)}\n{set x = inc(n)}\n{end}',
      '# A\n{local l = 1}\n{temp t = 10}\n${twice(l)}${twice(t)}${l} ${t}',
    )
    expect(codes(events)).toEqual([])
    expect(texts(events)).toEqual(['A', '3 12'])
  })
  it('a constant passed by ref stays constant (story/const-assign)', async () => {
    const { events } = await withModule(
      '{const MAX = 3}\n{fn inc(ref n)}\n{set n += 1}\n{end}',
      '# T\n${inc(MAX)}${MAX}',
    )
    expect(codes(events)).toEqual(['story/const-assign'])
    expect(texts(events)).toEqual(['T', '3'])
  })
  it('recurses, and a function without {return} gives "" (prints nothing, as in ink)', async () => {
    const { events } = await withModule(
      '{fn fact(n)}\n{if n <= 1}\n{return 1}\n{end}\n{return n * fact(n - 1)}\n{end}\n{fn tick()}\n{set ticks += 1}\n{end}',
      '{set ticks = 0}\n# T\n${fact(10)} [${tick()}${tick()}] ${ticks}',
    )
    expect(codes(events)).toEqual([])
    expect(texts(events)).toEqual(['T', '3628800 [] 2'])
  })
  it('a call deeper than 200 is story/recursion-depth and yields false', async () => {
    const { events } = await withModule(
      '{fn down(n)}\n{return down(n + 1)}\n{end}\n{fn deep(n)}\n{if n == 0}\n{return "ok"}\n{end}\n{return deep(n - 1)}\n{end}',
      '# T\n${deep(150)} ${down(0)}',
    )
    expect(codes(events)).toEqual(['story/recursion-depth'])
    expect(texts(events)).toEqual(['T', 'ok false'])
  })
  it('replays exactly on resume: the side effects run again, once', async () => {
    const source = v11({
      'extensions/m.xty':
        '{fn bump(ref n, by)}\n{set n += by}\n{set calls += 1}\n{return n}\n{end}\n{set calls = 0}',
      'x.sty':
        '{use m}\n{set hp = 10}\n# Fight [#fight]\nHP ${bump(hp, -3)}.\n+ Again -> #fight\n+ Stop\n  Calls ${calls}.',
    })
    const { run } = await play(source, ['1', '1'], { seed: 1 })
    const state = run.saveState()
    expect(state.variables.hp).toBe(1)
    const { run: again } = await resumeStoryRun(source, state)
    again.choose({ option: '2' })
    const rest: string[] = []
    for (let e = await again.next(); e; e = await again.next())
      if (e.type === 'block' && !e.replay) rest.push(e.block.text)
    expect(rest).toEqual(['Calls 3.'])
    expect(again.saveState().variables).toMatchObject({ hp: 1, calls: 3 })
  })
})

describe('temporaries (1.1)', () => {
  it('a section temp lives for one visit of the section and is not saved', async () => {
    const source = v11({
      'x.sty':
        '# Room [#room]\n{if visits() == 1}\n{temp note = "first"}\n{end}\n{if visits() > 1}\nNote ${note}.\n{end}\n{temp n = visits() * 10}\n${n}\n+ Again -> #room\n+ Leave',
    })
    const { events, run } = await play(source, ['1'], { seed: 1 })
    expect(texts(events)).toEqual(['Room', '10', 'Room', 'Note false.', '20'])
    expect(codes(events)).toEqual(['story/uninitialised'])
    expect(Object.keys(run.saveState().variables).some((k) => k.includes('.n'))).toBe(false)
  })
  it('a temp survives a pause inside its section, also across save and resume', async () => {
    const source = v11({ 'x.sty': '# A\n{temp roll = 2d6}\nYou rolled ${roll}.\n* Look\n  Still ${roll}.' })
    const { events, run } = await play(source, [], { seed: 9 })
    const first = texts(events)[1]!
    const { run: again } = await resumeStoryRun(source, run.saveState())
    again.choose({ option: '1' })
    const rest: string[] = []
    for (let e = await again.next(); e; e = await again.next())
      if (e.type === 'block' && !e.replay) rest.push(e.block.text)
    expect(rest).toEqual([first.replace('You rolled', 'Still')])
  })
  it('a jump into another section clears the temps; within the section they stay', async () => {
    const { events } = await play(
      v11({
        'x.sty': [
          '{set back = false}',
          '# A',
          '{temp t = 1}',
          '[#here]',
          '{set t += 1}',
          'T ${t}.',
          '{if t < 3}',
          '-> #here',
          '{end}',
          '{if back}',
          '-> END',
          '{end}',
          '-> #bb',
          '# B',
          '[#bb]',
          '{set back = true}',
          '-> #here',
        ].join('\n'),
      }),
    )
    // back in A through an anchor, not its heading: the visit to B ended the temps of A
    expect(texts(events)).toEqual(['A', 'T 2.', 'T 3.', 'T false.'])
    expect(codes(events)).toEqual(['story/uninitialised', 'story/type-error', 'story/type-error'])
  })
  it('a temp in a passage lives for one insert', async () => {
    const { events } = await withModule(
      '{passage p(x)}\n{temp y = x * 2}\n${y}.\n{end}',
      '# T\n{insert p(2)}\n{insert p(5)}',
    )
    expect(codes(events)).toEqual([])
    expect(texts(events)).toEqual(['T', '4.', '10.'])
  })
  it('at 1.0, {temp} is an unknown command', () => {
    expect(parseStory('# A\n{temp x = 1}', { path: 'x.sty' }).diagnostics.map((d) => d.code)).toEqual([
      'story/unknown-command',
    ])
  })
})
