// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The worked examples of STORY-LANGUAGE.md section 11 parse without unexpected diagnostics, to
 * the trees the interpreter needs; E8 gives exactly the diagnostics the language lists.
 */

import { E1, E2, E3, E4, E5, E6_MODULE, E6_PART, E8 } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { strip, where } from '../../test/helpers/parse.ts'
import { E8_DIAGNOSTICS } from '../../test/helpers/worked-examples.ts'
import type { Node } from '../ast.ts'
import { parseModule } from './parse-module.ts'
import { parseStory } from './parse-story.ts'

const clean = (src: string, path: string) => {
  const r = parseStory(src, { path })
  expect(where(r.diagnostics)).toEqual([])
  return r.ast
}
const kinds = (ns: Node[]) => ns.map((n) => n.kind)

describe('section 11 worked examples', () => {
  it('E1: part tags, defaults, a styled paragraph with a break and inline if, media', () => {
    const ast = clean(E1, 'story/inn.sty')
    expect(ast.declarations.tags).toEqual(['theme:night'])
    expect(ast.declarations.defaults.map((d) => d.name)).toEqual(['gold', 'name', 'hard'])
    expect(kinds(ast.body)).toEqual(['heading', 'paragraph', 'set', 'media', 'paragraph'])
    expect(ast.body[0]).toMatchObject({ level: 1, id: 'inn' })
    const p = strip(ast.body[1]) as Extract<Node, { kind: 'paragraph' }>
    expect(p.tags).toEqual(['mood:cold'])
    expect(p.lines[0]!.map((i) => i.k)).toEqual([
      'text',
      'interp',
      'text',
      'delim',
      'text',
      'delim',
      'text',
      'break',
      'text',
      'interp',
      'text',
      'if',
      'text',
    ])
    expect(ast.body[3]).toMatchObject({
      kind: 'media',
      media: 'image',
      path: 'assets/inn.webp',
      alt: 'The common room',
      tags: ['fullscreen'],
    })
  })

  it('E2: a silent section, once-only options, a fallback and visits()', () => {
    const ast = clean(E2, 'platform.sty')
    expect(kinds(ast.body)).toEqual([
      'heading',
      'heading',
      'paragraph',
      'group',
      'heading',
      'paragraph',
      'jump',
    ])
    expect(ast.body[1]).toMatchObject({ id: 'search', silent: true, level: 2 })
    const g = ast.body[3] as Extract<Node, { kind: 'group' }>
    expect(g.id).toBe('search@1')
    expect(g.options.map((o) => [o.id, o.fallback, o.jump?.target])).toEqual([
      ['1', false, undefined],
      ['2', false, 'search'],
      ['3', true, 'collapse'],
    ])
    expect(kinds(g.options[0]!.body)).toEqual(['paragraph', 'jump'])
  })

  it('E3: a local, a named group, explicit option id, guard, sticky options', () => {
    const ast = clean(E3, 'bar.sty')
    expect(kinds(ast.body)).toEqual(['heading', 'local', 'paragraph', 'group', 'paragraph', 'jump'])
    const g = ast.body[3] as Extract<Node, { kind: 'group' }>
    expect(g).toMatchObject({ id: 'talk', explicitId: true })
    expect(g.options.map((o) => [o.id, o.sticky, !!o.guard, o.tags])).toEqual([
      ['map', false, false, []],
      ['2', false, true, ['cost:2']],
      ['3', true, false, []],
      ['4', true, false, []],
    ])
    expect(g.options[3]!.jump).toMatchObject({ target: null })
  })

  it('E4: {seed}, dice, random, chance and pick', () => {
    const ast = clean(E4, 'dice.sty')
    expect(ast.declarations.seed?.value).toBe(42)
    expect(kinds(ast.body)).toEqual(['paragraph', 'set', 'if', 'paragraph'])
    expect(strip(ast.body[0])).toMatchObject({
      lines: [[{}, { k: 'interp', e: { k: 'dice', n: 2, m: 6 } }, {}]],
    })
  })

  it('E5: a gate, two links and a scene heading', () => {
    const inn = clean(E5['story/0001-inn.sty'], 'story/0001-inn.sty')
    expect(inn.body.at(-1)).toMatchObject({ kind: 'gate', target: '0002-road.sty' })
    const road = clean(E5['story/0002-road.sty'], 'story/0002-road.sty')
    const links = (strip(road.body[1]) as Extract<Node, { kind: 'paragraph' }>).lines[0]!.filter(
      (i) => i.k === 'link',
    )
    expect(links.map((l) => (l as { target: string }).target)).toEqual([
      '0003-forest.sty:edge',
      '0003-forest.sty',
    ])
    const forest = clean(E5['story/0003-forest.sty'], 'story/0003-forest.sty')
    expect(forest.body[1]).toMatchObject({ kind: 'heading', id: 'edge', level: 2 })
    expect(forest.body[3]).toMatchObject({ kind: 'group', id: 'edge@1' })
  })

  it('E6: a module with a default, a constant, functions and a passage, and a part that uses it', () => {
    const m = parseModule(E6_MODULE, { path: 'extensions/combat.xty' })
    expect(m.diagnostics).toEqual([])
    expect(m.ast.defaults.map((d) => d.name)).toEqual(['hp'])
    expect(m.ast.consts.map((c) => c.name)).toEqual(['MAX_HP'])
    expect(m.ast.fns.map((f) => [f.name, f.params])).toEqual([
      ['hurt', ['n']],
      ['bar', ['n']],
    ])
    expect(m.ast.passages.map((p) => [p.name, p.params, kinds(p.body)])).toEqual([
      ['status', ['who'], ['paragraph']],
    ])
    const part = clean(E6_PART, 'duel.sty')
    expect(part.declarations.uses.map((u) => u.module)).toEqual(['combat'])
    expect(kinds(part.body)).toEqual(['paragraph', 'insert', 'set', 'insert', 'set', 'insert'])
  })

  it('E8: exactly the listed diagnostics, with their positions', () => {
    const r = parseStory(E8, { path: 'bad.sty' })
    expect(r.diagnostics.map((d) => `${d.path}:${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual(
      E8_DIAGNOSTICS,
    )
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      "command is not closed on its line; add the closing '}' (a command cannot go on to the next line)",
      "expected an expression after '>'",
      "no heading, anchor or group '#vault'",
      'unreachable after the jump on line 4',
      "target escapes the archive ('..')",
      "'#hall' already names line 2",
      "'${' is not closed; add '}' after the expression",
    ])
  })
})
