// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * Every static diagnostic points at the first character of the offending token (STORY-LANGUAGE.md
 * section 1, "Positions"): the target of a gate or link, the id after `:`, a media path, the word
 * of a command that is wrong, the name a check is about. A diagnostic about a whole command (unknown,
 * misplaced, unclosed, unmatched, or not what its place needs) is reported at its `{` (clarification 27):
 * one case per such code below.
 */
import { describe, expect, it } from 'vitest'
import { checkStory } from './check-story.ts'

/** The other files of the package each case is checked in. */
const B = '# B [#x]\n[#anc]\n* Take [#opt]\n  Taken.'
const LIB =
  '{fn twice(n) = n * 2}\n{passage greet(who)}\nHello, ${who}.\n{end}\n{extern host.save()}\n{const MAX = 3}'

interface Case {
  code: string
  /** The part `story/a.sty` (or the module `extensions/m.xty` when `module` is set). */
  source: string
  at: `${number}:${number}`
  module?: boolean
  /** Extra modules. */
  modules?: Record<string, string>
}

// biome-ignore format: one case a line reads best
const CASES: Case[] = [
  // targets of gates and links
  { code: 'story/unknown-part', source: '[[ missing.sty ]]', at: '1:4' },
  { code: 'story/unknown-part', source: 'Hello.\n[[   missing.sty   ]]', at: '2:6' },
  { code: 'story/unknown-part', source: 'Open the [vault > 0009-vault.sty] now.', at: '1:19' },
  { code: 'story/unknown-part', source: '* Go\n  The [door >  other.sty:x] shuts.', at: '2:16' },
  { code: 'story/unknown-id', source: '[[ b.sty:nope ]]', at: '1:10' },
  { code: 'story/unknown-id', source: 'See [the hall > b.sty:nope].', at: '1:23' },
  { code: 'story/not-a-target', source: '[[ b.sty:opt ]]', at: '1:10' },
  { code: 'story/not-a-target', source: 'See [it > b.sty:opt].', at: '1:17' },
  // media paths
  { code: 'story/missing-media', source: 'Look.\n![a map](img/none.png)', at: '2:10' },
  { code: 'story/missing-media', source: '![](  img/none.png  )', at: '1:7' },
  { code: 'story/bad-path', source: '![x]( /abs.png)', at: '1:7' },
  // whole commands: their `{` (clarification 27)
  { code: 'story/unknown-command', source: '{endif}', at: '1:1' },
  { code: 'story/unknown-command', source: '# A\n{frobnicate 3}', at: '2:1' },
  { code: 'story/unknown-command', source: 'Text {  fi } more.', at: '1:6' },
  { code: 'story/unknown-command', source: '# A\n  {fn f(x) = x}', at: '2:3' },
  { code: 'story/unknown-command', source: 'Gold {local g = 1} here.', at: '1:6' },
  { code: 'story/bad-default', source: '{set gold += 1}\nHi.', at: '1:1' },
  { code: 'story/bad-default', source: '{set g  -= 1}', at: '1:1', module: true },
  { code: 'story/repeated-default', source: '{set a = 1}\n  {set a = a + 5}\nA is ${a}.', at: '2:3' },
  { code: 'story/repeated-default', source: '{set a = 1}\n{set b = 2}\n{set a = 3}', at: '3:1', module: true },
  { code: 'story/else-without-if', source: 'Hi.\n  {else}', at: '2:3' },
  { code: 'story/else-without-if', source: '{if true}\nA.\n{else}\nB.\n  {elif false}\nC.\n{end}', at: '5:3' },
  { code: 'story/unexpected-end', source: 'Hi.\n  {end}', at: '2:3' },
  { code: 'story/missing-end', source: 'Hi.\n  {if true}\nA.', at: '2:3' },
  { code: 'story/missing-end', source: '{passage p}\nHello.', at: '1:1', module: true },
  { code: 'story/unclosed-brace', source: 'Hi.\n  {set g = 1', at: '2:3' },
  { code: 'story/unclosed-brace', source: 'Gold {if true here.', at: '1:6' },
  { code: 'story/unclosed-brace', source: '{set g = 1\nHi.', at: '1:1' },
  { code: 'story/unclosed-brace', source: '* {if true Go\n  Gone.', at: '1:3' },
  { code: 'story/use-placement', source: '# A\n  {use lib}', at: '2:3' },
  { code: 'story/seed-placement', source: '# A\n  {seed 3}', at: '2:3' },
  { code: 'story/seed-placement', source: '{seed 3}\n  {seed 4}\nHi.', at: '2:3' },
  { code: 'story/local-placement', source: 'Hi.\n  {local n = 1}', at: '2:3' },
  { code: 'story/module-content', source: '{passage p}\n  {local n = 1}\n{end}', at: '2:3', module: true },
  { code: 'story/module-content', source: '  {const K = 1}', at: '1:3', module: true },
  // commands: the value, the operator
  { code: 'story/bad-expression', source: '{if true}\nA.\n{else  now}\nB.\n{end}', at: '3:8' },
  { code: 'story/bad-expression', source: '{seed  soon}', at: '1:8' },
  { code: 'story/seed-range', source: '{seed 99999999999}', at: '1:7' },
  { code: 'story/bad-expression', source: '{use  two words}', at: '1:7' },
  { code: 'story/bad-expression', source: '# H\n{local n -= 1}', at: '2:10' },
  { code: 'story/bad-expression', source: '{const K += 1}', at: '1:10', module: true },
  // names the checks are about
  { code: 'story/undeclared', source: 'Hi.\n{set  nope += 1}', at: '2:7' },
  { code: 'story/const-assign', source: '{use lib}\n{set   MAX = 4}', at: '2:8' },
  { code: 'story/shadowing', source: '{set g = 1}\n# H\n{local  g = 2}', at: '3:9' },
  { code: 'story/unknown-function', source: '{use lib}\n{insert  nope}', at: '2:10' },
  { code: 'story/unknown-function', source: '{use lib}\n{call  host.nope()}', at: '2:8' },
  { code: 'story/arity', source: '{use lib}\n{insert greet(1, 2)}', at: '2:9' },
  { code: 'story/arity', source: '{use lib}\n{call host.save(1)}', at: '2:7' },
  { code: 'story/unknown-module', source: '{use  nope}\nHi.', at: '1:7' },
  { code: 'story/unknown-module', source: '{use nope}', at: '1:6', module: true },
  { code: 'story/duplicate-declaration', source: '{fn  len(x) = x}', at: '1:6', module: true },
  { code: 'story/duplicate-declaration', source: '{const A = 1}\n{const  A = 2}', at: '2:9', module: true },
  { code: 'story/duplicate-declaration', source: '{passage  twice}\n{end}', at: '1:11', module: true, modules: {} },
  { code: 'story/extern-namespace', source: '{extern  foo.bar()}', at: '1:10', module: true },
  { code: 'story/recursion', source: '{fn  f(x) = f(x)}', at: '1:6', module: true },
  { code: 'story/module-cycle', source: '{use  a}', at: '1:7', module: true, modules: { 'extensions/a.xty': '{use m}' } },
]

function found(c: Case) {
  const part = c.module ? '{use m}\nHi.' : c.source
  const modules: Record<string, string> = { 'extensions/lib.xty': LIB, ...c.modules }
  if (c.module) modules['extensions/m.xty'] = c.source
  return checkStory({
    parts: { 'story/a.sty': part, 'story/b.sty': B },
    order: ['story/a.sty', 'story/b.sty'],
    modules,
    assets: ['story/a.sty', 'story/b.sty'],
    requires: ['host'],
  }).filter((d) => d.code === c.code && d.path === (c.module ? 'extensions/m.xty' : 'story/a.sty'))
}

describe('static diagnostics point at the offending token', () => {
  it.each(CASES)('$code at $at in $source', (c) => {
    const ds = found(c)
    expect(ds.map((d) => `${d.line}:${d.column}`)).toEqual([c.at])
  })
})
