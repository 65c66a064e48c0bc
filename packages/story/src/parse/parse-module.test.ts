// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
import { describe, expect, it } from 'vitest'
import { strip } from '../../test/helpers/parse.ts'
import { parseModule } from './parse-module.ts'

describe('parseModule (section 8)', () => {
  it('reads every kind of declaration', () => {
    const r = parseModule(
      [
        '// combat helpers',
        '{use extensions/dice.xty}',
        '{set hp = 10}',
        '{const MAX_HP = 10}',
        '{fn bar(n, of) = "[" + n + "/" + of + "]"}',
        '{fn zero() = 0}',
        '{extern audio.play(name, volume)}',
        '{passage status(who)}',
        '${who}: ${bar(hp, MAX_HP)}{if hp < 4} (bleeding){end}',
        '{if hp < 2}',
        '![dying](img/dying.png)',
        '{end}',
        '{set seen = true}',
        '{end}',
        '',
        '{passage divider}',
        '---',
        '{end}',
      ].join('\n'),
      { path: 'extensions/combat.xty' },
    )
    expect(r.diagnostics).toEqual([])
    const ast = strip(r.ast)
    expect(ast.uses).toEqual([{ module: 'extensions/dice.xty' }])
    expect(ast.defaults).toEqual([{ name: 'hp', op: '=', e: { k: 'num', v: 10 } }])
    expect(ast.consts).toEqual([{ name: 'MAX_HP', e: { k: 'num', v: 10 } }])
    expect(ast.fns.map((f) => [f.name, f.params])).toEqual([
      ['bar', ['n', 'of']],
      ['zero', []],
    ])
    expect(ast.externs).toEqual([{ ns: 'audio', fn: 'play', params: ['name', 'volume'] }])
    expect(ast.passages.map((p) => [p.name, p.params, p.body.map((n) => n.kind)])).toEqual([
      ['status', ['who'], ['paragraph', 'if', 'set']],
      ['divider', [], ['paragraph']],
    ])
    expect(r.ast.passages[0]!.pos).toEqual({ line: 8, column: 1 })
  })

  it('goes on after a bad line and reports each one', () => {
    const r = parseModule('Hello\n{const A = }\n{fn f(x) = x}\n# H', { path: 'm.xty' })
    expect(r.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual([
      'story/module-content@1',
      'story/bad-expression@2',
      'story/module-content@4',
    ])
    expect(r.ast.fns.map((f) => f.name)).toEqual(['f'])
  })

  it('skips the body of a passage whose head cannot be read', () => {
    const r = parseModule('{passage 1p}\ntext\n{end}\n{const A = 1}', { path: 'm.xty' })
    expect(r.diagnostics.map((d) => d.code)).toEqual(['story/bad-expression'])
    expect(r.ast.consts).toHaveLength(1)
  })
})
